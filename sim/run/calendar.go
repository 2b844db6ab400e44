package run

import (
	"time"

	"github.com/schedsim/schedsim/sim"
)

// DisplayZone is the zone hours and days are shown in: flag (a
// --time-zone), else the trace's own, else UTC. Validate checked the
// flag's name; a trace's unknown zone name falls back to UTC.
func DisplayZone(flag, trace string) *time.Location {
	for _, name := range []string{flag, trace} {
		if name == "" {
			continue
		}
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return time.UTC
}

// ZoneLabel names a zone: its IANA name, UTC for UTC.
func ZoneLabel(loc *time.Location) string {
	if loc == nil || loc.String() == "" || loc.String() == "Local" {
		return "UTC"
	}
	return loc.String()
}

// CalendarTime is trace time t, of a trace whose time 0 is epoch, as a
// date and minute in loc.
func CalendarTime(epoch time.Time, t sim.Time, loc *time.Location) string {
	return epoch.Add(time.Duration(t.Seconds() * float64(time.Second))).In(loc).Format("2006-01-02 15:04 MST")
}
