package report

import (
	"math"
	"time"
)

// calendarLayouts are the ways a jobs table writes a calendar time: RFC
// 3339 in CSV, Arrow's text of a timestamp column.
var calendarLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"}

// epochOf is the date of the trace's time 0 when the jobs table has a
// submit_time column next to submit_s: submit_time − submit_s of its first
// row with both. nil when it has none, and the time axes count from the
// run's first event.
func epochOf(t *table) *time.Time {
	cal := t.text["submit_time"]
	secs := t.num["submit_s"]
	for i := 0; i < len(cal) && i < len(secs); i++ {
		if cal[i] == "" || math.IsNaN(secs[i]) {
			continue
		}
		for _, layout := range calendarLayouts {
			at, err := time.Parse(layout, cal[i])
			if err != nil {
				continue
			}
			e := at.Add(-time.Duration(secs[i] * float64(time.Second))).UTC()
			return &e
		}
		return nil
	}
	return nil
}
