package run

import (
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/calendar"
)

// siteCalendar loads --calendar and places it on the trace's calendar
// time; nil without one.
func siteCalendar(cfg *Spec, w *Workload) (sim.Calendar, error) {
	if cfg.Calendar == "" {
		return nil, nil
	}
	f, err := calendar.Load(cfg.Calendar)
	if err != nil {
		return nil, cfg.problem("calendar", "%v", err)
	}
	if w.Epoch.IsZero() {
		return nil, cfg.problem("calendar", "%s: trace %s has no calendar time (no epoch: an SWF UnixStartTime, a native trace's epoch line), so its hours and days are unknown", cfg.Calendar, w.Name)
	}
	return calendar.Compile(f, w.Epoch)
}
