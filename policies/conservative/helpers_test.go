package conservative

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// reservationLog records, after every pass, each queued job's reservation,
// and where and when each job started.
type reservationLog struct {
	passes []string
	starts []string
}

func (r *reservationLog) Started(now sim.Time, j *sim.JobRun) {
	r.starts = append(r.starts, fmt.Sprintf("%s@%s%v", j.Job.ID, now, j.Nodes))
}

func (r *reservationLog) Submitted(sim.Time, *sim.JobRun) {}
func (r *reservationLog) Ended(sim.Time, *sim.JobRun)     {}
func (r *reservationLog) Rejected(sim.Time, *sim.JobRun)  {}
func (r *reservationLog) Finished(sim.Time, *sim.Context) {}

func (r *reservationLog) Stepped(now sim.Time, c *sim.Context) {
	var held []string
	for _, j := range c.Queue() {
		if res := reservationOf(j); res != nil {
			held = append(held, fmt.Sprintf("%s@%s%v", j.Job.ID, res.start, res.nodes))
		}
	}
	r.passes = append(r.passes, fmt.Sprintf("t=%s: %s", now, strings.Join(held, " ")))
}

// oneCPUNodes is a cluster of n nodes with one cpu each, h0, h1, …
func oneCPUNodes(t *testing.T, n int) *sim.Cluster {
	t.Helper()
	var nodes []sim.NodeSpec
	for i := 0; i < n; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("h%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wholeNodeJob takes `hosts` one-cpu nodes; times in seconds.
func wholeNodeJob(id string, submit, runtime, walltime sim.Time, hosts int) *sim.Job {
	return &sim.Job{ID: id, Submit: submit * sim.Second, Runtime: runtime * sim.Second, Walltime: walltime * sim.Second,
		Tasks: hosts, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}}
}

// replay runs jobs on c under conservative backfilling with cfg, jobs
// killed at their walltime, the invariant checker on.
func replay(t *testing.T, c *sim.Cluster, jobs []*sim.Job, cfg Config) *reservationLog {
	t.Helper()
	return replayIndexed(t, c, jobs, cfg, defaultIndexFrom)
}

// replayIndexed is replay with the summary index built from indexFrom live
// timelines on (small clusters use it with 2).
func replayIndexed(t *testing.T, c *sim.Cluster, jobs []*sim.Job, cfg Config, indexFrom int) *reservationLog {
	t.Helper()
	s := newScheduler(cfg, indexFrom)
	log := &reservationLog{}
	chk := sim.NewChecker(c)
	if err := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true}, log, chk).Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return log
}

// wantStarts fails t unless the jobs started as want says, in order.
func wantStarts(t *testing.T, log *reservationLog, want string) {
	t.Helper()
	if got := strings.Join(log.starts, " "); got != want {
		t.Errorf("starts:\ngot  %s\nwant %s", got, want)
	}
}

// ruleName is the reservation rule's name in policies: keep or repick.
func ruleName(repick bool) string {
	if repick {
		return "repick"
	}
	return "keep"
}

// sameStarts fails t at the first start (job, time, nodes) where got and
// want differ.
func sameStarts(t *testing.T, got, want *reservationLog) {
	t.Helper()
	for i := range min(len(got.starts), len(want.starts)) {
		if got.starts[i] != want.starts[i] {
			t.Fatalf("start %d differs: got %s, want %s", i, got.starts[i], want.starts[i])
		}
	}
	if len(got.starts) != len(want.starts) {
		t.Fatalf("%d starts, want %d", len(got.starts), len(want.starts))
	}
}
