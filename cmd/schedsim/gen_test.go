package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/native"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// TestGenSameSeedSameBytes: every model and encoding gives the same bytes
// for the same seed, and other bytes for another seed.
func TestGenSameSeedSameBytes(t *testing.T) {
	dir := t.TempDir()
	for _, model := range []string{"lublin", "poisson", "google"} {
		for _, ext := range []string{"jsonl", "csv", "jsonl.gz", "parquet"} {
			read := func(name, seed string) []byte {
				path := filepath.Join(dir, name+"."+ext)
				if _, err := execute(t, "gen", "--model", model, "--jobs", "500", "--seed", seed, "--out", path, "--quiet"); err != nil {
					t.Fatalf("%s %s: %v", model, ext, err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
			a, b, c := read("a", "7"), read("b", "7"), read("c", "8")
			if !bytes.Equal(a, b) {
				t.Errorf("%s .%s: seed 7 twice gave different bytes", model, ext)
			}
			if bytes.Equal(a, c) {
				t.Errorf("%s .%s: seeds 7 and 8 gave the same bytes", model, ext)
			}
		}
	}
}

// TestGenReadsBackAndReplays: the trace reads back with the native reader
// (strict) with every job, the cluster file loads, and the pair replays.
func TestGenReadsBackAndReplays(t *testing.T) {
	dir := t.TempDir()
	trace, cluster := filepath.Join(dir, "g.csv"), filepath.Join(dir, "g.yaml")
	stdout, err := execute(t, "gen", "--model", "google", "--jobs", "300", "--nodes", "50", "--out", trace, "--cluster-out", cluster)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote 300 jobs (model google, seed 1, for 50 nodes) to " + trace, "wrote the cluster (google2011-like-50) to " + cluster} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The same seed as Parquet: the same jobs read back, and the cluster
	// in its metadata.
	pq := filepath.Join(dir, "g.parquet")
	if _, err := execute(t, "gen", "--model", "google", "--jobs", "300", "--nodes", "50", "--out", pq, "--quiet"); err != nil {
		t.Fatal(err)
	}
	fromCSV, fromParquet := readNative(t, trace), readNative(t, pq)
	if len(fromCSV) != 300 {
		t.Errorf("read back %d jobs, want 300", len(fromCSV))
	}
	if !reflect.DeepEqual(fromCSV, fromParquet) {
		t.Error("the CSV and Parquet traces of one seed read back differently")
	}
	specs, err := clusterconfig.Load(cluster)
	if err != nil || len(specs) != 50 {
		t.Fatalf("cluster: %d nodes, %v; want 50", len(specs), err)
	}
	out := filepath.Join(dir, "run")
	stdout, err = execute(t, "replay", "--trace", trace, "--cluster", cluster, "--placement", "least-allocated",
		"--candidate-limit", "auto", "--check", "--format", "csv", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "jobs                   300 (completed 300") {
		t.Errorf("replay summary:\n%s", stdout)
	}
}

// TestGenBadInput: usage errors are exit status 2, name the flag, and
// leave no file behind.
func TestGenBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "nope", "--out", out}, `unknown model "nope"`},
		{[]string{"--out", filepath.Join(dir, "t.txt")}, "want a .parquet, .jsonl, .ndjson or .csv file"},
		{[]string{}, "--out FILE is required"},
		{[]string{"--jobs", "0", "--out", out}, "jobs: must be ≥ 1"},
		{[]string{"--model", "lublin", "--nodes", "8", "--out", out}, "nodes: must be in [32, 1000000], got 8"},
		{[]string{"--model", "lublin", "--sizes", "1:1", "--out", out}, "--sizes: only the poisson model takes it"},
		{[]string{"--model", "poisson", "--sizes", "1:1,x", "--out", out}, `--sizes: want SIZE:WEIGHT items`},
		{[]string{"--model", "poisson", "--runtime-sigma", "-1", "--out", out}, "runtime sigma: must be in [0, 10]"},
	} {
		_, err := execute(t, append([]string{"gen"}, c.args...)...)
		if exitCode(err) != run.ExitBadInput || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gen %v: got %v (exit %d), want exit 2 with %q", c.args, err, exitCode(err), c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad input left files: %v", entries)
	}
}

// readNative reads every job of a native trace, strictly.
func readNative(t *testing.T, path string) []*sim.Job {
	t.Helper()
	r, err := native.Open(path, traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return tracetest.All(t, r)
}
