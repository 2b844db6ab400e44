package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/multifactor"
)

// smallTrace is 2,000 jobs of KTH-SP2, quick to replay.
const smallTrace = "../../testdata/experiments/kth-sp2-2000.swf.gz"

func replayInto(t *testing.T, c Spec, out string, opt Options) error {
	t.Helper()
	c.Out, c.Quiet = out, true
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err := Replay(context.Background(), &c, opt)
	return err
}

// A run's run.yaml is its spec: replaying it writes the same tables, the
// same summary (wall-clock columns aside) and the same spec.
func TestRunYAMLReproduces(t *testing.T) {
	for _, set := range []func(c *Spec){
		func(c *Spec) { c.Backfill = "conservative"; c.SWFModel = "nodes" },
		func(c *Spec) { c.Queue, c.Backfill, c.Format = "sjf", "none", "csv" },
		func(c *Spec) {
			c.Queue = "lattice"
			l := ArgsOf[lattice.Args](c, "lattice")
			l.Tenants, l.TenantBuckets = "user", 4
			l.Shares = map[string]float64{"t0": 1, "t1": 2, "t2": 3, "t3": 4}
		},
		func(c *Spec) {
			c.Queue = "multifactor"
			m := ArgsOf[multifactor.Config](c, "multifactor")
			m.Weights.Age, m.Weights.JobSize = 1000, 500
		},
	} {
		tmp := t.TempDir()
		c := Default()
		c.Trace = smallTrace
		set(&c)
		first := filepath.Join(tmp, "first")
		if err := replayInto(t, c, first, Options{}); err != nil {
			t.Fatal(err)
		}
		again, err := Load(filepath.Join(first, "run.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		second := filepath.Join(tmp, "second")
		if err := replayInto(t, again, second, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := runcmp.SameRun(first, second); err != nil {
			t.Errorf("queue %s backfill %s: %v", c.Queue, c.Backfill, err)
		}
	}
}

// Spec files are decoded strictly: an unknown key names file, line and
// the nearest key; a value of the wrong type is worded without Go's type
// names; Validate names file:line for values from the file and the flag
// otherwise, every problem at once.
func TestSpecErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "spec.yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct{ text, want string }{
		{"queue: fcfs\nbakfill: easy\n", `spec.yaml:2: unknown key "bakfill" (did you mean "backfill"?)`},
		{"mtbf_s: often\n", `spec.yaml:1: mtbf_s: want a number, got "often"`},
		{"lattice:\n  tenant: user\n", `spec.yaml:2: unknown key "lattice.tenant" (did you mean "lattice.tenants"?)`},
		{"seed: -3\n", `spec.yaml:1: seed: want a whole number ≥ 0, got "-3"`},
	}
	for _, c := range cases {
		_, err := Load(write(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.text, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "float64") || strings.Contains(err.Error(), "run.Spec")) {
			t.Errorf("%q: Go type names in %v", c.text, err)
		}
	}
	spec, err := Load(write("queue: fifo\nbackfill: easy\nmax_restarts: -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec.TauS = -1 // as if from the flag
	err = spec.Validate()
	for _, want := range []string{"spec.yaml:1: queue: unknown queue order \"fifo\"", "spec.yaml:3: max_restarts: want ≥ 0", "--bsld-tau: must be ≥ 0"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: got %v, want %s", err, want)
		}
	}
}

// --out naming an earlier run is refused unless Overwrite, which replaces
// the run whole (no file of the old run survives); a directory of other
// files is never taken; a default name never replaces a run.
func TestRunDirectories(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run")
	c := Default()
	c.Trace = smallTrace
	c.Format = "parquet"
	if err := replayInto(t, c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	c.Format = "csv"
	err := replayInto(t, c, out, Options{})
	if ExitCode(err) != ExitBadInput || !strings.Contains(err.Error(), "--overwrite") {
		t.Fatalf("a second run into %s: got %v, want a refusal naming --overwrite", out, err)
	}
	if err := replayInto(t, c, out, Options{Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".parquet") {
			t.Errorf("%s survived the overwrite", e.Name())
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(tmp, ".run*"))
	if len(leftovers) > 0 {
		t.Errorf("staging left behind: %v", leftovers)
	}
	other := filepath.Join(tmp, "notes")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "todo.txt"), []byte("x"), 0o644)
	if err := replayInto(t, c, other, Options{Overwrite: true}); ExitCode(err) != ExitBadInput {
		t.Errorf("a directory of other files: got %v, want a refusal", err)
	}
	// Default names: runs/<trace>-…, then -2.
	wd, _ := os.Getwd()
	abs, _ := filepath.Abs(smallTrace)
	os.Chdir(tmp)
	defer os.Chdir(wd)
	c.Trace = abs
	for range 2 {
		if err := replayInto(t, c, "", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(tmp, "runs", "*"))
	if len(runs) != 2 || !strings.HasSuffix(runs[1], "-2") {
		t.Errorf("default run directories: %v", runs)
	}
}

// An interrupted run leaves no run directory and no staging.
func TestInterruptedRunLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	c := Default()
	c.Trace, c.Out, c.Quiet = smallTrace, filepath.Join(tmp, "run"), true
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Replay(ctx, &c, Options{}); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// A run whose jobs were rejected says so on stderr, and --fail-on turns
// it into exit 1.
func TestFailOn(t *testing.T) {
	tmp := t.TempDir()
	cluster := filepath.Join(tmp, "tiny.yaml")
	os.WriteFile(cluster, []byte("node_groups:\n  - {prefix: n, count: 1, resources: {cpu: 4}}\n"), 0o644)
	c := Default()
	c.Trace, c.Cluster = smallTrace, cluster
	var stderr strings.Builder
	if err := replayInto(t, c, filepath.Join(tmp, "a"), Options{Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "rejected") {
		t.Errorf("stderr does not report the rejections: %q", stderr.String())
	}
	c.FailOn = []string{"rejected"}
	err := replayInto(t, c, filepath.Join(tmp, "b"), Options{})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != ExitFailed || !strings.Contains(err.Error(), "rejected") {
		t.Errorf("--fail-on rejected: got %v, want exit 1", err)
	}
	if !IsRunDir(filepath.Join(tmp, "b")) {
		t.Error("--fail-on must still write the run")
	}
	c.FailOn = []string{"killed"}
	if err := replayInto(t, c, filepath.Join(tmp, "c"), Options{}); err != nil {
		t.Errorf("--fail-on killed with no killed job: %v", err)
	}
	c.FailOn = []string{"everything"}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--fail-on: unknown kind") {
		t.Errorf("--fail-on everything: %v", err)
	}
}
