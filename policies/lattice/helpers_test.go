package lattice

import (
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// nodesCluster builds n one-cpu nodes named n0…; attrs(i) gives node i's
// attributes (nil for none).
func nodesCluster(t testing.TB, n int, attrs func(i int) map[string]string) *sim.Cluster {
	t.Helper()
	specs := make([]sim.NodeSpec, n)
	for i := range specs {
		specs[i] = sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}}
		if attrs != nil {
			specs[i].Attributes = attrs(i)
		}
	}
	cl, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// job is a one-cpu-per-task job; times in seconds.
func job(id string, submit, runtime int64, tasks int) *sim.Job {
	return &sim.Job{ID: id, Submit: sim.Time(submit) * sim.Second, Runtime: sim.Time(runtime) * sim.Second,
		Walltime: sim.Time(runtime) * sim.Second, Tasks: tasks, Gang: true, User: "u" + id,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}}
}

// outcome is what happened to one job.
type outcome struct {
	start  sim.Time
	end    sim.Time
	nodes  []int32
	status sim.JobStatus
	reason string
}

func (o outcome) String() string {
	return fmt.Sprintf("%s start %s end %s on %v %s", o.status, o.start, o.end, o.nodes, o.reason)
}

// recorder notes every job's outcome.
type recorder struct{ out map[string]*outcome }

func (r *recorder) get(j *sim.JobRun) *outcome {
	o, ok := r.out[j.Job.ID]
	if !ok {
		o = &outcome{}
		r.out[j.Job.ID] = o
	}
	return o
}
func (r *recorder) Submitted(sim.Time, *sim.JobRun) {}
func (r *recorder) Started(now sim.Time, j *sim.JobRun) {
	o := r.get(j)
	o.start, o.nodes, o.status = now, append([]int32(nil), j.Nodes...), sim.Running
}
func (r *recorder) Ended(now sim.Time, j *sim.JobRun) { o := r.get(j); o.end, o.status = now, j.Status }
func (r *recorder) Rejected(now sim.Time, j *sim.JobRun) {
	o := r.get(j)
	o.status, o.reason = sim.Rejected, j.Reason
}
func (r *recorder) Stepped(sim.Time, *sim.Context)  {}
func (r *recorder) Finished(sim.Time, *sim.Context) {}

// run plays jobs on cl under the lattice scheduler with cfg, with the
// invariant checker, and returns each job's outcome.
func run(t testing.TB, cl *sim.Cluster, cfg Config, jobs ...*sim.Job) map[string]*outcome {
	t.Helper()
	s, err := New(cl, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return runWith(t, cl, s, jobs...)
}

func runWith(t testing.TB, cl *sim.Cluster, s sim.Scheduler, jobs ...*sim.Job) map[string]*outcome {
	t.Helper()
	rec := &recorder{out: map[string]*outcome{}}
	chk := sim.NewChecker(cl)
	e := sim.NewEngine(cl, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true}, rec, chk)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return rec.out
}

func secs(s int64) sim.Time { return sim.Time(s) * sim.Second }
