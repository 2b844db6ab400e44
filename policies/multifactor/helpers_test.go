package multifactor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

// cluster returns n nodes of 8 cpus each: N = n, C = 8n.
func cluster(t *testing.T, n int) *sim.Cluster {
	t.Helper()
	specs := make([]sim.NodeSpec, n)
	for i := range specs {
		specs[i] = sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(8)}}}
	}
	c, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// job is a job of tasks tasks of cpus cpus each whose walltime is its
// runtime unless walltime > 0 says otherwise.
type job struct {
	id                        string
	submit, runtime, walltime float64 // seconds
	tasks                     int
	cpus                      int64
	account, partition, qos   string
}

func (j job) sim() *sim.Job {
	wall := j.walltime
	if wall == 0 {
		wall = j.runtime
	}
	return &sim.Job{
		ID: j.id, Submit: sim.SecondsToTime(j.submit), Runtime: sim.SecondsToTime(j.runtime),
		Walltime: sim.SecondsToTime(wall), Tasks: j.tasks,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(j.cpus)}},
		Group:   j.account, User: "u-" + j.account, Partition: j.partition, QOS: j.qos,
	}
}

// starts records each job's start time and nodes.
type starts struct {
	at    map[string]sim.Time
	nodes map[string][]int32
	ended int
}

func (s *starts) Submitted(sim.Time, *sim.JobRun) {}
func (s *starts) Started(now sim.Time, j *sim.JobRun) {
	s.at[j.Job.ID] = now
	s.nodes[j.Job.ID] = append([]int32(nil), j.Nodes...)
}
func (s *starts) Ended(sim.Time, *sim.JobRun)     { s.ended++ }
func (s *starts) Rejected(sim.Time, *sim.JobRun)  {}
func (s *starts) Stepped(sim.Time, *sim.Context)  {}
func (s *starts) Finished(sim.Time, *sim.Context) {}
func (s *starts) summary(ids ...string) string {
	var b strings.Builder
	for _, id := range ids {
		at, ok := s.at[id]
		if !ok {
			fmt.Fprintf(&b, "%s: never ", id)
			continue
		}
		fmt.Fprintf(&b, "%s: %s ", id, at)
	}
	return strings.TrimSpace(b.String())
}

// play runs jobs on c under cfg and backfill b (wrapped inside spy when
// spy is not nil), checking the engine's invariants, and returns the
// order and the starts.
func play(t *testing.T, c *sim.Cluster, cfg Config, b policies.Backfill, jobs []job, spy func(o *Order, inner sim.Scheduler) sim.Scheduler) (*Order, *starts) {
	t.Helper()
	o, err := New(cfg, c)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := policies.NewBatch(b)
	if err != nil {
		t.Fatal(err)
	}
	if spy != nil {
		inner = spy(o, inner)
	}
	var src []*sim.Job
	for _, j := range jobs {
		src = append(src, j.sim())
	}
	rec := &starts{at: map[string]sim.Time{}, nodes: map[string][]int32{}}
	check := sim.NewChecker(c)
	eng := sim.NewEngine(c, &sim.SliceSource{Jobs: src}, o.Wrap(inner), sim.Config{Less: o.Less, KillAtWalltime: true}, check, rec)
	if err := eng.Run(); err != nil {
		t.Fatal(err)
	}
	if err := check.Err(); err != nil {
		t.Fatal(err)
	}
	if rec.ended != len(jobs) {
		t.Fatalf("%d of %d jobs ended", rec.ended, len(jobs))
	}
	return o, rec
}

func seconds(s float64) *float64 { return &s }
