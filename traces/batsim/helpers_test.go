package batsim

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

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
	tracetest.Golden(t, filepath.Join(testdata, "golden", name), got)
}
