package report

import (
	"time"

	"gonum.org/v1/plot"
)

// calendarTicks label an axis of Unix seconds at round calendar times of
// a zone: whole hours, midnights, Mondays, first days of months or of
// years, the step chosen from the span so that about four to eight
// labels show. Local midnights and month starts follow the zone's
// daylight-saving changes, so a tick says "00:00" on the wall clock.
type calendarTicks struct{ loc *time.Location }

// calendarStep is one choice of tick spacing: the labelled ticks every
// n units, unlabelled ones at every unit (every minor hours) between.
type calendarStep struct {
	unit   string // "hour", "day", "week", "month", "year"
	n      int
	minor  int // minor ticks every minor units; 0: none
	approx float64
}

var calendarSteps = []calendarStep{
	{"hour", 1, 0, 3600}, {"hour", 2, 1, 2 * 3600}, {"hour", 3, 1, 3 * 3600}, {"hour", 6, 1, 6 * 3600},
	{"hour", 12, 3, 12 * 3600}, {"day", 1, 0, 86400}, {"day", 2, 1, 2 * 86400}, {"week", 1, 1, 7 * 86400},
	{"week", 2, 1, 14 * 86400}, {"month", 1, 0, 30 * 86400}, {"month", 2, 1, 61 * 86400},
	{"month", 3, 1, 91 * 86400}, {"month", 6, 1, 182 * 86400}, {"year", 1, 0, 365 * 86400},
	{"year", 2, 1, 730 * 86400}, {"year", 5, 1, 1826 * 86400}, {"year", 10, 1, 3652 * 86400},
}

// maxCalendarLabels is the most labelled ticks: the labels of a
// 16:9 figure's axis stay apart at 12 pt.
const maxCalendarLabels = 8

// pickStep is the finest step that labels at most maxCalendarLabels
// ticks over span seconds.
func pickStep(span float64) calendarStep {
	for _, s := range calendarSteps {
		if span/s.approx <= maxCalendarLabels {
			return s
		}
	}
	return calendarSteps[len(calendarSteps)-1]
}

func (c calendarTicks) Ticks(min, max float64) []plot.Tick {
	loc := c.loc
	if loc == nil {
		loc = time.UTC
	}
	s := pickStep(max - min)
	lo := time.Unix(int64(min), 0).In(loc)
	var ts []plot.Tick
	prevDay := -1
	for t, k := floorTo(lo, s.unit), 0; k < 10000; k++ {
		v := float64(t.Unix())
		if v > max {
			break
		}
		if v >= min {
			switch {
			case onStep(t, s):
				ts = append(ts, plot.Tick{Value: v, Label: calendarLabel(t, s, prevDay)})
				prevDay = t.YearDay() + 1000*t.Year()
			case s.minor > 0 && (s.unit != "hour" || t.Hour()%s.minor == 0):
				ts = append(ts, plot.Tick{Value: v})
			}
		}
		t = advance(t, s.unit)
	}
	return ts
}

// floorTo is t rounded down to a whole unit of its zone (hours; local
// midnight; Monday midnight; the first of the month; the first of the
// year).
func floorTo(t time.Time, unit string) time.Time {
	y, m, d := t.Date()
	loc := t.Location()
	switch unit {
	case "hour":
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, loc)
	case "day":
		return time.Date(y, m, d, 0, 0, 0, 0, loc)
	case "week":
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return time.Date(y, m, d-back, 0, 0, 0, 0, loc)
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, loc)
	default:
		return time.Date(y, 1, 1, 0, 0, 0, 0, loc)
	}
}

// advance is t plus one unit, in wall-clock terms of its zone.
func advance(t time.Time, unit string) time.Time {
	switch unit {
	case "hour":
		return t.Add(time.Hour)
	case "day":
		return t.AddDate(0, 0, 1)
	case "week":
		return t.AddDate(0, 0, 7)
	case "month":
		return t.AddDate(0, 1, 0)
	default:
		return t.AddDate(1, 0, 0)
	}
}

// onStep says whether t is a labelled tick of s: its unit's count is a
// multiple of s.n (hours of the day, days of the month from the 1st,
// weeks of the year, months from January, years).
func onStep(t time.Time, s calendarStep) bool {
	switch s.unit {
	case "hour":
		return t.Hour()%s.n == 0
	case "day":
		return (t.Day()-1)%s.n == 0
	case "week":
		_, w := t.ISOWeek()
		return w%s.n == 1%s.n
	case "month":
		return (int(t.Month())-1)%s.n == 0
	default:
		return t.Year()%s.n == 0
	}
}

// calendarLabel is a tick's text: the hour, with the date below it at
// the first tick and at each new day; the day and month; the month, with
// the year at January and at the first tick; the year.
func calendarLabel(t time.Time, s calendarStep, prevDay int) string {
	switch s.unit {
	case "hour":
		if prevDay != t.YearDay()+1000*t.Year() {
			return t.Format("15:04\nMon 2 Jan")
		}
		return t.Format("15:04")
	case "day", "week":
		if prevDay < 0 || prevDay/1000 != t.Year() {
			return t.Format("2 Jan\n2006")
		}
		return t.Format("2 Jan")
	case "month":
		if prevDay < 0 || t.Month() == time.January {
			return t.Format("Jan\n2006")
		}
		return t.Format("Jan")
	default:
		return t.Format("2006")
	}
}
