package batsim

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/batsim/golden")

// testdata is the repository's own copy of small Batsim inputs.
var testdata = filepath.Join("..", "..", "testdata", "batsim")

// sharedDir returns ../shared/traces/batsim, skipping the test when absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "traces", "batsim")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared traces not available: %v", err)
	}
	return dir
}

// readAll drains a reader.
func readAll(t testing.TB, r *WorkloadReader) []*sim.Job {
	t.Helper()
	var jobs []*sim.Job
	for {
		j, err := r.Next()
		if err == io.EOF {
			return jobs
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		jobs = append(jobs, j)
	}
}

// parseErr asserts err is a *traces.ParseError and returns it.
func parseErr(t testing.TB, err error) *traces.ParseError {
	t.Helper()
	var pe *traces.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *traces.ParseError", err, err)
	}
	return pe
}

// formatJob prints a job on one line for golden files.
func formatJob(j *sim.Job) string {
	wall := "none"
	if j.Walltime != sim.NoWalltime {
		wall = sim.FormatSeconds(j.Walltime)
	}
	var req []string
	for _, q := range j.Request {
		req = append(req, q.Resource+":"+q.Amount.String())
	}
	return fmt.Sprintf("id=%s submit=%s runtime=%s walltime=%s tasks=%d request=%s gang=%t",
		j.ID, sim.FormatSeconds(j.Submit), sim.FormatSeconds(j.Runtime), wall, j.Tasks, strings.Join(req, ","), j.Gang)
}

// formatNode prints a node on one line for golden files, attributes sorted.
func formatNode(n sim.NodeSpec) string {
	var capa []string
	for _, q := range n.Capacity {
		capa = append(capa, q.Resource+":"+q.Amount.String())
	}
	keys := make([]string, 0, len(n.Attributes))
	for k := range n.Attributes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var attrs []string
	for _, k := range keys {
		attrs = append(attrs, k+"="+n.Attributes[k])
	}
	return fmt.Sprintf("%s capacity=%s idle_w=%.3f max_w=%.3f power_res=%s attrs=%s",
		n.Name, strings.Join(capa, ","), n.Power.IdleW, n.Power.MaxW, n.Power.Resource, strings.Join(attrs, ";"))
}

// golden compares got with testdata/batsim/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := 0; i < len(wl) || i < len(gl); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Fatalf("%s differs at line %d:\nwant %q\ngot  %q\n(run with -update if the change is intended)", path, i+1, w, g)
			}
		}
	}
}
