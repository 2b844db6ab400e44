package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// buildSchedsim builds the binary, for tests that need real processes.
func buildSchedsim(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "schedsim")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// writeSpec writes an experiment file into a temp dir; trace paths in it
// are absolute.
func writeSpec(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "experiment.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sameSummaries fails unless a and b hold byte-identical summaries.
func sameSummaries(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range []string{"summary.csv", "summary.parquet"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", f, a, b)
		}
	}
}

// latticeSpec: the first 2,000 jobs of KTH-SP2 under the lattice queue,
// 2 backfills × 2 fair-share weights × 2 half-lives × 2 seeds = 16 runs.
func latticeSpec(t *testing.T) string {
	return writeSpec(t, `seed: 7
seeds: 2
traces: [{name: kth2000, path: `+abs(t, "../../testdata/experiments/kth-sp2-2000.swf.gz")+`}]
policies: {queue: [lattice], backfill: [none, easy]}
profiles: [hpc-batch]
parameters:
  ranges:
    - {name: w_fair_share, values: [0, 0.6]}
    - {name: lattice.half_life_s, values: [0, 604800]}
replay:
  lattice: {tenants: user, tenant_buckets: 4, shares: {t0: 1, t1: 2, t2: 3, t3: 4}}
`)
}

// The summary has a row per run sorted by key, the parameters as columns,
// the key-derived seed, and the run's columns but the timing ones; the
// weights reach the runs (the fair-share weight changes the waits).
func TestSweepSummary(t *testing.T) {
	spec := latticeSpec(t)
	dir := t.TempDir()
	out, err := execute(t, "sweep", spec, "--out", dir, "--workers", "2")
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	// The results: one row per group (8 groups of 2 identical seeds, so
	// no interval), the best on the default objective named.
	for _, want := range []string{
		"results (all kth2000__default__lattice__first-fit__hpc-batch):\n",
		"  group                                               runs  mean_wait_s  p95_wait_s  mean_bsld  utilization\n",
		"  easy__w_fair_share=0.6__lattice.half_life_s=0          2  1.4 h        10.2 h      70.11      61.7 %\n",
		"(fewer than 3 runs a group: no intervals;",
		"best on mean_bsld (lower is better): easy__w_fair_share=0.6__lattice.half_life_s=0 (70.11); next easy__w_fair_share=0.6__lattice.half_life_s=604800 (74.08)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n  easy__") + strings.Count(out, "\n  none__"); n != 8 {
		t.Errorf("%d group rows, want 8:\n%s", n, out)
	}
	rows := runcmp.ReadCSV(t, filepath.Join(dir, "summary.csv"))
	if len(rows) != 17 {
		t.Fatalf("%d lines, want a header and 16 rows", len(rows))
	}
	header := strings.Join(rows[0][:13], ",")
	want := "run,run_dir,param_trace,param_cluster,param_queue,param_backfill,param_placement,param_profile,param_w_fair_share,param_lattice.half_life_s,seed,random_seed,jobs"
	if header != want {
		t.Errorf("header starts\n%s\nwant\n%s", header, want)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, timing := range []string{"wall_s", "events_per_s", "jobs_per_s"} {
		if _, ok := col[timing]; ok {
			t.Errorf("summary has the timing column %s", timing)
		}
	}
	waits := map[string]bool{}
	for i, row := range rows[1:] {
		if i > 0 && row[0] <= rows[i][0] {
			t.Errorf("rows not sorted by key: %s after %s", row[0], rows[i][0])
		}
		if row[col["run_dir"]] != "runs/"+row[0] {
			t.Errorf("run_dir %s", row[col["run_dir"]])
		}
		if row[col["jobs"]] != "2000" {
			t.Errorf("%s: jobs %s", row[0], row[col["jobs"]])
		}
		if !strings.HasSuffix(row[0], "__seed="+row[col["seed"]]) {
			t.Errorf("%s: seed %s, want the key's", row[0], row[col["seed"]])
		}
		if row[col["random_seed"]] != strconv.FormatUint(experiment.RunSeed(7, row[0]), 10) {
			t.Errorf("%s: random_seed %s, want RunSeed(7, key)", row[0], row[col["random_seed"]])
		}
		if row[col["param_backfill"]] == "easy" && row[col["param_lattice.half_life_s"]] == "0" {
			waits[row[col["param_w_fair_share"]]+" "+row[col["mean_wait_s"]]] = true
		}
	}
	// Per weight, the 2 seeds agree (nothing random here): 2 distinct
	// (weight, wait) pairs, and the two weights give different waits.
	if len(waits) != 2 {
		t.Errorf("want one mean wait per fair-share weight, different: %v", waits)
	}
	prof, err := os.ReadFile(filepath.Join(dir, "profiles", "kth2000__default__lattice__easy__first-fit__hpc-batch__w_fair_share=0.6__lattice.half_life_s=0__seed=1.yaml"))
	if err != nil || !strings.Contains(string(prof), "fair_share: 0.6\n") || !strings.Contains(string(prof), "priority: 0.15\n") {
		t.Errorf("weight profile (hpc-batch with fair_share 0.6): %v\n%s", err, prof)
	}
	// Run again: everything is done, nothing changes.
	before, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	out, err = execute(t, "sweep", spec, "--out", dir)
	if err != nil || !strings.Contains(out, "(0 run now, 16 already done)") {
		t.Errorf("second sweep: %v\n%s", err, out)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !bytes.Equal(before, after) {
		t.Error("summary changed on a re-run")
	}
}

// A sweep killed with SIGKILL part way and run again ends with the summary
// of an uninterrupted sweep, byte for byte, and redoes no finished run.
func TestSweepResumesAfterKill(t *testing.T) {
	bin := buildSchedsim(t)
	// The whole KTH-SP2 log (about 0.2 s a run), 2 backfills × 2 τ ×
	// 3 seeds = 12 runs on one worker: seconds, so the kill lands part way.
	spec := writeSpec(t, `seed: 3
seeds: 3
traces: [{name: kth, path: `+abs(t, "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz")+`}]
policies: {backfill: [none, easy]}
parameters:
  ranges: [{name: bsld_tau_s, values: [10, 60]}]
`)
	dir := t.TempDir()
	sweep := exec.Command(bin, "sweep", spec, "--out", dir, "--workers", "1", "--quiet")
	if err := sweep.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- sweep.Wait() }()
	// Kill once 3 runs are complete.
	deadline := time.Now().Add(2 * time.Minute)
	for countDone(t, dir) < 3 {
		select {
		case err := <-exited:
			t.Fatalf("the sweep ended (%v) before it could be killed; make the runs longer", err)
		default:
		}
		if time.Now().After(deadline) {
			sweep.Process.Kill()
			t.Fatal("no run finished in 2 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := sweep.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err == nil {
		t.Fatal("the sweep finished before the kill; make the runs longer")
	}
	// What was finished when it died, file by file.
	done := map[string]os.FileInfo{}
	entries, _ := os.ReadDir(filepath.Join(dir, "runs"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		for _, f := range []string{"summary.csv", "jobs.parquet"} {
			if fi, err := os.Stat(filepath.Join(dir, "runs", e.Name(), f)); err == nil {
				done[e.Name()+"/"+f] = fi
			}
		}
	}
	if len(done) < 6 || len(done) >= 24 {
		t.Fatalf("%d files finished at the kill, want those of 3 to 11 runs", len(done))
	}
	if out, err := exec.Command(bin, "sweep", spec, "--out", dir, "--workers", "2").CombinedOutput(); err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "already done)") {
		t.Errorf("resumed sweep says\n%s", out)
	}
	for name, before := range done {
		after, err := os.Stat(filepath.Join(dir, "runs", name))
		if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("%s was rewritten by the resumed sweep", name)
		}
	}
	entries, _ = os.ReadDir(filepath.Join(dir, "runs"))
	if len(entries) != 12 {
		t.Errorf("%d entries in runs/, want the 12 runs and no stage left", len(entries))
	}
	whole := t.TempDir()
	if out, err := exec.Command(bin, "sweep", spec, "--out", whole, "--workers", "2", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, out)
	}
	sameSummaries(t, dir, whole)
}

// countDone counts the complete runs of a sweep directory.
func countDone(t *testing.T, dir string) int {
	entries, _ := os.ReadDir(filepath.Join(dir, "runs"))
	n := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") && experiment.Done(dir, e.Name()) {
			n++
		}
	}
	return n
}

// The same sweep as 3 processes with JOB_COMPLETION_INDEX = 0, 1, 2 over
// one directory, then merge: the single-process summary, byte for byte.
// Shards in separate directories merged with --out give it too.
func TestSweepShardsMerge(t *testing.T) {
	needLong(t) // the 16-run lattice sweep three times over, in six processes, and its own build
	bin := buildSchedsim(t)
	spec := latticeSpec(t)
	whole := t.TempDir()
	if out, err := exec.Command(bin, "sweep", spec, "--out", whole, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	shared := t.TempDir()
	var procs []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range 3 {
		c := exec.Command(bin, "sweep", spec, "--out", shared, "--shards", "3", "--workers", "1")
		c.Env = append(os.Environ(), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		var b bytes.Buffer
		c.Stdout, c.Stderr = &b, &b
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		procs, outs = append(procs, c), append(outs, &b)
	}
	for i, c := range procs {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, outs[i])
		}
	}
	if _, err := os.Stat(filepath.Join(shared, "summary.csv")); err == nil {
		t.Error("a shard wrote the final summary")
	}
	for i := range 3 {
		if _, err := os.Stat(filepath.Join(shared, "shards", strconv.Itoa(i)+"-of-3.csv")); err != nil {
			t.Errorf("shard summary %d: %v", i, err)
		}
	}
	if out, err := exec.Command(bin, "merge", shared).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	sameSummaries(t, shared, whole)

	// Separate directories, Slurm-style indices (array 1-2 → shards 0, 1).
	var parts []string
	for i := range 2 {
		d := t.TempDir()
		c := exec.Command(bin, "sweep", spec, "--out", d, "--quiet")
		c.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=2")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("slurm shard %d: %v\n%s", i, err, out)
		}
		parts = append(parts, d)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	// One shard alone is not the whole experiment: merge names what is missing.
	out, err := exec.Command(bin, "merge", parts[0], "--out", merged).CombinedOutput()
	if code := exitStatus(err); code != 1 || !strings.Contains(string(out), "8 of 16 runs are missing") || !strings.Contains(string(out), "(shard 1/2)") {
		t.Errorf("merge of one shard: exit %d\n%s", code, out)
	}
	if out, err := exec.Command(bin, "merge", parts[0], parts[1], "--out", merged).CombinedOutput(); err != nil {
		t.Fatalf("merge --out: %v\n%s", err, out)
	}
	sameSummaries(t, merged, whole)
}

func exitStatus(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A failing run is reported with its key and counted, the others finish,
// the exit status is 1, and no summary claims the sweep is complete.
func TestSweepFailedRun(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken.swf")
	if err := os.Mkdir(broken, 0o755); err != nil { // a directory: opening it as a trace fails
		t.Fatal(err)
	}
	spec := writeSpec(t, `traces:
  - {name: good, path: `+abs(t, "../../testdata/experiments/kth-sp2-2000.swf.gz")+`}
  - {name: broken, path: `+broken+`}
policies: {backfill: [none, easy]}
`)
	dir := t.TempDir()
	root := newRootCommand()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"sweep", spec, "--out", dir})
	err := root.Execute()
	if exitCode(err) != run.ExitFailed || !strings.Contains(err.Error(), "2 of 4 runs failed") {
		t.Errorf("exit %d: %v", exitCode(err), err)
	}
	if !strings.Contains(stderr.String(), "run broken__default__fcfs__easy__first-fit__seed=1 failed") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if n := countDone(t, dir); n != 2 {
		t.Errorf("%d runs done, want the 2 good ones", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.csv")); err == nil {
		t.Error("summary written although runs failed")
	}
}

// Bad specs and bad replay settings are exit status 2, every problem with
// its line; a sweep directory of another experiment is refused.
func TestSweepBadInput(t *testing.T) {
	trace := abs(t, "../../testdata/experiments/kth-sp2-2000.swf.gz")
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"spec", "traces: [{path: " + trace + "}]\npolicies: {backfill: [easy, sometimes]}\nseeds: -1\nfoo: 1\n",
			[]string{`:2: policies.backfill[1]: unknown backfill "sometimes"`, ":3: seeds: want a count ≥ 1", `:4: unknown key "foo"`}},
		{"replay block", "traces: [{path: " + trace + "}]\nreplay:\n  bsld_tau_s: 5\n  colour: red\n",
			[]string{`experiment.yaml:4: unknown key "colour"`}},
		{"parameter", "traces: [{path: " + trace + "}]\nparameters:\n  ranges:\n    - {name: no_such_setting, values: [1]}\n",
			[]string{`:4: parameters.ranges[0].name: no_such_setting = 1: not a replay setting`}},
		{"missing trace", "traces: [{path: /nonexistent/x.swf}]\n",
			[]string{`:1: traces[0].path: stat /nonexistent/x.swf`}},
	} {
		_, err := execute(t, "sweep", writeSpec(t, c.spec), "--out", t.TempDir())
		if exitCode(err) != run.ExitBadInput {
			t.Errorf("%s: exit %d (%v), want 2", c.name, exitCode(err), err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: missing %q in\n%v", c.name, w, err)
			}
		}
	}
	dir := t.TempDir()
	if _, err := execute(t, "sweep", writeSpec(t, "traces: [{path: "+trace+"}]\n"), "--out", dir); err != nil {
		t.Fatal(err)
	}
	_, err := execute(t, "sweep", writeSpec(t, "seed: 2\ntraces: [{path: "+trace+"}]\n"), "--out", dir)
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "holds another experiment") {
		t.Errorf("other experiment in the same directory: %v", err)
	}
}

// resolveShard reads the flag, the Indexed Job's and Slurm's variables.
func TestResolveShard(t *testing.T) {
	env := func(vars ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1], true
				}
			}
			return "", false
		}
	}
	for _, c := range []struct {
		name        string
		flag        string
		shards      int
		env         func(string) (string, bool)
		index, cnt  int
		errContains string
	}{
		{"none", "", 0, env(), 0, 1, ""},
		{"flag", "2/5", 0, env("JOB_COMPLETION_INDEX", "1"), 2, 5, ""},
		{"indexed job", "", 4, env("JOB_COMPLETION_INDEX", "3"), 3, 4, ""},
		{"indexed job, env count", "", 0, env("JOB_COMPLETION_INDEX", "1", "SCHEDSIM_SHARDS", "2"), 1, 2, ""},
		{"indexed job, no count", "", 0, env("JOB_COMPLETION_INDEX", "1"), 0, 0, "give the shard count"},
		{"index past count", "", 2, env("JOB_COMPLETION_INDEX", "2"), 0, 0, "want 0 ≤ index < count"},
		// --array=1-4: ids 1…4, min 1, count 4 → shards 0…3.
		{"slurm", "", 0, env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_COUNT", "4"), 3, 4, ""},
		// --array=10-16:2: ids 10, 12, 14, 16 → shards 0…3.
		{"slurm step", "", 0, env("SLURM_ARRAY_TASK_ID", "14", "SLURM_ARRAY_TASK_MIN", "10", "SLURM_ARRAY_TASK_STEP", "2", "SLURM_ARRAY_TASK_COUNT", "4"), 2, 4, ""},
		{"slurm bad id", "", 0, env("SLURM_ARRAY_TASK_ID", "x", "SLURM_ARRAY_TASK_COUNT", "4"), 0, 0, "want a whole number"},
		{"shards without index", "", 3, env(), 0, 0, "needs JOB_COMPLETION_INDEX"},
	} {
		i, n, err := resolveShard(c.flag, c.shards, c.shards != 0, c.env)
		if c.errContains != "" {
			if err == nil || !strings.Contains(err.Error(), c.errContains) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.errContains)
			}
			continue
		}
		if err != nil || i != c.index || n != c.cnt {
			t.Errorf("%s: %d/%d %v, want %d/%d", c.name, i, n, err, c.index, c.cnt)
		}
	}
}

// sweep --out naming a directory it did not write is refused before
// anything is written there: the summary.csv of someone else stays.
func TestSweepRefusesForeignDirectory(t *testing.T) {
	spec := latticeSpec(t)
	dir := t.TempDir()
	theirs := filepath.Join(dir, "summary.csv")
	if err := os.WriteFile(theirs, []byte("mine,not schedsim's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, "sweep", spec, "--out", dir, "--quiet")
	want := "--out " + dir + ": a directory of other files (summary.csv), not a sweep of " + spec + " (it has no experiment.yaml); choose another --out"
	if exitCode(err) != run.ExitBadInput || !strings.Contains(errText(err), want) {
		t.Errorf("sweep into a foreign directory: %v\n%s\nwant exit 2 and %s", err, out, want)
	}
	if b, _ := os.ReadFile(theirs); string(b) != "mine,not schedsim's\n" {
		t.Errorf("summary.csv was changed: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the sweep wrote into the directory: %d entries", len(entries))
	}
	other := filepath.Join(t.TempDir(), "experiment.yaml")
	os.WriteFile(other, []byte("seed: 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "experiment.yaml"), []byte("seed: 1\n"), 0o644)
	_, err = execute(t, "sweep", spec, "--out", dir, "--quiet")
	if exitCode(err) != run.ExitBadInput || !strings.Contains(errText(err), "holds another experiment than") {
		t.Errorf("sweep into another experiment's directory: %v", err)
	}
	// deploy/slurm/submit.sh writes its state before the array's tasks
	// start: a sweep goes on there.
	slurmDir := t.TempDir()
	os.WriteFile(filepath.Join(slurmDir, "slurm.env"), []byte("experiment=x\n"), 0o644)
	if out, err := execute(t, "sweep", spec, "--out", slurmDir, "--quiet", "--shard", "0/8"); err != nil {
		t.Errorf("sweep into a directory holding slurm.env: %v\n%s", err, out)
	}
}

// A sweep's run directory is reproducible from its run.yaml, as a
// replay's is: every table byte for byte.
func TestSweepRunYAMLReproduces(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	if _, err := execute(t, "sweep", "../../testdata/experiments/kth-lattice.yaml", "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	runs, _ := filepath.Glob(filepath.Join(out, "runs", "*"))
	if len(runs) == 0 {
		t.Fatal("no run directories")
	}
	for _, dir := range []string{runs[0], runs[len(runs)-1]} {
		again := filepath.Join(t.TempDir(), "again")
		if _, err := execute(t, "replay", "--config", filepath.Join(dir, "run.yaml"), "--out", again, "--quiet"); err != nil {
			t.Fatal(err)
		}
		// run.yaml's paths are relative to each run's directory: compare
		// the specs they resolve to.
		if err := runcmp.SameRun(dir, again, "run.yaml"); err != nil {
			t.Error(err)
		}
		a, errA := run.Load(filepath.Join(dir, "run.yaml"))
		b, errB := run.Load(filepath.Join(again, "run.yaml"))
		if errA != nil || errB != nil || !reflect.DeepEqual(a.TraceSpec, b.TraceSpec) || !reflect.DeepEqual(a.QueueSpec, b.QueueSpec) ||
			!reflect.DeepEqual(a.EngineSpec, b.EngineSpec) {
			t.Errorf("the specs differ: %v %v\n%+v\n%+v", errA, errB, a, b)
		}
	}
}

// With replicas, the printed results give each metric's t-interval over
// the seeds, and the target's count of replicas that meet it.
func TestSweepPrintsResultsWithIntervals(t *testing.T) {
	out, err := execute(t, "sweep", "../../testdata/walkthrough/today-1.3x.yaml", "--out", t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"  group                           runs  mean_wait_s (95% CI)     p95_wait_s (95% CI)      mean_bsld (95% CI)    utilization (95% CI)     meets p95_wait_s <= 3600\n",
		"  kth__sp2__sjf__none__first-fit     5  12.3 h [10.3 h, 14.2 h]  52.6 h [42.4 h, 62.9 h]  470.6 [324.1, 617.0]  72.3 % [70.6 %, 74.0 %]                    0 of 5\n",
		"best on p95_wait_s (lower is better): kth__sp2__sjf__none__first-fit, the only group\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
