package main

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// TestBenchWorkersRefused: a worker count below one is bad input naming
// the flag, before any child runs.
func TestBenchWorkersRefused(t *testing.T) {
	_, err := execute(t, "bench", "--workers", "0", "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz")
	if exitCode(err) != run.ExitBadInput || err == nil || !strings.Contains(err.Error(), "--workers 0") {
		t.Fatalf("err %v (exit %d), want bad input naming --workers", err, exitCode(err))
	}
}
