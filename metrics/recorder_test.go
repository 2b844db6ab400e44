package metrics

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// TestHandComputed replays sevenJobs on twoNodes with strict FCFS and
// walltime kills, and checks every number against arithmetic done by hand.
//
// Schedule (a = node 0, b = node 1, 4 cpus each):
//
//	job  submit  start  end  nodes   why
//	1    0       0      100  a       4 cpus: a full
//	2    10      10     60   b,b     2 tasks × 2 cpus on b
//	3    20      60     65   b       waits for 2 to free b
//	4    30      65     85   b       killed at its 20 s walltime (runtime 30)
//	5    40      —      —    —       8 cpus fit on no node: rejected
//	6    50      85     85   b       runtime 0, behind 4 (strict FCFS)
//	7    90      100    110  a,b     2 × 3 cpus: needs a, free at 100
func TestHandComputed(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true}, Options{}, FinalInfo{Skipped: 2, WallSeconds: 0.5})

	if got, want := files(t, dir), []string{
		"jobs.parquet", "nodes.parquet", "summary.csv", "summary.parquet", "tenants.parquet", "timeseries.parquet",
	}; !slices.Equal(got, want) {
		t.Fatalf("files = %v, want %v", got, want)
	}

	jobs := readParquet(t, filepath.Join(dir, "jobs.parquet"))
	// Rows come in the order jobs leave: 5 rejected at 40, 2 ends at 60,
	// 3 at 65, 4 killed at 85, 6 ends at 85, 1 at 100, 7 at 110.
	type row struct {
		id, state, reason, nodeList                                     string
		start, end, wait, runtime, walltime, turnaround, slowdown, bsld any
		nodes                                                           int64
		energy                                                          float64
	}
	// energy_j = Σ tasks (max−idle)/capacity · cpus · runtime:
	// on a 100/4 = 25 W per cpu, on b 200/4 = 50 W per cpu.
	want := []row{
		{id: "5", state: "rejected", reason: "no node can hold one task"},
		// 2: turnaround 50, runtime 50; energy 50·2·2·50 = 10000
		{id: "2", state: "completed", nodeList: "1", nodes: 1, start: 10.0, end: 60.0, wait: 0.0, runtime: 50.0,
			turnaround: 50.0, slowdown: 1.0, bsld: 1.0, energy: 10000},
		// 3: turnaround 45, runtime 5 < tau 10 → bsld 45/10 = 4.5; energy 50·4·5 = 1000
		{id: "3", state: "completed", nodeList: "1", nodes: 1, start: 60.0, end: 65.0, wait: 40.0, runtime: 5.0,
			turnaround: 45.0, slowdown: 9.0, bsld: 4.5, energy: 1000},
		// 4: killed after 20 s; turnaround 55 → 55/20 = 2.75; energy 50·4·20 = 4000
		{id: "4", state: "killed", reason: "walltime exceeded", nodeList: "1", nodes: 1, start: 65.0, end: 85.0, wait: 35.0,
			runtime: 20.0, walltime: 20.0, turnaround: 55.0, slowdown: 2.75, bsld: 2.75, energy: 4000},
		// 6: runtime 0 → slowdown null, bsld 35/10 = 3.5
		{id: "6", state: "completed", nodeList: "1", nodes: 1, start: 85.0, end: 85.0, wait: 35.0, runtime: 0.0,
			turnaround: 35.0, bsld: 3.5, energy: 0},
		// 1: energy 25·4·100 = 10000
		{id: "1", state: "completed", nodeList: "0", nodes: 1, start: 0.0, end: 100.0, wait: 0.0, runtime: 100.0,
			walltime: 200.0, turnaround: 100.0, slowdown: 1.0, bsld: 1.0, energy: 10000},
		// 7: turnaround 20, runtime 10 = tau → 2; energy 25·3·10 + 50·3·10 = 2250
		{id: "7", state: "completed", nodeList: "0-1", nodes: 2, start: 100.0, end: 110.0, wait: 10.0, runtime: 10.0,
			walltime: 10.0, turnaround: 20.0, slowdown: 2.0, bsld: 2.0, energy: 2250},
	}
	if n := len(jobs["job_id"]); n != len(want) {
		t.Fatalf("%d job rows, want %d", n, len(want))
	}
	for i, w := range want {
		got := row{
			id: jobs["job_id"][i].(string), state: jobs["state"][i].(string), reason: jobs["reason"][i].(string),
			nodeList: jobs["node_list"][i].(string), start: jobs["start_s"][i], end: jobs["end_s"][i],
			wait: jobs["wait_s"][i], runtime: jobs["runtime_s"][i], walltime: jobs["walltime_s"][i],
			turnaround: jobs["turnaround_s"][i], slowdown: jobs["slowdown"][i], bsld: jobs["bsld"][i],
			nodes: jobs["nodes"][i].(int64), energy: jobs["energy_j"][i].(float64),
		}
		if got != w {
			t.Errorf("job row %d:\n got %+v\nwant %+v", i, got, w)
		}
		if u := jobs["user"][i]; u != "u"+w.id {
			t.Errorf("job %s: user %v", w.id, u)
		}
		if r := jobs["restarts"][i]; r != int64(0) {
			t.Errorf("job %s: restarts %v", w.id, r)
		}
	}

	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Waits of the 6 started jobs, sorted: 0 0 10 35 35 40.
	//   mean 120/6 = 20; median h = 5·0.5 = 2.5 → 10 + 0.5·(35−10) = 22.5;
	//   p95 h = 5·0.95 = 4.75 → 35 + 0.75·(40−35) = 38.75; max 40.
	// Slowdown over ended jobs with runtime > 0 (1 2 3 4 7):
	//   (1 + 1 + 9 + 2.75 + 2) / 5 = 3.15.
	// bsld over ended jobs (1 2 3 4 6 7): (1 + 1 + 4.5 + 2.75 + 3.5 + 2) / 6 = 14.75/6.
	// Makespan 110 − 0. cpu·s used: a 4·100 + 3·10 = 430, b 2·2·50 + 4·5 + 4·20 + 3·10 = 330;
	//   utilization (430 + 330) / (8 · 110) = 760/880.
	// Energy, piece by piece (idle 100 + 50 = 150 W; a +25 W/cpu, b +50 W/cpu):
	//   [0,10) 250·10 + [10,85) 450·75 + [85,100) 250·15 + [100,110) 375·10
	//   = 2500 + 33750 + 3750 + 3750 = 43750 J.
	wantF := map[string]float64{
		"makespan_s": 110, "mean_wait_s": 20, "median_wait_s": 22.5, "p95_wait_s": 38.75, "max_wait_s": 40,
		"mean_slowdown": 3.15, "mean_bsld": 14.75 / 6, "utilization": 760.0 / 880, "utilization_cpu": 760.0 / 880,
		"utilization_mem": 0, "energy_j": 43750, "energy_kwh": 43750 / 3.6e6, "wall_s": 0.5,
		"jobs_per_s": 7 / 0.5,
	}
	for k, w := range wantF {
		g, err := strconv.ParseFloat(s[k], 64)
		if err != nil || !near(g, w) {
			t.Errorf("summary %s = %q, want %v", k, s[k], w)
		}
	}
	wantI := map[string]string{"jobs": "7", "jobs_completed": "5", "jobs_killed": "1", "jobs_rejected": "1",
		"jobs_unfinished": "0", "jobs_skipped": "2"}
	for k, w := range wantI {
		if s[k] != w {
			t.Errorf("summary %s = %q, want %s", k, s[k], w)
		}
	}
	// events: 7 submits + 6 ends; FinalInfo.Events was 0, so the engine's count.
	if s["events"] != "13" {
		t.Errorf("events = %q, want 13", s["events"])
	}

	nodes := readParquet(t, filepath.Join(dir, "nodes.parquet"))
	// a: busy [0,110) = 110, energy 100·110 + 25·430 = 21750, 2 tasks.
	// b: busy [10,85) ∪ [100,110) = 85, energy 50·110 + 50·330 = 22000,
	//    tasks 2 (job 2) + 1 + 1 + 1 + 1 = 6.
	for n, w := range []struct{ busy, cpuS, util, energy float64 }{
		{110, 430, 430.0 / 440, 21750},
		{85, 330, 330.0 / 440, 22000},
	} {
		g := []float64{nodes["busy_s"][n].(float64), nodes["cpu_seconds"][n].(float64),
			nodes["utilization_cpu"][n].(float64), nodes["energy_j"][n].(float64)}
		for i, wv := range []float64{w.busy, w.cpuS, w.util, w.energy} {
			if !near(g[i], wv) {
				t.Errorf("node %d column %d = %v, want %v", n, i, g[i], wv)
			}
		}
	}
	if g := nodes["tasks_run"]; g[0] != int64(2) || g[1] != int64(6) {
		t.Errorf("tasks_run = %v, want [2 6]", g)
	}
	if g := nodes["node"]; g[0] != "a" || g[1] != "b" {
		t.Errorf("node = %v", g)
	}
	// Per-node energies add up to the integral of the cluster's draw.
	if e := nodes["energy_j"][0].(float64) + nodes["energy_j"][1].(float64); !near(e, 43750) {
		t.Errorf("Σ node energy = %v, want 43750", e)
	}

	ts := readParquet(t, filepath.Join(dir, "timeseries.parquet"))
	// Steps: 0 10 20 30 40 50 60 65 85 85 90 100 110. The step at 40 (job 5
	// rejected) changes nothing and is skipped: 12 rows.
	wantT := []float64{0, 10, 20, 30, 50, 60, 65, 85, 85, 90, 100, 110}
	var gotT []float64
	for _, v := range ts["time_s"] {
		gotT = append(gotT, v.(float64))
	}
	if !slices.Equal(gotT, wantT) {
		t.Errorf("time_s = %v, want %v", gotT, wantT)
	}
	// First row: job 1 runs on a: 200 + 50 W, 4 of 8 cpus.
	if ts["power_w"][0] != 250.0 || ts["utilization_cpu"][0] != 0.5 || ts["allocated_cpu"][0] != 4.0 ||
		ts["running_jobs"][0] != int64(1) || ts["queued_jobs"][0] != int64(0) {
		t.Errorf("first row: power %v util %v alloc %v running %v queued %v", ts["power_w"][0],
			ts["utilization_cpu"][0], ts["allocated_cpu"][0], ts["running_jobs"][0], ts["queued_jobs"][0])
	}
	// Row at 50: jobs 1 and 2 run, 3 4 6 wait.
	if ts["queued_jobs"][4] != int64(3) || ts["running_jobs"][4] != int64(2) || ts["power_w"][4] != 450.0 {
		t.Errorf("row at 50: queued %v running %v power %v", ts["queued_jobs"][4], ts["running_jobs"][4], ts["power_w"][4])
	}
	last := len(wantT) - 1
	if ts["power_w"][last] != 150.0 || ts["allocated_cpu"][last] != 0.0 || ts["running_jobs"][last] != int64(0) {
		t.Errorf("last row: power %v alloc %v", ts["power_w"][last], ts["allocated_cpu"][last])
	}
}

// TestHorizon stops the same trace at 70 s: jobs 1 and 4 are running, 6
// is queued, 7 never arrived.
func TestHorizon(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true, Until: secs(70)}, Options{Format: FormatArrow}, FinalInfo{})
	jobs := readIPC(t, filepath.Join(dir, "jobs.arrow"))
	ids := jobs["job_id"]
	states := jobs["state"]
	// Rows: 5 rejected (40), 2 (60), 3 (65), then at the end the queue (6)
	// and the running jobs (1 and 4, in the engine's order).
	if len(ids) != 6 || ids[3] != "6" || states[3] != "queued" || states[4] != "running" || states[5] != "running" {
		t.Fatalf("ids %v states %v", ids, states)
	}
	for i := 3; i < 6; i++ {
		if jobs["end_s"][i] != nil || jobs["runtime_s"][i] != nil || jobs["bsld"][i] != nil {
			t.Errorf("row %d (%v): unfinished job has an end", i, ids[i])
		}
	}
	if jobs["start_s"][3] != nil || jobs["wait_s"][3] != nil || jobs["node_list"][3] != "" {
		t.Errorf("queued job 6 has a start or nodes")
	}
	for i := 4; i < 6; i++ {
		// Energy so far: job 1 25·4·70 = 7000 on a; job 4 50·4·(70−65) = 1000 on b.
		want := map[any]float64{"1": 7000, "4": 1000}[ids[i]]
		if e := jobs["energy_j"][i].(float64); !near(e, want) {
			t.Errorf("job %v energy %v, want %v", ids[i], e, want)
		}
	}
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Makespan 70 (the horizon, since jobs are left). Energy:
	// [0,10) 250·10 + [10,70) 450·60 = 2500 + 27000.
	// cpu·s: a 4·70 = 280; b 2·2·50 + 4·5 + 4·5 = 240 → 520/(8·70).
	for k, w := range map[string]float64{"makespan_s": 70, "energy_j": 29500, "utilization": 520.0 / 560} {
		if g, _ := strconv.ParseFloat(s[k], 64); !near(g, w) {
			t.Errorf("%s = %q, want %v", k, s[k], w)
		}
	}
	if s["jobs"] != "6" || s["jobs_unfinished"] != "3" || s["jobs_completed"] != "2" || s["wall_s"] != "0" || s["jobs_per_s"] != "" {
		t.Errorf("summary %v", s)
	}
	nodes := readIPC(t, filepath.Join(dir, "nodes.arrow"))
	// a busy the whole 70 s; b from 10 to 70.
	if nodes["busy_s"][0] != 70.0 || nodes["busy_s"][1] != 60.0 {
		t.Errorf("busy_s %v", nodes["busy_s"])
	}
}

func TestNoJobs(t *testing.T) {
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dir := t.TempDir()
		run(t, dir, twoNodes(t), nil, sim.Config{}, Options{Format: f}, FinalInfo{})
		s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if s["jobs"] != "0" || s["makespan_s"] != "0" || s["energy_j"] != "0" || s["mean_wait_s"] != "" || s["utilization"] != "" {
			t.Errorf("%s: summary %v", f, s)
		}
		if n := len(files(t, dir)); n != 6 && !(f == FormatCSV && n == 5) {
			t.Errorf("%s: files %v", f, files(t, dir))
		}
	}
}

func TestLabels(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{}, Options{Labels: []Label{{"policy", "fcfs, strict"}, {"seed", "1"}}}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s["policy"] != "fcfs, strict" || s["seed"] != "1" {
		t.Errorf("labels: %v", s)
	}
	for _, bad := range [][]Label{{{"mean_wait_s", "x"}}, {{"Bad Name", "x"}}, {{"a", "1"}, {"a", "2"}}, {{"utilization_cpu", "x"}}} {
		if _, err := NewRecorder(t.TempDir(), twoNodes(t), Options{Labels: bad}); err == nil {
			t.Errorf("labels %v accepted", bad)
		}
	}
	if _, err := NewRecorder(t.TempDir(), twoNodes(t), Options{Format: "xlsx"}); err == nil {
		t.Error("format xlsx accepted")
	}
}

// TestHotPathAllocs: recording a job costs no allocation once the
// builders have grown (the waits slice and builders grow geometrically).
func TestHotPathAllocs(t *testing.T) {
	rec, err := NewRecorder(t.TempDir(), twoNodes(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Abort()
	j := &sim.JobRun{Job: job("x", 0, 10, -1, 3, 1), Status: sim.Completed, Start: secs(5), End: secs(15), Nodes: []int32{1, 0, 1}}
	rec.Submitted(0, j)
	allocs := testing.AllocsPerRun(20000, func() {
		rec.Started(j.Start, j)
		rec.Ended(j.End, j)
	})
	if allocs > 0.01 {
		t.Errorf("%v allocations per job", allocs)
	}
}

// waker is fcfs that also asks for a pass at a fixed time, as backfill
// reservations and cycle ticks do.
type waker struct {
	fcfs
	at sim.Time
}

func (w *waker) Schedule(c *sim.Context) error {
	c.WakeAt(w.at)
	return w.fcfs.Schedule(c)
}

// TestWakeAfterLastEnd: a pass at 500 s, long after the last job ended at
// 110 s, changes nothing: the makespan and the energy stay those of
// TestHandComputed, and the timeseries ends with the idle state at 500 s.
func TestWakeAfterLastEnd(t *testing.T) {
	dir := t.TempDir()
	c := twoNodes(t)
	rec, err := NewRecorder(dir, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := sim.NewEngine(c, &sim.SliceSource{Jobs: sevenJobs()}, &waker{at: secs(500)}, sim.Config{KillAtWalltime: true}, rec)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(FinalInfo{}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s["makespan_s"] != "110" || s["energy_j"] != "43750" || s["utilization"] != strconv.FormatFloat(760.0/880, 'g', -1, 64) {
		t.Errorf("makespan %s energy %s utilization %s", s["makespan_s"], s["energy_j"], s["utilization"])
	}
	ts := readParquet(t, filepath.Join(dir, "timeseries.parquet"))
	n := len(ts["time_s"])
	if ts["time_s"][n-1] != 500.0 || ts["time_s"][n-2] != 110.0 || ts["power_w"][n-1] != 150.0 {
		t.Errorf("last rows: %v", ts["time_s"][n-2:])
	}
}
