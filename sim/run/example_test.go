package run_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
)

// smallestPerUser is a queue policy written outside schedsim: each user's
// waiting jobs take the places of that user's jobs in the FCFS queue,
// smallest first (fewest processors, then the earlier); jobs start in that
// order while they fit, on the first nodes with room, and the first that
// does not fit waits for the others (no backfilling).
type smallestPerUser struct {
	waiting map[string][]*sim.JobRun // each user's waiting jobs, smallest first
	nodes   []int32
}

// size is what a job asks for in all: its tasks times each task's amounts.
func size(j *sim.JobRun) sim.Amount {
	var a sim.Amount
	for _, n := range j.Needs() {
		a += n.Amt
	}
	return a * sim.Amount(j.Job.Tasks)
}

func smaller(a, b *sim.JobRun) int {
	if sa, sb := size(a), size(b); sa != sb {
		return cmp.Compare(sa, sb)
	}
	return cmp.Compare(a.Seq, b.Seq)
}

func (s *smallestPerUser) Schedule(c *sim.Context) error {
	q := c.Queue() // arrival order: new jobs are at its end, not yet marked
	first := len(q)
	for first > 0 && q[first-1].PolicyState == nil {
		first--
	}
	for _, j := range q[first:] {
		j.PolicyState = true
		w := s.waiting[j.Job.User]
		i, _ := slices.BinarySearchFunc(w, j, smaller)
		s.waiting[j.Job.User] = slices.Insert(w, i, j)
	}
	// The place of a job of user u goes to u's smallest waiting job.
	for _, placeOf := range q {
		u := placeOf.Job.User
		j := s.waiting[u][0]
		if !s.place(c, j) {
			return nil
		}
		if err := c.Start(j, s.nodes); err != nil {
			return err
		}
		j.PolicyState = nil // should it be queued again (a node failure), it is new
		s.waiting[u] = s.waiting[u][1:]
	}
	return nil
}

// place picks nodes for j's tasks, first fit in node order.
func (s *smallestPerUser) place(c *sim.Context, j *sim.JobRun) bool {
	s.nodes = s.nodes[:0]
	for n := range c.Cluster().Nodes {
		for k := c.TasksFitting(j, n, j.Job.Tasks-len(s.nodes)); k > 0; k-- {
			s.nodes = append(s.nodes, int32(n))
		}
		if len(s.nodes) == j.Job.Tasks {
			return true
		}
	}
	return false
}

// A queue policy of your own, registered at run time and replayed on the
// embedded KTH-SP2 log beside schedsim's FCFS without backfilling.
func Example_ownQueuePolicy() {
	err := registry.RegisterQueue(registry.Order{
		Name: "user-smallest",
		Doc:  "each user's smallest waiting job first, in the places of that user's jobs in the FCFS queue",
		Build: func(registry.Env) (sim.Scheduler, policies.Order, error) {
			return &smallestPerUser{waiting: map[string][]*sim.JobRun{}}, nil, nil // nil: the engine keeps arrival order
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "own-policy")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	for _, queue := range []string{"fcfs", "user-smallest"} {
		spec := run.Default() // trace "": the embedded KTH-SP2 log, its SWF header's cluster
		spec.Queue, spec.Backfill = queue, "none"
		spec.Format, spec.Quiet = "csv", true
		spec.Out = filepath.Join(dir, queue)
		if err := spec.Validate(); err != nil {
			fmt.Println(err)
			return
		}
		res, err := run.Replay(context.Background(), &spec, run.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		row := res.Summary // the row written to summary.csv
		fmt.Printf("%-13s jobs %s, mean wait %.0f s, mean bounded slowdown %.1f, utilization %.3f\n", queue, row.Text(metrics.ColJobs),
			row.Float(metrics.ColMeanWait), row.Float(metrics.ColMeanBSLD), row.Float(metrics.ColUtilization))
	}
	// Output:
	// fcfs          jobs 28475, mean wait 354169 s, mean bounded slowdown 6829.3, utilization 0.699
	// user-smallest jobs 28475, mean wait 135576 s, mean bounded slowdown 2793.3, utilization 0.698
}
