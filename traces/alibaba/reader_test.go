package alibaba

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// TestSampleGolden: the sample parses, with and without batch_instance,
// into the golden jobs, strict and lenient alike.
func TestSampleGolden(t *testing.T) {
	all, err := FindFiles(testdata)
	if err != nil {
		t.Fatal(err)
	}
	if all.Instances == "" || all.Machines == "" {
		t.Fatalf("FindFiles(%s) = %+v: want all three tables", testdata, all)
	}
	for _, c := range []struct {
		golden string
		files  Files
	}{
		{"tasks.jobs", Files{Tasks: all.Tasks}},
		{"tasks_instances.jobs", all},
	} {
		var outs []string
		for _, strict := range []bool{true, false} {
			r, err := Open(c.files, Options{Options: traces.Options{Strict: strict}})
			if err != nil {
				t.Fatal(err)
			}
			jobs := tracetest.All(t, r)
			r.Close()
			if s := r.Skips(); s.Total != 0 {
				t.Errorf("%s: skipped %d records: %v", c.golden, s.Total, s.First)
			}
			outs = append(outs, formatJobs(jobs))
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: strict and lenient differ", c.golden)
		}
		golden(t, c.golden, outs[0])
	}
}

// TestSampleMapping checks the sample's jobs against values worked out by
// hand from the CSV rows, so the golden file is not its own only witness.
func TestSampleMapping(t *testing.T) {
	files, _ := FindFiles(testdata)
	byID := func(f Files) (map[string]*sim.Job, []string) {
		r, err := Open(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		m := map[string]*sim.Job{}
		var order []string
		for _, j := range tracetest.All(t, r) {
			m[j.ID] = j
			order = append(order, j.ID)
		}
		return m, order
	}
	plain, order := byID(Files{Tasks: files.Tasks})
	// Jobs first start: j_2 50, j_1 100, j_4 120, j_5 300, j_3 400, j_6
	// 600 (file order j_1…j_6); within j_1 the topological order M1, M2_1,
	// M3_1, R4_2, M5_3_4 though the file lists M5_3_4 third; within j_5
	// M1 before R2_1, as R2_1 waits for it.
	want := []string{
		"j_2/task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==", "j_2/task_Nzg3ODAwNDgzMTAwODc2NTQ3MQ==",
		"j_1/M1", "j_1/M2_1", "j_1/M3_1", "j_1/R4_2", "j_1/M5_3_4",
		"j_4/MergeTask", "j_5/M1", "j_5/R2_1", "j_3/M1", "j_3/M2", "j_3/J3_1_2", "j_6/M1",
	}
	if !slices.Equal(order, want) {
		t.Fatalf("order\n got %v\nwant %v", order, want)
	}
	// DAG edges from the names.
	edges := map[string][]string{
		"j_1/M1": nil, "j_1/M2_1": {"j_1/M1"}, "j_1/M3_1": {"j_1/M1"}, "j_1/R4_2": {"j_1/M2_1"},
		"j_1/M5_3_4": {"j_1/M3_1", "j_1/R4_2"}, "j_3/J3_1_2": {"j_3/M1", "j_3/M2"}, "j_5/R2_1": {"j_5/M1"},
	}
	for id, deps := range edges {
		var got []string
		for _, d := range plain[id].DependsOn {
			got = append(got, d.ID)
			if d.AfterAny || d.Think != 0 {
				t.Errorf("%s: dependency %+v, want after success, no think time", id, d)
			}
		}
		if !slices.Equal(got, deps) {
			t.Errorf("%s depends on %v, want %v", id, got, deps)
		}
	}
	// Every task of a job arrives at the job's first start: j_1's M5_3_4
	// (start 265) at 100.
	if got := plain["j_1/M5_3_4"].Submit; got != 100*sim.Second {
		t.Errorf("j_1/M5_3_4 submit %v, want 100 s", got)
	}
	// J3_1_2: 2 instances, plan_cpu 300 = 3 cores = 3000 milli, plan_mem
	// 1.2 = 1200 milli, runtime 520 − 470 = 50 s, queue = task_type 3.
	j := plain["j_3/J3_1_2"]
	if j.Tasks != 2 || j.Runtime != 50*sim.Second || j.Queue != "3" || j.Group != "j_3" || j.Walltime != sim.NoWalltime ||
		!slices.Equal(j.Request, []sim.Quantity{{Resource: "cpu", Amount: 3000}, {Resource: "mem", Amount: 1200}}) {
		t.Errorf("j_3/J3_1_2 = %s", formatJob(j))
	}
	// With batch_instance the runtime is the longest instance's:
	// j_1/M1 max(140−100, 150−101) = 49 s (the task row says 60);
	// j_1/M2_1 max(25, 29, 30, 12) = 30 s (35); j_2's first task
	// max(20, 29, 38) = 38 s (40); j_5/M1 max(10, 24) = 24 s (25). Tasks
	// with no instance rows keep their row's runtime: j_3/M1 60 s.
	inst, _ := byID(files)
	for id, w := range map[string][2]sim.Time{
		"j_1/M1": {60, 49}, "j_1/M2_1": {35, 30}, "j_2/task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==": {40, 38},
		"j_5/M1": {25, 24}, "j_3/M1": {60, 60},
	} {
		if plain[id].Runtime != w[0]*sim.Second || inst[id].Runtime != w[1]*sim.Second {
			t.Errorf("%s runtime %v / %v with instances, want %d s / %d s", id, plain[id].Runtime, inst[id].Runtime, w[0], w[1])
		}
	}
}

// TestWindowReorders: a job listed after a later one comes out first, as
// long as the window holds it; beyond the window it is a bad record.
func TestWindowReorders(t *testing.T) {
	// File order A (100), B (300), C (50). Window 2: all three fit (the
	// heap pops only when it holds more than 2), so C, A, B.
	const rows = "M1,1,A,1,Terminated,100,110,100,1\nM1,1,B,1,Terminated,300,310,100,1\nM1,1,C,1,Terminated,50,60,100,1\n"
	jobs := tracetest.All(t, fromStrings(rows, "", Options{Window: 2}))
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []string{"C/M1", "A/M1", "B/M1"}) {
		t.Errorf("window 2: %v", ids)
	}
	// Window 1: reading B makes two jobs, so A (100) leaves; C (50) then
	// starts before it: strict stops at line 3, field start_time.
	_, err := tracetest.Drain(fromStrings(rows, "", Options{Window: 1, Options: traces.Options{Strict: true}}))
	pe := tracetest.ParseErr(t, err)
	if pe.Line != 3 || pe.Field != "start_time" || pe.File != "batch_task.csv" {
		t.Errorf("window 1 strict: %v", err)
	}
	// Lenient: C skipped and counted, A and B in order.
	r := fromStrings(rows, "", Options{Window: 1})
	jobs = tracetest.All(t, r)
	if len(jobs) != 2 || jobs[0].ID != "A/M1" || jobs[1].ID != "B/M1" || r.Skips().Total != 1 {
		t.Errorf("window 1 lenient: %d jobs, %d skipped", len(jobs), r.Skips().Total)
	}
}

// TestRowsOfAJobMerge: a job whose rows are split by another job's is
// merged while the window holds it.
func TestRowsOfAJobMerge(t *testing.T) {
	rows := "M1,1,A,1,Terminated,100,110,100,1\nM1,1,B,1,Terminated,120,130,100,1\nM2_1,1,A,1,Terminated,115,118,100,1\n"
	jobs := tracetest.All(t, fromStrings(rows, "", Options{Options: traces.Options{Strict: true}}))
	if len(jobs) != 3 || jobs[1].ID != "A/M2_1" || jobs[1].Submit != 100*sim.Second || jobs[1].DependsOn[0].ID != "A/M1" {
		t.Errorf("got:\n%s", formatJobs(jobs))
	}
}

// TestGzip: a gzip-compressed table reads like the plain one.
func TestGzip(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join(testdata, "batch_task.csv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "batch_task.csv.gz")
	tracetest.WriteGzip(t, path, plain)
	r, err := Open(Files{Tasks: path}, Options{Options: traces.Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := formatJobs(tracetest.All(t, r))
	want := formatJobs(tracetest.All(t, fromStrings(string(plain), "", Options{})))
	if got != want {
		t.Errorf("gzip differs:\n%s\nvs\n%s", got, want)
	}
}

func TestIsTrace(t *testing.T) {
	for path, want := range map[string]bool{
		testdata: true, filepath.Join(testdata, "batch_task.csv"): true, "x/batch_task.csv.gz": true,
		"x/batch_task_sorted.csv": true, "x/vmtable.csv": false, filepath.Join(testdata, "golden"): false,
	} {
		if got := IsTrace(path); got != want {
			t.Errorf("IsTrace(%s) = %t", path, got)
		}
	}
	if _, err := FindFiles(filepath.Join(testdata, "golden")); err == nil || !strings.Contains(err.Error(), "batch_task") {
		t.Errorf("FindFiles of a directory without batch_task: %v", err)
	}
}
