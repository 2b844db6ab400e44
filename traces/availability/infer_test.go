package availability

import (
	"fmt"
	"io"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

// sliceSource serves jobs in order.
type sliceSource struct{ jobs []*sim.Job }

func (s *sliceSource) Next() (*sim.Job, error) {
	if len(s.jobs) == 0 {
		return nil, io.EOF
	}
	j := s.jobs[0]
	s.jobs = s.jobs[1:]
	return j, nil
}

// recorder keeps each job's start: the "recorded" schedule.
type recorder struct{ start map[string]sim.Time }

func (r *recorder) Submitted(sim.Time, *sim.JobRun)     {}
func (r *recorder) Started(now sim.Time, j *sim.JobRun) { r.start[j.Job.ID] = now }
func (r *recorder) Ended(sim.Time, *sim.JobRun)         {}
func (r *recorder) Rejected(sim.Time, *sim.JobRun)      {}
func (r *recorder) Stepped(sim.Time, *sim.Context)      {}
func (r *recorder) Finished(sim.Time, *sim.Context)     {}

const hour = 3600 * sim.Second

// TestPlantedOutagesRecovered records a synthetic history under a known
// scheduler (EASY, first fit) on 20 one-processor nodes kept busy by a
// steady overload, with two outages planted as drains: 16 of the 20 nodes
// from 10 h to 14 h, the whole machine from 30 h to 33 h. Inferring from
// the recorded submits, starts and ends alone must find exactly those two
// stretches, with the capacity that went away, and no other.
func TestPlantedOutagesRecovered(t *testing.T) {
	const n = 20
	var specs []sim.NodeSpec
	var nodes []Node
	for i := range n {
		name := fmt.Sprintf("n%02d", i)
		specs = append(specs, sim.NodeSpec{Name: name, Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
		nodes = append(nodes, Node{Name: name, Procs: 1})
	}
	cluster, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	var planted []sim.NodeEvent
	plant := func(from, to sim.Time, first int) {
		for i := first; i < n; i++ {
			planted = append(planted, sim.NodeEvent{At: from, Node: nodes[i].Name, Kind: sim.NodeDrain},
				sim.NodeEvent{At: to, Node: nodes[i].Name, Kind: sim.NodeUndrain})
		}
	}
	plant(10*hour, 14*hour, 4)
	plant(30*hour, 33*hour, 0)

	// A job every 3 minutes for 48 h: 1–4 nodes, 10–40 minutes, walltime
	// twice the runtime; about 21 nodes' worth of demand for 20 nodes.
	var jobs []*sim.Job
	x := uint32(12345)
	next := func(k uint32) uint32 { x = x*1664525 + 1013904223; return (x >> 16) % k }
	for i := range 48 * 20 {
		run := sim.Time(10+next(31)) * 60 * sim.Second
		jobs = append(jobs, &sim.Job{ID: fmt.Sprint(i), Submit: sim.Time(i) * 180 * sim.Second, Runtime: run, Walltime: 2 * run,
			Tasks: 1 + int(next(4)), Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}, Gang: true})
	}
	sched, err := policies.NewBatch(policies.EASY)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{start: map[string]sim.Time{}}
	src := &sliceSource{jobs: append([]*sim.Job(nil), jobs...)}
	e := sim.NewEngine(cluster, src, sched, sim.Config{KillAtWalltime: true, NodeEvents: planted}, rec)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	var recorded []Job
	for _, j := range jobs {
		s, ok := rec.start[j.ID]
		if !ok {
			t.Fatalf("job %s never started", j.ID)
		}
		recorded = append(recorded, Job{Submit: j.Submit, Start: s, End: s + j.Runtime, Procs: float64(j.Tasks), Walltime: j.Walltime})
	}

	got := Infer(recorded, n, DefaultRule)
	want := []struct {
		from, to    sim.Time
		unavailable float64
	}{{10 * hour, 14 * hour, 16}, {30 * hour, 33 * hour, 20}}
	if len(got) != len(want) {
		t.Fatalf("found %d stretches, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		// The stretch begins once the jobs running on the drained nodes
		// have ended (at most 40 minutes) and ends when they come back.
		if g.Start < w.from || g.Start > w.from+40*60*sim.Second || g.End != w.to {
			t.Errorf("stretch %d: %s–%s s, want from within 40 min of %s s to %s s", i, g.Start, g.End, w.from, w.to)
		}
		if g.Unavailable != w.unavailable {
			t.Errorf("stretch %d: %g processors unavailable, want %g", i, g.Unavailable, w.unavailable)
		}
		if g.Confidence <= 0.5 || g.Confidence > 1 {
			t.Errorf("stretch %d: confidence %g, want most of a 3–4 h stretch past the running jobs' walltimes", i, g.Confidence)
		}
	}
	evs := Events(got, nodes)
	if len(evs) != 2*(16+20) {
		t.Errorf("%d node events, want a drain and an undrain for each of 16 + 20 nodes", len(evs))
	}
	if evs[0].Node != "n19" || evs[0].Kind != sim.NodeDrain || evs[0].At != got[0].Start {
		t.Errorf("first event %+v: want the last node drained at the first stretch's start", evs[0])
	}
}

// TestNoStretchWithoutWaiting: an idle machine with nobody waiting is not
// unavailable, however long it idles.
func TestNoStretchWithoutWaiting(t *testing.T) {
	jobs := []Job{
		{Submit: 0, Start: 0, End: hour, Procs: 10, Walltime: -1},
		{Submit: 10 * hour, Start: 10 * hour, End: 11 * hour, Procs: 10, Walltime: -1},
	}
	if got := Infer(jobs, 10, DefaultRule); len(got) != 0 {
		t.Errorf("got %+v, want none", got)
	}
	// The same with a one-processor job waiting from 2 h to 9 h while
	// nothing runs: one stretch, the whole machine, confidence 1.
	jobs = append(jobs, Job{Submit: 2 * hour, Start: 9 * hour, End: 9*hour + 60*sim.Second, Procs: 1, Walltime: -1})
	got := Infer(jobs, 10, DefaultRule)
	if len(got) != 1 || got[0].Start != 2*hour || got[0].End != 9*hour || got[0].Unavailable != 10 || got[0].Confidence != 1 {
		t.Errorf("got %+v, want 2 h–9 h, 10 unavailable, confidence 1", got)
	}
}
