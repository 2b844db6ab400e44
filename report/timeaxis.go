package report

import (
	"time"

	"gonum.org/v1/plot"
)

// timeAxis maps a run's times (seconds of the trace's clock) to a
// figure's x axis: time since the run's first event in the unit that
// suits the span (hours, days or weeks), or calendar dates in the trace's
// time zone when the run's epoch is known.
type timeAxis struct {
	unit  bucketUnit
	epoch *time.Time     // the trace's time 0; nil: time since the first event
	loc   *time.Location // the zone dates are shown in; nil: UTC
	span  float64        // s, the longest run's
}

// newTimeAxis picks the axis for runs spanning span seconds: hours for
// up to a few days (minute and hour buckets), else the bucket's unit.
func newTimeAxis(span float64, epoch *time.Time, loc *time.Location) timeAxis {
	b, _ := chooseBucket(span)
	if b.Seconds < 3600 {
		b = bucketUnits[2]
	}
	if loc == nil {
		loc = time.UTC
	}
	return timeAxis{unit: b, epoch: epoch, loc: loc, span: span}
}

// x is where time t (trace seconds) of a run whose first event is at t0
// goes on the axis.
func (a timeAxis) x(t, t0 float64) float64 {
	if a.epoch != nil {
		return float64(a.epoch.Unix()) + t
	}
	return (t - t0) / a.unit.Seconds
}

// apply labels the plot's x axis and sets its ticks: round calendar
// times in the zone, named on the axis.
func (a timeAxis) apply(p *plot.Plot) {
	if a.epoch == nil {
		p.X.Label.Text = "time since the first event (" + a.unit.Name + "s)"
		p.X.Tick.Marker = cleanTicks{}
		return
	}
	what := "date"
	if a.span <= 3*86400 {
		what = "time"
	}
	p.X.Label.Text = what + " (" + zoneName(a.loc) + ")"
	p.X.Tick.Marker = calendarTicks{loc: a.loc}
}

// zoneName is how an axis names a zone: its IANA name, "UTC" for UTC.
func zoneName(loc *time.Location) string {
	if loc == nil || loc == time.UTC || loc.String() == "" {
		return "UTC"
	}
	return loc.String()
}
