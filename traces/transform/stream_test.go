package transform

import (
	"slices"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

const s = sim.Second

// job is a job of the test streams: id, submit, runtime and walltime in
// seconds (walltime < 0: none).
func job(id string, submit, runtime, walltime int64) *sim.Job {
	wt := sim.Time(walltime) * s
	if walltime < 0 {
		wt = sim.NoWalltime
	}
	return &sim.Job{ID: id, Submit: sim.Time(submit) * s, Runtime: sim.Time(runtime) * s, Walltime: wt, Tasks: 1}
}

func submits(jobs []*sim.Job) []sim.Time {
	var out []sim.Time
	for _, j := range jobs {
		out = append(out, j.Submit)
	}
	return out
}

func secs(xs ...int64) []sim.Time {
	var out []sim.Time
	for _, x := range xs {
		out = append(out, sim.Time(x)*s)
	}
	return out
}

func at(x int64) *sim.Time { t := sim.Time(x) * s; return &t }

func trace() []*sim.Job {
	return []*sim.Job{job("1", 100, 10, 20), job("2", 110, 30, 20), job("3", 130, 5, -1), job("4", 170, 40, 60), job("5", 170, 1, 1)}
}

// Load factor 2 halves every inter-arrival gap, from the first submit:
// gaps 10, 20, 40, 0 become 5, 10, 20, 0.
func TestLoadFactorHalvesGaps(t *testing.T) {
	in := trace()
	got := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{LoadFactor: 2}))
	if want := secs(100, 105, 115, 135, 135); !slices.Equal(submits(got), want) {
		t.Errorf("submits %v, want %v", submits(got), want)
	}
	if in[1].Submit != 110*s {
		t.Error("the reader's job was changed, not a copy")
	}
	// A factor below 1 spreads the jobs: 0.5 doubles the gaps.
	got = tracetest.All(t, NewSource(&sim.SliceSource{Jobs: trace()}, Stream{LoadFactor: 0.5}))
	if want := secs(100, 120, 160, 240, 240); !slices.Equal(submits(got), want) {
		t.Errorf("factor 0.5: submits %v, want %v", submits(got), want)
	}
}

func TestRuntimeFactorAndWalltimeModels(t *testing.T) {
	cases := []struct {
		model             string
		runtime, walltime []int64 // of jobs 1…4 with runtime factor 1.5 (wall −1: none)
	}{
		// Walltime as traced: job 2 already overran its 20 s; job 1's 15 s
		// still fits, job 4's 60 s does not (the engine kills it at 60).
		{"traced", []int64{15, 45, 7, 60}, []int64{20, 20, -1, 60}},
		{"scaled", []int64{15, 45, 7, 60}, []int64{30, 30, -1, 90}},
		{"exact", []int64{15, 45, 7, 60}, []int64{15, 45, 7, 60}},
		{"2", []int64{15, 45, 7, 60}, []int64{30, 90, 15, 120}},
	}
	for _, c := range cases {
		w, err := ParseWalltime(c.model)
		if err != nil {
			t.Fatal(err)
		}
		in := trace()[:4]
		got := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{RuntimeFactor: 1.5, Walltime: w}))
		for i, j := range got {
			wantRT := sim.Time(c.runtime[i]) * s
			if i == 2 {
				wantRT = 7*s + s/2 // 5 × 1.5
			}
			wantWT := sim.Time(c.walltime[i]) * s
			switch {
			case c.walltime[i] < 0:
				wantWT = sim.NoWalltime
			case c.model == "exact" && i == 2:
				wantWT = wantRT
			}
			if j.Runtime != wantRT || j.Walltime != wantWT {
				t.Errorf("%s: job %s runtime %s walltime %s, want %s and %s", c.model, j.ID, j.Runtime, j.Walltime, wantRT, wantWT)
			}
		}
	}
	for _, bad := range []string{"0.5", "fast", "-1"} {
		if _, err := ParseWalltime(bad); err == nil {
			t.Errorf("walltime model %q accepted", bad)
		}
	}
}

func TestWindowAndFirstJobs(t *testing.T) {
	in := trace()
	in[2].DependsOn = []sim.Dependency{{ID: "1"}, {ID: "2"}}
	got := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{From: at(110), Until: at(170)}))
	if ids := jobIDs(got); !slices.Equal(ids, []string{"2", "3"}) {
		t.Fatalf("window [110, 170) kept %v, want [2 3]", ids)
	}
	// Job 1 ran before the window: job 3's dependency on it was met.
	if deps := got[1].DependsOn; len(deps) != 1 || deps[0].ID != "2" {
		t.Errorf("job 3 depends on %v, want job 2 only", deps)
	}
	if len(in[2].DependsOn) != 2 {
		t.Error("the reader's dependencies were changed")
	}
	got = tracetest.All(t, NewSource(&sim.SliceSource{Jobs: trace()}, Stream{From: at(105), FirstJobs: 2}))
	if ids := jobIDs(got); !slices.Equal(ids, []string{"2", "3"}) {
		t.Errorf("from 105, first 2 jobs: kept %v, want [2 3]", ids)
	}
	// The window keeps the trace's clock: no shift.
	if got[0].Submit != 110*s {
		t.Errorf("job 2 submitted at %s, want 110", got[0].Submit)
	}
}

func jobIDs(jobs []*sim.Job) []string {
	var out []string
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

// Warm-up 30 s after the first submit (100) leaves out exactly the jobs
// submitted before 130; cool-down 40 s before the last (170) those after
// 130. A job's verdict is settled when it is handed out.
func TestWarmUpAndCoolDown(t *testing.T) {
	cases := []struct {
		warm, cool int64
		measured   []bool // jobs 1…5
	}{
		{30, 0, []bool{false, false, true, true, true}},
		{0, 40, []bool{true, true, true, false, false}},
		{30, 40, []bool{false, false, true, false, false}},
		{0, 0, []bool{true, true, true, true, true}},
	}
	for _, c := range cases {
		src := NewSource(&sim.SliceSource{Jobs: trace()}, Stream{WarmUp: sim.Time(c.warm) * s, CoolDown: sim.Time(c.cool) * s})
		var atHandout []bool
		var jobs []*sim.Job
		for {
			j, err := src.Next()
			if err != nil {
				break
			}
			jobs = append(jobs, j)
			atHandout = append(atHandout, src.Measured(j.Submit))
		}
		var final []bool
		for _, j := range jobs {
			final = append(final, src.Measured(j.Submit))
		}
		if !slices.Equal(final, c.measured) || !slices.Equal(atHandout, c.measured) {
			t.Errorf("warm-up %d s, cool-down %d s: measured %v (when handed out %v), want %v", c.warm, c.cool, final, atHandout, c.measured)
		}
		if ids := jobIDs(jobs); !slices.Equal(ids, []string{"1", "2", "3", "4", "5"}) {
			t.Errorf("jobs %v, want all five in order", ids)
		}
	}
}

// The cool-down's lookahead holds one cool-down span of jobs, not the
// stream: a long stream passes through it.
func TestCoolDownLookaheadIsBounded(t *testing.T) {
	var in []*sim.Job
	for i := range 10_000 {
		in = append(in, job("j", int64(i), 1, -1))
	}
	src := NewSource(&sim.SliceSource{Jobs: in}, Stream{CoolDown: 10 * s})
	most, n := 0, 0
	for {
		j, err := src.Next()
		if err != nil {
			break
		}
		if j.Submit != sim.Time(n)*s {
			t.Fatalf("job %d submitted at %s", n, j.Submit)
		}
		n++
		most = max(most, len(src.measure.held)-src.measure.head)
	}
	if n != 10_000 || most > 11 {
		t.Errorf("%d jobs, at most %d held; want 10000 and ≤ 11", n, most)
	}
	if src.Measured(9989*s) != true || src.Measured(9990*s) != false {
		t.Error("cool-down of 10 s before 9999: want 9989 measured, 9990 not")
	}
}

func TestJitterIsSeeded(t *testing.T) {
	var in []*sim.Job
	for i := range 200 {
		in = append(in, job("j", 100+int64(i/4)*10, 100, 150)) // bursts of 4
	}
	replica := func(seed uint64) []*sim.Job {
		return tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{Jitter: Jitter{SubmitSpread: 30 * s, RuntimeSigma: 0.5, Seed: seed}}))
	}
	a, b, c := replica(1), replica(1), replica(2)
	same := func(x, y []*sim.Job) bool {
		return slices.EqualFunc(x, y, func(p, q *sim.Job) bool { return p.Submit == q.Submit && p.Runtime == q.Runtime })
	}
	if !same(a, b) {
		t.Error("seed 1 twice: different jobs")
	}
	if same(a, c) {
		t.Error("seeds 1 and 2: the same jobs")
	}
	var sum float64
	for i, j := range a {
		if i > 0 && j.Submit < a[i-1].Submit {
			t.Fatalf("job %d submitted at %s, before the one before it (%s)", i, j.Submit, a[i-1].Submit)
		}
		if j.Submit < 100*s {
			t.Fatalf("job %d submitted at %s, before the first submit", i, j.Submit)
		}
		if d := j.Submit - in[i].Submit; d > 30*s {
			t.Fatalf("job %d moved by %s, more than the spread", i, d)
		}
		if j.Runtime > j.Walltime {
			t.Fatalf("job %d runs %s past its walltime %s", i, j.Runtime, j.Walltime)
		}
		sum += j.Runtime.Seconds()
	}
	// Capped at 150 s, the mean-1 factors bring the mean a bit under 100.
	if mean := sum / float64(len(a)); mean < 80 || mean > 100 {
		t.Errorf("mean jittered runtime %.1f s, want within [80, 100] s", mean)
	}
	// Turning the submit noise off leaves the runtime draws as they were.
	r := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{Jitter: Jitter{RuntimeSigma: 0.5, Seed: 1}}))
	for i := range r {
		if r[i].Runtime != a[i].Runtime || r[i].Submit != in[i].Submit {
			t.Fatalf("job %d: runtime %s (with submit noise %s), submit %s", i, r[i].Runtime, a[i].Runtime, r[i].Submit)
		}
	}
}

func TestRecordedStartDroppedWhenTheJobChanges(t *testing.T) {
	in := trace()
	for _, j := range in {
		j.Recorded, j.RecordedStart = true, j.Submit+5*s
	}
	kept := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{From: at(110)}))
	if !kept[0].Recorded {
		t.Error("a window alone dropped the recorded start")
	}
	moved := tracetest.All(t, NewSource(&sim.SliceSource{Jobs: in}, Stream{LoadFactor: 2}))
	if !moved[0].Recorded || moved[1].Recorded {
		t.Error("load factor 2: want the first job (not moved) recorded, the second not")
	}
}

func TestParseInstant(t *testing.T) {
	epoch := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want sim.Time
	}{
		{"3600", 3600 * s},
		{"0.5", s / 2},
		{"2024-03-02T00:00:00Z", 86400 * s},
		{"2024-03-01T02:00:00+01:00", 3600 * s},
	} {
		got, err := ParseInstant(c.in, epoch)
		if err != nil || got != c.want {
			t.Errorf("ParseInstant(%q) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	if _, err := ParseInstant("2024-03-02T00:00:00Z", time.Time{}); err == nil {
		t.Error("a calendar time without an epoch was accepted")
	}
	if err := CheckInstant("yesterday"); err == nil {
		t.Error(`"yesterday" accepted`)
	}
}

func TestCheck(t *testing.T) {
	bad := []Stream{
		{From: at(10), Until: at(10)},
		{FirstJobs: -1},
		{LoadFactor: -2},
		{Walltime: Walltime{Kind: Times, Factor: 0.5}},
		{Jitter: Jitter{RuntimeSigma: -1}},
		{WarmUp: -s},
	}
	for _, st := range bad {
		if st.Check() == nil {
			t.Errorf("%+v passed Check", st)
		}
	}
	if (&Stream{LoadFactor: 1, RuntimeFactor: 1}).Identity() != true {
		t.Error("factors of 1 are not the identity")
	}
}
