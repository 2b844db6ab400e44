package metrics

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// oneNode is a single node of 4 cpus.
func oneNode(t testing.TB) *sim.Cluster {
	t.Helper()
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "a", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}},
		Power: sim.PowerModel{IdleW: 100, MaxW: 200}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// recordedJobs is a trace whose recorded schedule is a valid one on
// oneNode, different from strict FCFS's.
//
//	job  submit  run  cpus  recorded start  recorded wait  FCFS start  FCFS wait  |error|
//	1    0       100  4     10              10             0           0          10
//	2    10      50   4     110             100            100         90         10
//	3    20      20   2     180             160            150         130        30
//	4    30      10   2     —                              150         120        (not recorded)
//	5    40      20   4+gpu 200             160            rejected: no node has a gpu
func recordedJobs() []*sim.Job {
	rec := func(j *sim.Job, start float64) *sim.Job {
		j.Recorded, j.RecordedStart = true, secs(start)
		return j
	}
	j5 := job("5", 40, 20, -1, 1, 4)
	j5.Request = append(j5.Request, sim.Quantity{Resource: "gpu", Amount: sim.Units(1)})
	j1 := job("1", 0, 100, 200, 1, 4)
	j1.RequestedProcs, j1.Partition, j1.QOS, j1.Priority = 4, "batch", "normal", 7
	return []*sim.Job{
		rec(j1, 10),
		rec(job("2", 10, 50, -1, 1, 4), 110),
		rec(job("3", 20, 20, -1, 1, 2), 180),
		job("4", 30, 10, -1, 1, 2),
		rec(j5, 200),
	}
}

// TestCalibration checks the calib_* summary columns and the jobs table's
// request and recorded columns against arithmetic done by hand.
//
// Compared jobs: 1, 2, 3 (recorded and started; 4 is not recorded, 5
// never starts).
//   - start errors [10, 10, 30]: median 10; p90 (type 7): h = 2·0.9 =
//     1.8, so 10 + 0.8·(30 − 10) = 26.
//   - waits, simulated [0, 90, 130], recorded [10, 100, 160]. The CDFs
//     after each value: 0 → 1/3 vs 0; 10 → 1/3 vs 1/3; 90 → 2/3 vs 1/3;
//     100 → 2/3 vs 2/3; 130 → 1 vs 2/3: KS distance 1/3.
//   - mean wait ratio (220/3) / (270/3) = 22/27.
//   - p95 (h = 1.9): simulated 90 + 0.9·40 = 126, recorded 100 + 0.9·60
//     = 154: ratio 126/154 = 9/11.
//   - recorded utilization: work of every recorded job, 5 included (it
//     ran on the traced system): 4·100 + 4·50 + 2·20 + 4·20 = 720 cpu·s,
//     over 4 cpus × (last recorded end 200 + 20 − first submit 0) = 880:
//     9/11. The run's own: (400 + 200 + 40 + 20) / (4 × 170) = 33/34.
func TestCalibration(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, oneNode(t), recordedJobs(), sim.Config{}, Options{}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{
		"calib_jobs":                 3,
		"calib_start_error_median_s": 10,
		"calib_start_error_p90_s":    26,
		"calib_wait_ks":              1.0 / 3,
		"calib_mean_wait_ratio":      22.0 / 27,
		"calib_p95_wait_ratio":       9.0 / 11,
		"calib_recorded_utilization": 9.0 / 11,
		"utilization":                33.0 / 34,
	} {
		if got := num(t, s, name); !near(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}

	jobs := readParquet(t, filepath.Join(dir, "jobs.parquet"))
	// Rows in leaving order: 5 (rejected at 40), 1, 2, 4, 3.
	want := []struct {
		id, request, partition, qos string
		procs, recorded             any
		priority                    int64
		traceRuntime                float64
	}{
		{"5", "cpu=4,gpu=1", "", "", nil, 200.0, 0, 20},
		{"1", "cpu=4", "batch", "normal", int64(4), 10.0, 7, 100},
		{"2", "cpu=4", "", "", nil, 110.0, 0, 50},
		{"4", "cpu=2", "", "", nil, nil, 0, 10},
		{"3", "cpu=2", "", "", nil, 180.0, 0, 20},
	}
	for i, w := range want {
		if jobs["job_id"][i] != w.id || jobs["request"][i] != w.request || jobs["partition"][i] != w.partition ||
			jobs["qos"][i] != w.qos || jobs["requested_procs"][i] != w.procs || jobs["recorded_start_s"][i] != w.recorded ||
			jobs["priority"][i] != w.priority || jobs["trace_runtime_s"][i] != w.traceRuntime {
			t.Errorf("row %d: id %v request %v partition %v qos %v procs %v recorded %v priority %v trace runtime %v; want %+v", i,
				jobs["job_id"][i], jobs["request"][i], jobs["partition"][i], jobs["qos"][i], jobs["requested_procs"][i],
				jobs["recorded_start_s"][i], jobs["priority"][i], jobs["trace_runtime_s"][i], w)
		}
	}
}

// TestCalibrationWithoutRecord: a trace that records no start leaves
// every calib_* statistic null and calib_jobs 0.
func TestCalibrationWithoutRecord(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true}, Options{}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"calib_start_error_median_s", "calib_start_error_p90_s", "calib_wait_ks",
		"calib_mean_wait_ratio", "calib_p95_wait_ratio", "calib_recorded_utilization"} {
		if v, ok := s[name]; !ok || v != "" {
			t.Errorf("%s = %q (present %v), want null", name, v, ok)
		}
	}
	if s["calib_jobs"] != "0" {
		t.Errorf("calib_jobs = %q", s["calib_jobs"])
	}
}

// TestKSDistance against the definition, on samples of different sizes
// with ties: a = {1, 2, 2, 5}, b = {2, 3}. After 1: 1/4 vs 0; after 2:
// 3/4 vs 1/2; after 3: 3/4 vs 1 → 1/4; after 5: 1 vs 1. Largest: 1/4.
// Identical samples are 0 apart, disjoint ones 1.
func TestKSDistance(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 2, 5}, []float64{2, 3}, 0.25},
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0},
		{[]float64{1, 2}, []float64{3, 4, 5}, 1},
		{[]float64{0, 0, 0}, []float64{0}, 0},
	} {
		if got := ksDistance(c.a, c.b); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("ks(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// num reads a summary value as a number; a null or missing one fails.
func num(t *testing.T, s map[string]string, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s[name], 64)
	if err != nil {
		t.Fatalf("summary %s = %q: %v", name, s[name], err)
	}
	return v
}

// calib_* stand only over most of the run's jobs and only for a run
// comparable with its history: below MinCalibrationShare of the jobs, or
// with CalibrationOff, every statistic is null.
func TestCalibrationShareAndOff(t *testing.T) {
	var c calibration
	c.mainRes = "cpu"
	for i := range 3 {
		c.startErr.add(float64(i))
		c.simWait.add(float64(i))
		c.recWait.add(float64(i + 1))
	}
	c.any = true
	stat := func(cols []col) (int64, bool) {
		jobs, null := cols[0].i, true
		for _, x := range cols[1:] {
			null = null && x.null
		}
		return jobs, null
	}
	if jobs, null := stat(c.cols(1, 0, 10, 6, false)); jobs != 3 || null {
		t.Errorf("3 of 6 jobs (half): jobs %d, null %v; want the statistics", jobs, null)
	}
	if jobs, null := stat(c.cols(1, 0, 10, 7, false)); jobs != 3 || !null {
		t.Errorf("3 of 7 jobs: jobs %d, null %v; want calib_jobs 3 and null statistics", jobs, null)
	}
	if jobs, null := stat(c.cols(1, 0, 10, 3, true)); jobs != 0 || !null {
		t.Errorf("off: jobs %d, null %v; want 0 and null", jobs, null)
	}
}
