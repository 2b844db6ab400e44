package swf

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// fcfsNoBackfill starts queued jobs in queue order on the first node with
// room, and stops at the first that does not fit: the smallest scheduler,
// enough to replay a one-node pool.
type fcfsNoBackfill struct{}

func (fcfsNoBackfill) Schedule(c *sim.Context) error {
	for _, j := range c.Queue() {
		if j.Status != sim.Queued {
			continue
		}
		if c.TasksFitting(j, 0, 1) < 1 {
			return nil
		}
		if err := c.Start(j, []int32{0}); err != nil {
			return err
		}
	}
	return nil
}

type dagLog struct{ lines []string }

func (l *dagLog) Submitted(now sim.Time, j *sim.JobRun) {}
func (l *dagLog) Started(now sim.Time, j *sim.JobRun) {
	l.lines = append(l.lines, "start "+j.Job.ID+" @"+now.String())
}
func (l *dagLog) Ended(now sim.Time, j *sim.JobRun) {
	l.lines = append(l.lines, j.Status.String()+" "+j.Job.ID+" @"+now.String())
}
func (l *dagLog) Rejected(now sim.Time, j *sim.JobRun) {
	l.lines = append(l.lines, "reject "+j.Job.ID+" @"+now.String()+": "+j.Reason)
}
func (l *dagLog) Stepped(now sim.Time, c *sim.Context)  {}
func (l *dagLog) Finished(now sim.Time, c *sim.Context) {}

// TestSWFDAGReplay replays testdata/swf/dag.swf on its one-node pool (16
// processors), FCFS without backfilling, killing at the walltime:
//   - 2 waits for 1 (ends at 100) and 30 s of think time: queued at 130;
//     3 follows 2 at once (180);
//   - 4 names job 99: rejected at its submit;
//   - 5 needs the whole pool, so waits for 1; 6 waits behind it, starts
//     at 105 and is killed at its 10 s walltime; 7 follows 6 after any
//     end, 2.5 s later.
func TestSWFDAGReplay(t *testing.T) {
	r, err := Open("../../testdata/swf/dag.swf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs, err := r.Header().Cluster(ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	l := &dagLog{}
	chk := sim.NewChecker(c)
	if err := sim.NewEngine(c, r, fcfsNoBackfill{}, sim.Config{KillAtWalltime: true}, l, chk).Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start 1 @0",
		"reject 4 @30: dependency 99 is not in the trace (a job may only depend on earlier ones)",
		"completed 1 @100", "start 5 @100", "completed 5 @105", "start 6 @105", "killed 6 @115",
		"start 7 @117.5", "completed 7 @122.5",
		"start 2 @130", "completed 2 @180", "start 3 @180", "completed 3 @190",
	}
	if !reflect.DeepEqual(l.lines, want) {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(l.lines, "\n  "), strings.Join(want, "\n  "))
	}
}
