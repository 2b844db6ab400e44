package refsched

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Config chooses the algorithm.
type Config struct {
	// Algorithm is "fcfs" (no backfilling) or "easy".
	Algorithm string
	// CountReservation makes EASY's reservation a count of resources, as
	// on one node of interchangeable processors (schedsim's SWF pool
	// model), instead of the head's specific resources.
	CountReservation bool
}

// usec is a time in microseconds, as schedsim counts it, so that sums of
// times compare exactly.
type usec int64

func toUsec(s float64) usec { return usec(math.Round(s * 1e6)) }

type job struct {
	id       string
	res      int
	estimate usec // walltime, or the delay profile's runtime without one
	start    usec
	alloc    []int
}

// expectedEnd is when the job is expected to free its resources, never
// before now.
func (j *job) expectedEnd(now usec) usec { return max(j.start+j.estimate, now) }

// Scheduler is the decision state of one simulation.
type Scheduler struct {
	cfg     Config
	free    []bool
	nfree   int
	queue   []*job
	running map[string]*job
	down    map[int]bool // resources of machines that are unavailable
	ended   bool
}

// New returns a scheduler of cfg.
func New(cfg Config) (*Scheduler, error) {
	if cfg.Algorithm != "fcfs" && cfg.Algorithm != "easy" {
		return nil, fmt.Errorf("unknown algorithm %q (known: fcfs, easy)", cfg.Algorithm)
	}
	return &Scheduler{cfg: cfg, running: map[string]*job{}, down: map[int]bool{}}, nil
}

// Ended says SIMULATION_ENDS was received.
func (s *Scheduler) Ended() bool { return s.ended }

type inMessage struct {
	Now    float64 `json:"now"`
	Events []struct {
		Timestamp float64         `json:"timestamp"`
		Type      string          `json:"type"`
		Data      json.RawMessage `json:"data"`
	} `json:"events"`
}

type outEvent struct {
	Timestamp float64 `json:"timestamp"`
	Type      string  `json:"type"`
	Data      any     `json:"data"`
}

type outMessage struct {
	Now    float64    `json:"now"`
	Events []outEvent `json:"events"`
}

type execute struct {
	JobID string `json:"job_id"`
	Alloc string `json:"alloc"`
}

// Handle takes one request and returns the reply.
func (s *Scheduler) Handle(req []byte) ([]byte, error) {
	var m inMessage
	if err := json.Unmarshal(req, &m); err != nil {
		return nil, fmt.Errorf("request: %v", err)
	}
	now := toUsec(m.Now)
	for _, ev := range m.Events {
		if err := s.event(ev.Type, ev.Data); err != nil {
			return nil, fmt.Errorf("%s: %v", ev.Type, err)
		}
	}
	out := outMessage{Now: m.Now, Events: []outEvent{}}
	if !s.ended {
		for _, j := range s.schedule(now) {
			out.Events = append(out.Events, outEvent{Timestamp: m.Now, Type: "EXECUTE_JOB", Data: execute{j.id, formatIntervals(j.alloc)}})
		}
	}
	return json.Marshal(out)
}

func (s *Scheduler) event(typ string, data json.RawMessage) error {
	switch typ {
	case "SIMULATION_BEGINS":
		var d struct {
			NbResources int `json:"nb_resources"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		s.free = make([]bool, d.NbResources)
		for i := range s.free {
			s.free[i] = true
		}
		s.nfree = d.NbResources
	case "JOB_SUBMITTED":
		var d struct {
			JobID string `json:"job_id"`
			Job   struct {
				Res      int      `json:"res"`
				Walltime *float64 `json:"walltime"`
			} `json:"job"`
			Profile struct {
				Delay *float64 `json:"delay"`
			} `json:"profile"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		j := &job{id: d.JobID, res: d.Job.Res}
		switch {
		case d.Job.Walltime != nil && *d.Job.Walltime >= 0:
			j.estimate = toUsec(*d.Job.Walltime)
		case d.Profile.Delay != nil:
			j.estimate = toUsec(*d.Profile.Delay)
		default:
			return fmt.Errorf("job %s has neither walltime nor a delay profile", d.JobID)
		}
		s.queue = append(s.queue, j)
	case "JOB_COMPLETED":
		var d struct {
			JobID string `json:"job_id"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		j := s.running[d.JobID]
		if j == nil {
			return fmt.Errorf("job %s is not running", d.JobID)
		}
		delete(s.running, d.JobID)
		for _, r := range j.alloc {
			if !s.down[r] {
				s.free[r] = true
				s.nfree++
			}
		}
	case "NOTIFY":
		var d struct {
			Type      string `json:"type"`
			Resources string `json:"resources"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		if d.Type != "event_machine_unavailable" && d.Type != "event_machine_available" {
			return nil
		}
		ids, err := parseIntervals(d.Resources)
		if err != nil {
			return err
		}
		for _, r := range ids {
			if r < 0 || r >= len(s.free) {
				return fmt.Errorf("resource %d does not exist", r)
			}
			switch {
			case d.Type == "event_machine_unavailable" && !s.down[r]:
				s.down[r] = true
				if s.free[r] {
					s.free[r] = false
					s.nfree--
				}
			case d.Type == "event_machine_available" && s.down[r]:
				delete(s.down, r)
				s.free[r] = true // a machine that was down runs no job
				s.nfree++
			}
		}
	case "SIMULATION_ENDS":
		s.ended = true
	}
	return nil
}

// schedule starts what the algorithm starts now.
func (s *Scheduler) schedule(now usec) []*job {
	var started []*job
	i := 0
	for ; i < len(s.queue) && s.queue[i].res <= s.nfree; i++ {
		started = append(started, s.start(s.queue[i], now, nil))
	}
	s.queue = s.queue[i:]
	if s.cfg.Algorithm == "fcfs" || len(s.queue) < 2 {
		return started
	}
	shadow, reserved, extra := s.reservation(now, s.queue[0])
	k := 1
	for _, j := range s.queue[1:] {
		ok := false
		if j.res <= s.nfree {
			switch {
			case now+j.estimate <= shadow:
				started = append(started, s.start(j, now, nil))
				ok = true
			case s.cfg.CountReservation && j.res <= extra:
				started = append(started, s.start(j, now, nil))
				extra -= j.res
				ok = true
			case !s.cfg.CountReservation && j.res <= s.nfree-countFree(s.free, reserved):
				started = append(started, s.start(j, now, reserved))
				ok = true
			}
		}
		if !ok {
			s.queue[k] = j
			k++
		}
	}
	s.queue = s.queue[:k]
	return started
}

func countFree(free []bool, set map[int]bool) int {
	n := 0
	for r := range set {
		if free[r] {
			n++
		}
	}
	return n
}

// start takes the lowest-numbered free resources outside avoid.
func (s *Scheduler) start(j *job, now usec, avoid map[int]bool) *job {
	j.start = now
	j.alloc = j.alloc[:0]
	for r := 0; r < len(s.free) && len(j.alloc) < j.res; r++ {
		if s.free[r] && !avoid[r] {
			j.alloc = append(j.alloc, r)
			s.free[r] = false
		}
	}
	s.nfree -= j.res
	s.running[j.id] = j
	return j
}

// reservation is the head's shadow time (the first expected end after
// which it fits), the resources it reserves (the lowest-numbered free at
// the shadow) and, counted, how many it leaves free then.
func (s *Scheduler) reservation(now usec, head *job) (usec, map[int]bool, int) {
	running := make([]*job, 0, len(s.running))
	for _, j := range s.running {
		running = append(running, j)
	}
	sort.Slice(running, func(a, b int) bool {
		ea, eb := running[a].expectedEnd(now), running[b].expectedEnd(now)
		if ea != eb {
			return ea < eb
		}
		return running[a].id < running[b].id
	})
	avail := s.nfree
	freed := map[int]bool{}
	shadow := usec(math.MaxInt64)
	for i := 0; i < len(running) && avail < head.res; {
		t := running[i].expectedEnd(now)
		for ; i < len(running) && running[i].expectedEnd(now) == t; i++ {
			avail += len(running[i].alloc)
			for _, r := range running[i].alloc {
				freed[r] = true
			}
		}
		if avail >= head.res {
			shadow = t
		}
	}
	reserved := map[int]bool{}
	for r := 0; r < len(s.free) && len(reserved) < head.res && shadow != math.MaxInt64; r++ {
		if s.free[r] || freed[r] {
			reserved[r] = true
		}
	}
	return shadow, reserved, avail - head.res
}

// formatIntervals and parseIntervals are written again here, not taken
// from package external: the test scheduler reads and writes only the
// protocol, so that a fault of schedsim's side cannot hide in both.
func formatIntervals(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			fmt.Fprintf(&b, "-%d", ids[j])
		}
		i = j + 1
	}
	return b.String()
}

func parseIntervals(text string) ([]int, error) {
	var ids []int
	for _, part := range strings.Fields(text) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, err
			}
		}
		for r := a; r <= b; r++ {
			ids = append(ids, r)
		}
	}
	return ids, nil
}
