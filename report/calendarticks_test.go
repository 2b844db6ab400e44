package report

import (
	"strings"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// kthEpoch is KTH-SP2's time 0, its SWF header's UnixStartTime.
var kthEpoch = time.Date(1996, 9, 23, 12, 0, 31, 0, time.UTC)

// TestCalendarTicksTimeZone: KTH-SP2's time 0 is 14:00 in Stockholm
// (CEST, UTC+2); ticks over its first day fall on whole local hours,
// labelled in local time, with the date under the first; over a year they
// fall on local month starts.
func TestCalendarTicksTimeZone(t *testing.T) {
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	s := NewTraceStats()
	s.SetCalendar(kthEpoch, sthlm)
	s.Add(&sim.Job{ID: "1", Submit: 0, Tasks: 1})
	at, _ := s.At(0)
	if got := at.Format("15:04 MST"); got != "14:00 CEST" {
		t.Errorf("KTH-SP2's time 0 in Stockholm: %s, want 14:00 CEST", got)
	}
	if s.HourOfDay[14] != 1 || s.DayOfWeek[0] != 1 { // Monday 23 September 1996
		t.Errorf("a submit at time 0 counted at hours %v, days %v; want local hour 14, Monday", s.HourOfDay, s.DayOfWeek)
	}

	min := float64(kthEpoch.Unix())
	ts := calendarTicks{loc: sthlm}.Ticks(min, min+86400)
	var labels []string
	for _, tk := range ts {
		local := time.Unix(int64(tk.Value), 0).In(sthlm)
		if local.Minute() != 0 || local.Second() != 0 {
			t.Errorf("tick at %s: not a whole local hour", local)
		}
		if tk.Label != "" {
			labels = append(labels, tk.Label)
			if h := strings.SplitN(tk.Label, "\n", 2)[0]; h != local.Format("15:04") {
				t.Errorf("tick at %s labelled %q", local, tk.Label)
			}
		}
	}
	if len(labels) < 4 || len(labels) > maxCalendarLabels {
		t.Errorf("%d labels over a day: %q", len(labels), labels)
	}
	if labels[0] != "15:00\nMon 23 Sep" {
		t.Errorf("first label %q, want 15:00 with the date under it (14:00:31 is not a whole hour)", labels[0])
	}

	year := calendarTicks{loc: sthlm}.Ticks(min, min+365*86400)
	n := 0
	for _, tk := range year {
		local := time.Unix(int64(tk.Value), 0).In(sthlm)
		if local.Day() != 1 || local.Hour() != 0 {
			t.Errorf("year tick at %s: not a local month start", local)
		}
		if tk.Label != "" {
			n++
		}
	}
	if n < 4 || n > maxCalendarLabels {
		t.Errorf("%d labels over a year", n)
	}
}

// TestTimeAxisNamesZone: a calendar axis names its zone.
func TestTimeAxisNamesZone(t *testing.T) {
	sthlm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	p := newPlot("", "", "")
	newTimeAxis(300*86400, &kthEpoch, sthlm).apply(p)
	if p.X.Label.Text != "date (Europe/Stockholm)" {
		t.Errorf("axis %q", p.X.Label.Text)
	}
	newTimeAxis(86400, &kthEpoch, nil).apply(p)
	if p.X.Label.Text != "time (UTC)" {
		t.Errorf("axis %q", p.X.Label.Text)
	}
}
