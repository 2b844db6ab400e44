package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A replay runs under an address-space limit (ulimit -v, which batch
// systems set): Starlark's 4 GiB reservation at start made the binary
// need some 5.9 GB of address space before doing anything, so a replay
// under ulimit -v 6000000 failed. Under 3 GB it now runs, a script
// included, and Starlark's note about the reservation stays off the
// terminal.
func TestReplayUnderAddressSpaceLimit(t *testing.T) {
	bin := buildSchedsim(t)
	out := filepath.Join(t.TempDir(), "run")
	script := filepath.Join("..", "..", "testdata", "scripts", "most_free_memory.star")
	c := exec.Command("bash", "-c", `ulimit -v 3000000 && exec "$@"`, "bash", bin, "replay",
		filepath.Join("..", "..", "testdata", "native", "placement.jsonl"),
		"--cluster", filepath.Join("..", "..", "testdata", "clusters", "racks.yaml"),
		"--script", script, "--out", out, "--quiet")
	b, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("replay under ulimit -v 3000000: %v\n%s", err, b)
	}
	if strings.Contains(string(b), "Starlark") {
		t.Errorf("Starlark's reservation note reached the terminal:\n%s", b)
	}
}
