package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// hostile runs schedsim with args and requires the exit code, a message
// containing want, and at most maxMiB allocated by the command.
func hostile(t *testing.T, code int, want string, maxMiB uint64, args ...string) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := execute(t, args...)
	runtime.ReadMemStats(&after)
	if got := exitCode(err); got != code || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: exit %d (%v), want %d and %q", strings.Join(args, " "), got, err, code, want)
	}
	if grew := (after.TotalAlloc - before.TotalAlloc) >> 20; grew > maxMiB {
		t.Errorf("%s: %d MiB allocated, want at most %d", strings.Join(args, " "), grew, maxMiB)
	}
}

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every path that makes nodes shares the cluster file's cap: a factor of
// 10^9 asked for 640 GB, --add-nodes of 10^9 nodes for 160 GB.
func TestNodeCapSideDoors(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.jsonl", `{"id": "a", "submit_s": 0, "runtime_s": 10, "request": {"cpu": 1}}`+"\n")
	cluster := writeFile(t, dir, "c.yaml", "name: c\nnode_groups:\n  - {prefix: node, count: 2, resources: {cpu: 4}}\n")
	base := []string{"replay", trace, "--cluster", cluster, "--quiet", "--out", filepath.Join(dir, "run")}
	hostile(t, run.ExitBadInput, "--cluster-factor: cluster factor 1000000000 would make about 2000000000 nodes of 2, more than 1000000", 64,
		append(base, "--cluster-factor", "1e9")...)
	hostile(t, run.ExitBadInput, `--add-nodes: want a COUNT of at most 1000000 nodes, got "1000000000:node0"`, 64,
		append(base, "--add-nodes", "1000000000:node0")...)
	hostile(t, run.ExitBadInput, "--add-nodes: add nodes: 2 nodes and 999999 more are more than 1000000", 64,
		append(base, "--add-nodes", "999999:node0")...)
}

// What-if transforms that overflow or make a runtime 0 are refused,
// naming the flag and the first job: --runtime-factor 5e7 gave runtimes
// of −9.22e12 s, --jitter-runtime 1e300 made every runtime 0.
func TestTransformsThatBreakTimes(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.jsonl", `{"id": "short", "submit_s": 0, "runtime_s": 0.5, "request": {"cpu": 1}}`+"\n"+
		`{"id": "long", "submit_s": 1, "runtime_s": 200000, "request": {"cpu": 1}}`+"\n")
	cluster := writeFile(t, dir, "c.yaml", "name: c\nnode_groups:\n  - {prefix: node, count: 2, resources: {cpu: 4}}\n")
	base := []string{"replay", trace, "--cluster", cluster, "--quiet", "--out", filepath.Join(dir, "run")}
	hostile(t, run.ExitBadInput, "--runtime-factor: job long: the runtime of 200000 s becomes more than 1e12 s", 64,
		append(base, "--runtime-factor", "5e7")...)
	hostile(t, run.ExitBadInput, "--jitter-runtime: job short: the runtime of 0.5 s becomes 0 s", 64,
		append(base, "--jitter-runtime", "1e300")...)
	hostile(t, run.ExitBadInput, "--runtime-factor: job short: the runtime of 0.5 s becomes 0 s", 64,
		append(base, "--runtime-factor", "1e-300")...)
}

// A sweep larger than --max-runs is refused before anything is planned:
// seeds: 1000000 died out of memory after 46 s, a 1000×1000 grid was
// still planning after 150 s at 2.2 GB.
func TestSweepBounds(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.jsonl", `{"id": "a", "submit_s": 0, "runtime_s": 10, "request": {"cpu": 1}}`+"\n")
	seeds := writeFile(t, dir, "seeds.yaml", "seed: 1\nseeds: 1000000\ntraces: [{path: "+trace+"}]\n")
	grid := writeFile(t, dir, "grid.yaml", "seed: 1\ntraces: [{path: "+trace+"}]\npolicies: {queue: [lattice]}\n"+
		"parameters:\n  ranges:\n    - {name: w_fair_share, min: 0, max: 1, steps: 1000}\n    - {name: w_wait_time, min: 0, max: 1, steps: 1000}\n")
	out := filepath.Join(dir, "sweep")
	hostile(t, run.ExitBadInput, "seeds.yaml: the experiment has 1000000 runs (1 traces × 1 clusters × policies and profiles × 1 parameter points × 1000000 seeds), more than the limit of 100000; --max-runs raises it", 16,
		"sweep", seeds, "--quiet", "--out", out)
	hostile(t, run.ExitBadInput, "grid.yaml: the experiment has 1000000 runs", 16, "sweep", grid, "--quiet", "--out", out)
	hostile(t, run.ExitBadInput, "the experiment has 1000000 runs (1 traces × 1 clusters × policies and profiles × 1 parameter points × 1000000 seeds), more than the limit of 999999", 16,
		"sweep", seeds, "--quiet", "--out", out, "--max-runs", "999999")
}

// A CSV line over the 16 MiB cap is bad input (exit 2), for replay and
// convert alike; it was exit 1, a failure of the machine.
func TestCSVLineTooLongIsBadInput(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.csv", "id,submit_s,runtime_s,user\na,0,10,"+strings.Repeat("u", 17<<20)+"\n")
	cluster := writeFile(t, dir, "c.yaml", "name: c\nnode_groups:\n  - {prefix: node, count: 2, resources: {cpu: 4}}\n")
	want := "record too long: the CSV row starting at byte 27 is longer than 16777216 bytes"
	hostile(t, run.ExitBadInput, want, 200, "replay", trace, "--cluster", cluster, "--quiet", "--out", filepath.Join(dir, "run"))
	hostile(t, run.ExitBadInput, want, 200, "convert", trace, "--to", filepath.Join(dir, "t.jsonl"), "--quiet")
}

// An MTBF below the clock's resolution is bad input, not a failed run.
func TestTinyMTBFIsBadInput(t *testing.T) {
	hostile(t, run.ExitBadInput, "--mtbf: want at least 0.000001 s (the clock's resolution), got 1e-300", 64,
		"replay", "../../testdata/experiments/kth-sp2-2000.swf.gz", "--mtbf", "1e-300", "--mttr", "10", "--quiet", "--out", filepath.Join(t.TempDir(), "run"))
}

// A negative request or capacity is a shortcoming only as pylighthouse
// defines it; anywhere else it is refused, strict or not: a job of cpu
// −64 let six 16-cpu jobs run at once on 64 cpus (utilization −85 %),
// and a node of cpu −16 lost its cpu silently.
func TestNegativeAmounts(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "t.jsonl", `{"id": "a", "submit_s": 0, "runtime_s": 10, "request": {"cpu": 16}}`+"\n"+
		`{"id": "neg", "submit_s": 1, "runtime_s": 10, "request": {"cpu": -64}}`+"\n")
	cluster := writeFile(t, dir, "c.yaml", "name: c\nnodes:\n  - {name: n0, resources: {cpu: 64}}\n")
	out := filepath.Join(dir, "run")
	for _, strict := range []bool{false, true} {
		args := []string{"replay", trace, "--cluster", cluster, "--quiet", "--out", out}
		if strict {
			args = append(args, "--strict")
		}
		hostile(t, run.ExitBadInput, "t.jsonl:2: field request: job neg requests cpu: -64, a negative amount, but no node has a shortcoming or ward of cpu", 64, args...)
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("strict %v: %s exists after the refusal (%v)", strict, out, err)
		}
	}
	mixed := writeFile(t, dir, "mixed.yaml", "name: c\nnodes:\n  - {name: n0, resources: {cpu: 64}}\n  - {name: n1, resources: {cpu: -16}}\n")
	hostile(t, run.ExitBadInput, "mixed.yaml:4: nodes[1].resources.cpu: -16 is negative, but nodes[0] has cpu to offer", 64,
		"replay", trace, "--cluster", mixed, "--quiet", "--out", out)
	// The seeds' shortcoming: node m is short of mud, job p cancels it.
	short := writeFile(t, dir, "short.yaml", "name: c\nnodes:\n  - {name: m, resources: {cpu: 8, mud: -5}}\n")
	ok := writeFile(t, dir, "ok.jsonl", `{"id": "p", "submit_s": 0, "runtime_s": 10, "request": {"cpu": 2, "mud": -5}}`+"\n")
	if _, err := execute(t, "replay", ok, "--cluster", short, "--quiet", "--out", out); err != nil {
		t.Errorf("a shortcoming cancelled: %v", err)
	}
}
