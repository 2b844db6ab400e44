package calendar

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/schedsim/schedsim/sim"
)

const (
	day  = 86400
	week = 7 * day
)

// weekOffset is the seconds from Sunday 00:00 to sec past midnight of d.
func weekOffset(d time.Weekday, sec int) int { return int(d)*day + sec }

func clockText(sec int) string { return fmt.Sprintf("%02d:%02d", sec/3600, sec/60%60) }

// Compiled is a calendar for one trace: its sim.Calendar.
type Compiled struct {
	epoch  int64 // the trace's time 0, in Unix microseconds
	loc    *time.Location
	phases []phase
}

type phase struct {
	from    sim.Time // math.MinInt64 for the first
	sync    bool
	windows []weekly // by offset
}

// weekly is a window's start in the week and its limit.
type weekly struct {
	offset int // seconds from Sunday 00:00
	max    sim.Time
}

var _ sim.Calendar = (*Compiled)(nil)

// Compile places a checked calendar file on a trace's calendar time:
// epoch is the instant of the trace's time 0.
func Compile(f *File, epoch time.Time) (*Compiled, error) {
	loc, err := time.LoadLocation(f.TimeZone)
	if err != nil {
		return nil, err
	}
	c := &Compiled{epoch: epoch.UnixMicro(), loc: loc}
	for i, p := range f.Phases {
		ph := phase{from: math.MinInt64, sync: p.Sync}
		if i > 0 {
			at, err := p.From.In(loc)
			if err != nil {
				return nil, err
			}
			ph.from = sim.Time(at.UnixMicro() - c.epoch)
		}
		for _, w := range p.Windows {
			for d := time.Sunday; d <= time.Saturday; d++ {
				if w.Days.Has(d) {
					ph.windows = append(ph.windows, weekly{offset: weekOffset(d, w.Start.Seconds), max: sim.SecondsToTime(w.MaxWalltimeS)})
				}
			}
		}
		sort.Slice(ph.windows, func(a, b int) bool { return ph.windows[a].offset < ph.windows[b].offset })
		c.phases = append(c.phases, ph)
	}
	return c, nil
}

// phaseAt is the index of the phase holding t.
func (c *Compiled) phaseAt(t sim.Time) int {
	return sort.Search(len(c.phases), func(i int) bool { return c.phases[i].from > t }) - 1
}

// At returns the window holding t. Its synchronization point is the
// earlier of its own phase's next window start (with sync) and the first
// one of a later phase with sync: a job started before a phase with
// synchronization points begins may not run across them either.
func (c *Compiled) At(t sim.Time) sim.Window {
	p := c.phaseAt(t)
	end := sim.Forever
	if p+1 < len(c.phases) {
		end = c.phases[p+1].from
	}
	ph := &c.phases[p]
	if len(ph.windows) == 0 {
		return sim.Window{End: end, SyncAt: c.laterSync(p)}
	}
	i, boundary := c.windowAt(ph, t)
	w := sim.Window{End: min(end, boundary), MaxWalltime: ph.windows[i].max, SyncAt: sim.Forever}
	if ph.sync {
		w.SyncAt = boundary
	}
	w.SyncAt = min(w.SyncAt, c.laterSync(p))
	return w
}

// windowAt is the index of ph's weekly window holding t, and when the
// next one starts (after t).
func (c *Compiled) windowAt(ph *phase, t sim.Time) (int, sim.Time) {
	local := time.UnixMicro(c.epoch + int64(t)).In(c.loc)
	sec := local.Hour()*3600 + local.Minute()*60 + local.Second()
	cur := weekOffset(local.Weekday(), sec)
	i := sort.Search(len(ph.windows), func(i int) bool { return ph.windows[i].offset > cur }) - 1
	if i < 0 {
		i = len(ph.windows) - 1 // the week's last window runs on past Sunday 00:00
	}
	next := ph.windows[(i+1)%len(ph.windows)].offset
	ahead := next - cur
	if ahead <= 0 {
		ahead += week
	}
	// The next start on the wall clock: so many days on, at its hour, so
	// that a change of daylight saving time keeps the windows' hours.
	days := (sec + ahead) / day
	at := time.Date(local.Year(), local.Month(), local.Day()+days, 0, 0, next%day, 0, c.loc)
	boundary := sim.Time(at.UnixMicro() - c.epoch)
	if boundary <= t {
		boundary = t + sim.Second // a wall-clock hour skipped by daylight saving time
	}
	return i, boundary
}

// laterSync is the first synchronization point of the phases after p:
// the first window start, at or after its phase's beginning, of a phase
// with sync that still holds then; Forever when none.
func (c *Compiled) laterSync(p int) sim.Time {
	for q := p + 1; q < len(c.phases); q++ {
		ph := &c.phases[q]
		if !ph.sync || len(ph.windows) == 0 {
			continue
		}
		_, first := c.windowAt(ph, ph.from-1)
		if q+1 < len(c.phases) && first >= c.phases[q+1].from {
			continue // the phase ends before any of its windows starts
		}
		return first
	}
	return sim.Forever
}

// EverAdmits reports whether a window from t on admits a job of
// estimated runtime est: under its limit, and, with synchronization
// points, no longer than what is left of the window. The last phase
// repeats its week for ever, so each of its windows comes again whole;
// an earlier phase ends, so only the windows it still holds from t on
// count (a job a phase's weekend window would admit, arriving on the
// Monday before a phase that admits it nowhere, is never admitted).
func (c *Compiled) EverAdmits(t, est sim.Time) bool {
	last := len(c.phases) - 1
	if c.phases[last].admitsSome(est) {
		return true
	}
	for p := c.phaseAt(t); p < last; p++ {
		s, end := max(t, c.phases[p].from), c.phases[p+1].from
		// The window holding s and a week's more: past them the phase
		// only repeats itself.
		for k := 0; k <= len(c.phases[p].windows) && s < end; k++ {
			w := c.At(s)
			if w.Admits(s, est) {
				return true
			}
			s = w.End
		}
	}
	return false
}

// admitsSome reports whether some window of the phase, whole, admits a
// job of estimated runtime est.
func (ph *phase) admitsSome(est sim.Time) bool {
	if len(ph.windows) == 0 {
		return true
	}
	for i, w := range ph.windows {
		length := ph.windows[(i+1)%len(ph.windows)].offset - w.offset
		if length <= 0 {
			length += week
		}
		if (w.max == 0 || est <= w.max) && (!ph.sync || est <= sim.Time(length)*sim.Second) {
			return true
		}
	}
	return false
}
