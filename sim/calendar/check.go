package calendar

import (
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
)

// check reports what the decoder cannot see: the zone, the order of the
// phases, the windows' fields.
func (f *File) check(d *strictyaml.Decoder, root *yaml.Node) {
	loc, err := time.LoadLocation(f.TimeZone)
	if f.TimeZone == "Local" {
		// The machine's own zone: the same file would replay differently
		// elsewhere.
		d.Errorf(strictyaml.ValueOf(root, "time_zone"), "time_zone", "Local is this machine's zone, not the site's: give an IANA name such as Europe/Stockholm, or UTC")
		loc = time.UTC
	} else if err != nil {
		d.Errorf(strictyaml.ValueOf(root, "time_zone"), "time_zone", "unknown time zone %q (want an IANA name such as Europe/Stockholm, or UTC)", f.TimeZone)
		loc = time.UTC
	}
	phases := strictyaml.ValueOf(root, "phases")
	if len(f.Phases) == 0 {
		d.Errorf(root, "phases", "want at least one phase (a list of windows)")
	}
	var last time.Time
	for i, p := range f.Phases {
		pn := strictyaml.ItemOf(phases, i)
		path := "phases[" + strconv.Itoa(i) + "]"
		switch {
		case i == 0 && p.From.Set:
			d.Errorf(strictyaml.ValueOf(pn, "from"), path+".from", "the first phase holds from the start of the trace: give it no from")
		case i > 0 && !p.From.Set:
			d.Errorf(pn, path+".from", "missing: each phase after the first needs the date it begins")
		case i > 0:
			at, _ := p.From.In(loc)
			if i > 1 && !at.After(last) {
				d.Errorf(strictyaml.ValueOf(pn, "from"), path+".from", "%s is not after the previous phase's %s: phases go in time order", p.From.Text, f.Phases[i-1].From.Text)
			}
			last = at
		}
		if p.Sync && len(p.Windows) == 0 {
			d.Errorf(strictyaml.ValueOf(pn, "sync"), path+".sync", "a phase without windows has no synchronization points: give windows, or drop sync")
		}
		seen := map[int]int{}
		wins := strictyaml.ValueOf(pn, "windows")
		for k, w := range p.Windows {
			wn := strictyaml.ItemOf(wins, k)
			wpath := path + ".windows[" + strconv.Itoa(k) + "]"
			if w.Days == 0 {
				d.Errorf(wn, wpath+".days", "missing: the days the window starts on, such as mon-fri")
			}
			if !w.Start.Set {
				d.Errorf(wn, wpath+".start", "missing: the time of day the window starts, as HH:MM")
			}
			if w.MaxWalltimeS < 0 || math.IsNaN(w.MaxWalltimeS) || math.IsInf(w.MaxWalltimeS, 0) || w.MaxWalltimeS > maxWalltimeS {
				d.Errorf(strictyaml.ValueOf(wn, "max_walltime_s"), wpath+".max_walltime_s", "want seconds from 0 (no limit) to %d, got %s", int64(maxWalltimeS), strictyaml.ScalarOf(wn, "max_walltime_s"))
			}
			for day := time.Sunday; day <= time.Saturday; day++ {
				if !w.Days.Has(day) || !w.Start.Set {
					continue
				}
				at := weekOffset(day, w.Start.Seconds)
				if prev, ok := seen[at]; ok {
					d.Errorf(wn, wpath, "starts on %s at %s, as window %d does: one window a start", dayNames[day], clockText(w.Start.Seconds), prev)
				}
				seen[at] = k
			}
		}
	}
}

// maxWalltimeS bounds a window's limit: a year.
const maxWalltimeS = 366 * 86400
