package policies

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/swf"
)

// The pyss fixtures (HUJI pyss, see ../shared/traces/README.md): each line
// is `submit id estimate procs runtime adminQoS userQoS user`; the expected
// finish time is int(float(id)) (int(id.split('.')[0]) for basic FCFS);
// the machine has 100 processors; jobs whose estimate is below their
// runtime are dropped.
const fixtures = "../../shared/traces/fixtures"

func pyssJobs(t *testing.T, path string) []*sim.Job {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var jobs []*sim.Job
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Fields(line)
		num := func(i int) int64 {
			v, err := strconv.ParseInt(fs[i], 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			return v
		}
		submit, est, procs, run := num(0), num(2), num(3), num(4)
		if est < run || submit < 0 || procs <= 0 || run < 0 {
			continue
		}
		jobs = append(jobs, &sim.Job{
			ID: fs[1], Submit: sim.Time(submit) * sim.Second, Runtime: sim.Time(run) * sim.Second,
			Walltime: sim.Time(est) * sim.Second, Tasks: 1,
			Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(procs)}},
		})
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit })
	return jobs
}

// endRecorder notes each job's end.
type endRecorder struct {
	nopObserver
	ends map[string]sim.Time
}

func (r *endRecorder) Ended(now sim.Time, j *sim.JobRun) { r.ends[j.Job.ID] = j.End }

type nopObserver struct{}

func (nopObserver) Submitted(sim.Time, *sim.JobRun) {}
func (nopObserver) Started(sim.Time, *sim.JobRun)   {}
func (nopObserver) Ended(sim.Time, *sim.JobRun)     {}
func (nopObserver) Rejected(sim.Time, *sim.JobRun)  {}
func (nopObserver) Stepped(sim.Time, *sim.Context)  {}
func (nopObserver) Finished(sim.Time, *sim.Context) {}

func poolCluster(t testing.TB, procs int64) *sim.Cluster {
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "pool", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(procs)}}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// replay runs jobs and fails the test on any invariant violation.
func replay(t testing.TB, c *sim.Cluster, jobs []*sim.Job, b Backfill, order Order) map[string]sim.Time {
	s, err := NewBatch(b)
	if err != nil {
		t.Fatal(err)
	}
	rec := &endRecorder{ends: map[string]sim.Time{}}
	chk := sim.NewChecker(c)
	e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true, Less: order}, rec, chk)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return rec.ends
}

func expandFixtures(spec string) []string {
	var out []string
	for _, part := range strings.Fields(spec) {
		name, rng, _ := strings.Cut(part, ".")
		lo, hi, _ := strings.Cut(rng, "-")
		a, _ := strconv.Atoi(lo)
		b, _ := strconv.Atoi(hi)
		for i := a; i <= b; i++ {
			out = append(out, fmt.Sprintf("%s.%d", name, i))
		}
	}
	return out
}

func TestPyssFixtures(t *testing.T) {
	if _, err := os.Stat(fixtures); err != nil {
		t.Skip("../shared/traces not present")
	}
	policies := []struct {
		backfill Backfill
		files    string
	}{
		{NoBackfill, "basic_input.0-28 fcfs_input.0-7 extreme_input.0-1"},
		{EASY, "basic_input.0-28 bf_input.0-8 easy_bf_input.0-3 extreme_input.0-2"},
		{Conservative, "basic_input.0-28 bf_input.0-8 cons_bf_input.0-1 extreme_input.0-1"},
	}
	for _, p := range policies {
		for _, name := range expandFixtures(p.files) {
			t.Run(string(p.backfill)+"/"+name, func(t *testing.T) {
				jobs := pyssJobs(t, filepath.Join(fixtures, "pyss", name))
				ends := replay(t, poolCluster(t, 100), jobs, p.backfill, FCFS)
				for _, j := range jobs {
					want := expectedFinish(j.ID, p.backfill == NoBackfill && strings.HasPrefix(name, "basic"))
					if got := ends[j.ID]; got != sim.Time(want)*sim.Second {
						t.Errorf("job %s ends at %s s, want %d s", j.ID, got, want)
					}
				}
			})
		}
	}
}

func expectedFinish(id string, basicFCFS bool) int64 {
	if basicFCFS {
		v, _ := strconv.ParseInt(strings.Split(id, ".")[0], 10, 64)
		return v
	}
	f, _ := strconv.ParseFloat(id, 64)
	return int64(math.Trunc(f))
}

// TestCQSim reproduces CQSim's start times for test.swf (test.rst:
// id;reqProc;reqProc;reqTime;runTime;wait;submit;start;end).
func TestCQSim(t *testing.T) {
	dir := filepath.Join(fixtures, "cqsim")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/traces not present")
	}
	want := map[string]sim.Time{}
	data, err := os.ReadFile(filepath.Join(dir, "test.rst"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fs := strings.Split(line, ";")
		start, _ := strconv.ParseFloat(fs[7], 64)
		want[fs[0]] = sim.SecondsToTime(start)
	}
	for _, b := range []Backfill{NoBackfill, Conservative} {
		t.Run(string(b), func(t *testing.T) {
			r, err := swf.Open(filepath.Join(dir, "test.swf"), swf.Options{Model: swf.Pool})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			nodes, err := r.Header().Cluster(swf.ClusterOptions{Model: swf.Pool})
			if err != nil {
				t.Fatal(err)
			}
			c, err := sim.NewCluster(nodes)
			if err != nil {
				t.Fatal(err)
			}
			starts := map[string]sim.Time{}
			obs := &startRecorder{starts: starts}
			s, _ := NewBatch(b)
			chk := sim.NewChecker(c)
			if err := sim.NewEngine(c, r, s, sim.Config{KillAtWalltime: true}, obs, chk).Run(); err != nil {
				t.Fatal(err)
			}
			if err := chk.Err(); err != nil {
				t.Fatal(err)
			}
			if len(starts) != len(want) {
				t.Fatalf("%d jobs started, want %d", len(starts), len(want))
			}
			for id, w := range want {
				if starts[id] != w {
					t.Errorf("job %s starts at %s s, CQSim says %s s", id, starts[id], w)
				}
			}
		})
	}
}

type startRecorder struct {
	nopObserver
	starts map[string]sim.Time
}

func (r *startRecorder) Started(now sim.Time, j *sim.JobRun) { r.starts[j.Job.ID] = j.Start }
