package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// percentTicks are cleanTicks labelled as percentages of the value times
// scale: 100 for a share in [0, 1], 1 for values already in %.
type percentTicks struct{ scale float64 }

func (t percentTicks) Ticks(min, max float64) []plot.Tick {
	ts := cleanTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(ts[i].Value*t.scale, 'g', 12, 64), 64)
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64) + " %"
		}
	}
	return ts
}

// durationMarks are the labelled ticks of a log axis of durations: the
// units people count waits in.
var durationMarks = []struct {
	s     float64
	label string
}{
	{1, "1 s"}, {10, "10 s"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {6 * 3600, "6 h"},
	{86400, "1 d"}, {7 * 86400, "1 wk"}, {30 * 86400, "30 d"}, {365 * 86400, "1 yr"}, {3650 * 86400, "10 yr"},
}

// durationTicks label a logarithmic axis in seconds with durationMarks,
// and put unlabelled ticks at the powers of ten between.
type durationTicks struct{}

func (durationTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, m := range durationMarks {
		if m.s >= min && m.s <= max {
			ts = append(ts, plot.Tick{Value: m.s, Label: m.label})
		}
	}
	for e := math.Floor(math.Log10(math.Max(min, 1e-9))); math.Pow(10, e) <= max; e++ {
		if v := math.Pow(10, e); v >= min && v != 1 && v != 10 {
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}

// coarseDurationTicks are durationTicks for a small panel: only the
// second, minute, hour and day are labelled, the other marks are ticks.
type coarseDurationTicks struct{}

func (coarseDurationTicks) Ticks(min, max float64) []plot.Tick {
	ts := durationTicks{}.Ticks(min, max)
	for i := range ts {
		switch ts[i].Value {
		case 1, 60, 3600, 86400:
		default:
			ts[i].Label = ""
		}
	}
	return ts
}
