package script

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// rejections records the jobs the engine rejected, with their reasons.
type rejections struct {
	started map[string]string // job → first node
	reasons map[string]string
}

func (r *rejections) Submitted(sim.Time, *sim.JobRun) {}
func (r *rejections) Started(_ sim.Time, j *sim.JobRun) {
	r.started[j.Job.ID] = "?"
}
func (r *rejections) Ended(sim.Time, *sim.JobRun) {}
func (r *rejections) Rejected(_ sim.Time, j *sim.JobRun) {
	r.reasons[j.Job.ID] = j.Reason
}
func (r *rejections) Stepped(sim.Time, *sim.Context)  {}
func (r *rejections) Finished(sim.Time, *sim.Context) {}

// replay runs jobs through the engine with the EASY batch scheduler and a
// first-fit pipeline carrying s, as the replay command would.
func replay(t *testing.T, c *sim.Cluster, s *Script, jobs []*sim.Job) (*rejections, error) {
	t.Helper()
	p, err := placement.Build(c, placement.Spec{Strategy: "first-fit"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(p, s); err != nil {
		t.Fatal(err)
	}
	sched, err := policies.NewPlacedBatch(policies.EASY, c, p)
	if err != nil {
		t.Fatal(err)
	}
	obs := &rejections{started: map[string]string{}, reasons: map[string]string{}}
	check := sim.NewChecker(c)
	err = sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, sched, sim.Config{}, check, obs).Run()
	if cerr := check.Err(); cerr != nil {
		t.Fatal(cerr)
	}
	return obs, err
}

func TestThroughTheEngine(t *testing.T) {
	c := cluster(t, node("a", 4, 64), node("b", 4, 64))
	var jobs []*sim.Job
	for i, id := range []string{"ok-1", "foo", "tmp-9", "ok-2", "ok-3"} {
		j := job(id, 2, 8)
		j.Submit = sim.Time(i) * sim.Second
		j.Runtime = 10 * sim.Second
		jobs = append(jobs, j)
	}
	obs, err := replay(t, c, example(t, "reject_by_name.star", Config{}), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs.started) != 3 || obs.reasons["foo"] != "Invalid name" || !strings.HasPrefix(obs.reasons["tmp-9"], "temporary jobs") {
		t.Errorf("started %v, rejected %v", obs.started, obs.reasons)
	}
	// A failing script under on_error: stop ends the run with its error.
	s := compile(t, "def instance_placement(request, candidate_members):\n    if request.name == \"ok-2\":\n        fail(\"bad\")\n", Config{OnError: Stop})
	_, err = replay(t, c, s, jobs)
	if err == nil || !strings.Contains(err.Error(), "job ok-2: script: error at test.star:3: fail: bad") {
		t.Errorf("stop: %v", err)
	}
	// A filter that rejects every node rejects the job as unschedulable,
	// with the script's reason.
	s = compile(t, "def filter(task, node):\n    return task.name != \"ok-3\" or \"not ok-3\"\n", Config{})
	obs, err = replay(t, c, s, jobs)
	if err != nil || !strings.Contains(obs.reasons["ok-3"], "2 script filter: not ok-3") {
		t.Errorf("filter: %v %v", obs.reasons, err)
	}
}
