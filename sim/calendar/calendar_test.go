package calendar

import (
	"strings"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
)

const kth = `time_zone: UTC
phases:
  - sync: true
    windows:
      - {days: mon-fri, start: "07:00", max_walltime_s: 14400}
      - {days: mon-thu, start: "16:00", max_walltime_s: 54000}
      - {days: fri, start: "16:00", max_walltime_s: 216000}
  - from: 1997-06-06
    windows:
      - {days: mon-fri, start: "07:00", max_walltime_s: 14400}
      - {days: mon-thu, start: "16:00", max_walltime_s: 54000}
      - {days: fri, start: "16:00", max_walltime_s: 216000}
`

func compile(t *testing.T, text string, epoch time.Time) *Compiled {
	t.Helper()
	f, err := Parse("cal.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(f, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func at(h float64) sim.Time { return sim.Time(h * 3600 * float64(sim.Second)) }

// TestWindows walks a week of the KTH calendar from Monday 3 March 1997.
func TestWindows(t *testing.T) {
	c := compile(t, kth, time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC))
	for _, tc := range []struct {
		name      string
		t         sim.Time
		end, sync sim.Time
		maxWall   sim.Time
	}{
		{"monday before 07:00 is the weekend's", at(6), at(7), at(7), at(60)},
		{"monday day", at(7), at(16), at(16), at(4)},
		{"monday 15:59", at(15.99), at(16), at(16), at(4)},
		{"monday night", at(16), at(24 + 7), at(24 + 7), at(15)},
		{"thursday night ends friday 07:00", at(3*24 + 20), at(4*24 + 7), at(4*24 + 7), at(15)},
		{"friday evening runs to monday 07:00", at(4*24 + 16), at(7*24 + 7), at(7*24 + 7), at(60)},
		{"sunday", at(6*24 + 12), at(7*24 + 7), at(7*24 + 7), at(60)},
	} {
		w := c.At(tc.t)
		if w.End != tc.end || w.SyncAt != tc.sync || w.MaxWalltime != tc.maxWall {
			t.Errorf("%s: At(%s) = end %s sync %s max %s, want %s %s %s", tc.name, tc.t, w.End, w.SyncAt, w.MaxWalltime, tc.end, tc.sync, tc.maxWall)
		}
	}
	// 6 June 1997 (a Friday) begins the phase without synchronization
	// points: the window holding Thursday 23:00 ends at the phase's start
	// but keeps its own synchronization point, Friday 07:00; Friday's day
	// window has none.
	june6 := sim.Time(time.Date(1997, 6, 6, 0, 0, 0, 0, time.UTC).Sub(time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC)).Microseconds())
	if w := c.At(june6 - at(1)); w.End != june6 || w.SyncAt != june6+at(7) {
		t.Errorf("before the phase change: end %s sync %s, want %s %s", w.End, w.SyncAt, june6, june6+at(7))
	}
	if w := c.At(june6 + at(8)); w.SyncAt != sim.Forever || w.End != june6+at(16) || w.MaxWalltime != at(4) {
		t.Errorf("after the phase change: %+v", w)
	}
}

// TestAdmits is the window's rule: under the limit, and ending by the
// synchronization point.
func TestAdmits(t *testing.T) {
	w := sim.Window{End: at(16), MaxWalltime: at(4), SyncAt: at(16)}
	for _, tc := range []struct {
		now, est sim.Time
		want     bool
	}{{at(7), at(4), true}, {at(7), at(4) + 1, false}, {at(13), at(3), true}, {at(13), at(3) + 1, false}} {
		if got := w.Admits(tc.now, tc.est); got != tc.want {
			t.Errorf("Admits(%s, %s) = %v, want %v", tc.now, tc.est, got, tc.want)
		}
	}
	if !(sim.Window{End: sim.Forever, SyncAt: sim.Forever}).Admits(0, at(1e6)) {
		t.Error("a window without limit or synchronization point refuses a job")
	}
}

// TestEverAdmits: the weekend's window (63 h, limit 60 h) is the longest;
// after the phase change only the limits hold.
func TestEverAdmits(t *testing.T) {
	c := compile(t, kth, time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC))
	if !c.EverAdmits(0, at(60)) || c.EverAdmits(0, at(60)+1) {
		t.Error("60 h is the longest walltime the calendar admits")
	}
	open := compile(t, "phases:\n  - sync: true\n    windows: [{days: mon-fri, start: \"07:00\", max_walltime_s: 0}, {days: mon-fri, start: \"16:00\"}]\n  - from: 1997-06-06\n", time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC))
	if !open.EverAdmits(0, at(1000)) {
		t.Error("a later phase without windows admits every job")
	}
	one := compile(t, "phases:\n  - sync: true\n    windows: [{days: mon-fri, start: \"07:00\"}, {days: mon-fri, start: \"16:00\"}]\n", time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC))
	if !one.EverAdmits(0, at(63)) || one.EverAdmits(0, at(63)+1) {
		t.Error("with synchronization points the longest window (Friday 16:00 to Monday 07:00, 63 h) bounds the walltime")
	}
}

// TestDaylightSaving keeps the windows' hours on the wall clock across
// Stockholm's change to summer time on 30 March 1997.
func TestDaylightSaving(t *testing.T) {
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	text := strings.Replace(kth, "time_zone: UTC", "time_zone: Europe/Stockholm", 1)
	epoch := time.Date(1997, 3, 28, 12, 0, 0, 0, stockholm) // Friday noon, winter time
	c := compile(t, text, epoch)
	w := c.At(0)
	if got := epoch.Add(time.Duration(w.End) * time.Microsecond).In(stockholm); got.Hour() != 16 || got.Day() != 28 {
		t.Errorf("Friday's day window ends at %v, want 16:00 on the 28th", got)
	}
	w = c.At(w.End) // the weekend's window, across the change
	end := epoch.Add(time.Duration(w.End) * time.Microsecond).In(stockholm)
	if end.Hour() != 7 || end.Day() != 31 {
		t.Errorf("the weekend's window ends at %v, want Monday 31 March 07:00", end)
	}
	if got := end.Sub(time.Date(1997, 3, 28, 16, 0, 0, 0, stockholm)); got != 62*time.Hour {
		t.Errorf("the weekend's window lasts %v, want 62 h (an hour is skipped)", got)
	}
}

// TestParseErrors names the file, line and key of every problem at once.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"bad day", "phases:\n  - windows:\n      - {days: mon-fry, start: \"07:00\"}\n", `cal.yaml:3: phases[0].windows[0].days: unknown day "fry"`},
		{"days as a list", "phases:\n  - windows:\n      - {days: [mon, tue], start: \"07:00\"}\n", "cal.yaml:3: phases[0].windows[0].days: want days such as mon-fri, got "},
		{"from as a mapping", "phases:\n  - {}\n  - from: {date: 1997-06-06}\n", "cal.yaml:3: phases[1].from: want a date such as 1997-06-06, got "},
		{"bad clock", "phases:\n  - windows:\n      - {days: mon, start: \"7h\"}\n", `cal.yaml:3: phases[0].windows[0].start: want a time of day as HH:MM (24 h), got "7h"`},
		{"negative limit", "phases:\n  - windows:\n      - {days: mon, start: \"07:00\", max_walltime_s: -1}\n", "cal.yaml:3: phases[0].windows[0].max_walltime_s: want seconds from 0 (no limit)"},
		{"unknown key", "phases:\n  - windws: []\n", `cal.yaml:2: unknown key "phases[0].windws" (did you mean "phases[0].windows"?)`},
		{"zone", "time_zone: Mars/Olympus\nphases:\n  - windows: []\n", `cal.yaml:1: time_zone: unknown time zone "Mars/Olympus"`},
		{"local zone", "time_zone: Local\nphases:\n  - windows: []\n", "cal.yaml:1: time_zone: Local is this machine's zone"},
		{"first phase from", "phases:\n  - from: 1997-01-01\n", "cal.yaml:2: phases[0].from: the first phase holds from the start of the trace"},
		{"missing from", "phases:\n  - windows: []\n  - windows: []\n", "cal.yaml:3: phases[1].from: missing"},
		{"out of order", "phases:\n  - {}\n  - {from: 1997-06-06}\n  - {from: 1997-01-01}\n", "cal.yaml:4: phases[2].from: 1997-01-01 is not after the previous phase's 1997-06-06"},
		{"same start", "phases:\n  - windows:\n      - {days: mon-fri, start: \"07:00\"}\n      - {days: fri, start: \"07:00\"}\n", "cal.yaml:4: phases[0].windows[1]: starts on fri at 07:00, as window 0 does"},
		{"no phases", "time_zone: UTC\n", "phases: want at least one phase"},
	} {
		_, err := Parse("cal.yaml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestEverAdmitsPhaseEnds: a phase that ends counts only the windows it
// still holds. The weekend's window (no limit) of a phase ending on
// Wednesday is behind a job arriving on Monday; one ending the next
// Monday still has it ahead.
func TestEverAdmitsPhaseEnds(t *testing.T) {
	const text = "phases:\n  - sync: true\n    windows: [{days: mon-fri, start: \"07:00\", max_walltime_s: 14400}, {days: fri, start: \"16:00\"}]\n  - from: %s\n    windows: [{days: mon-sun, start: \"07:00\", max_walltime_s: 14400}]\n"
	monday := time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC)
	soon := compile(t, strings.Replace(text, "%s", "1997-03-05", 1), monday)
	if soon.EverAdmits(at(1), at(10)) {
		t.Error("10 h at Monday 01:00: the weekend's window comes after its phase ends, yet admitted")
	}
	if !soon.EverAdmits(at(1), at(4)) {
		t.Error("4 h refused though the later phase admits it")
	}
	later := compile(t, strings.Replace(text, "%s", "1997-03-10", 1), monday)
	if !later.EverAdmits(at(1), at(10)) {
		t.Error("10 h at Monday 01:00: Friday 16:00's window admits it before the phase ends, yet refused")
	}
	if later.EverAdmits(at(4*24+17), at(63)) {
		t.Error("63 h at Friday 17:00: the weekend's window has 62 h left, yet admitted")
	}
}

// TestLaterPhaseSync: a job started before a phase with synchronization
// points may not run across its first one, nor across one that starts the
// instant the phase begins.
func TestLaterPhaseSync(t *testing.T) {
	const text = "phases:\n  - windows: [{days: mon-fri, start: \"07:00\", max_walltime_s: 14400}, {days: mon-fri, start: \"16:00\"}]\n  - from: %s\n    sync: true\n    windows: [{days: mon-fri, start: \"07:00\"}, {days: mon-fri, start: \"16:00\"}]\n"
	monday := time.Date(1997, 3, 3, 0, 0, 0, 0, time.UTC)
	c := compile(t, strings.Replace(text, "%s", "1997-03-05", 1), monday)
	// Tuesday 20:00: the night's window, no synchronization point of its
	// own; the later phase's first is Wednesday 07:00.
	if w := c.At(at(24 + 20)); w.SyncAt != at(2*24+7) || w.End != at(2*24) {
		t.Errorf("Tuesday 20:00: end %s sync %s, want %s %s", w.End, w.SyncAt, at(2*24), at(2*24+7))
	}
	if c.At(at(24+20)).Admits(at(24+20), at(12)) {
		t.Error("12 h at Tuesday 20:00 runs across Wednesday 07:00, yet admitted")
	}
	// The later phase begins at 07:00, a window start: that instant is
	// its first synchronization point.
	c = compile(t, strings.Replace(text, "%s", "\"1997-03-05 07:00\"", 1), monday)
	if w := c.At(at(2*24 + 6)); w.SyncAt != at(2*24+7) {
		t.Errorf("Wednesday 06:00 before a phase beginning at 07:00: sync %s, want %s", w.SyncAt, at(2*24+7))
	}
	// Without synchronization points in any phase there are none.
	c = compile(t, strings.Replace(strings.Replace(text, "%s", "1997-03-05", 1), "sync: true", "sync: false", 1), monday)
	if w := c.At(at(24 + 20)); w.SyncAt != sim.Forever {
		t.Errorf("no phase has synchronization points, yet sync at %s", w.SyncAt)
	}
}
