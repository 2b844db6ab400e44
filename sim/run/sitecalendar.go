package run

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/calendar"
)

// siteCalendar loads --calendar and places it on the trace's calendar
// time; nil without one. Errors name the flag, or the spec file's line
// that set the calendar.
func siteCalendar(cfg *Spec, w *Workload) (sim.Calendar, error) {
	if cfg.Calendar == "" {
		return nil, nil
	}
	f, err := calendar.Load(cfg.Calendar)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.where("calendar"), err)
	}
	if w.Epoch.IsZero() {
		return nil, cfg.problem("calendar", "%s: trace %s has no calendar time (no epoch: an SWF header's UnixStartTime, a JSON Lines or CSV trace's first line # schedsim.epoch=1997-03-03T00:00:00Z), so its hours and days are unknown", cfg.Calendar, w.Name)
	}
	return calendar.Compile(f, w.Epoch)
}
