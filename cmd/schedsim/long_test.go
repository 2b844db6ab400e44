package main

import (
	"os"
	"testing"
)

// longEnv switches on the long tests: whole real logs replayed under every
// backfill and model, nine-profile lattice replays, sharded and Slurm
// sweeps. Plain `go test ./...` skips them to stay within a few minutes on
// two cores; CI runs them with SCHEDSIM_LONG=1 go test ./cmd/schedsim.
const longEnv = "SCHEDSIM_LONG"

// long says whether the long tests are switched on.
func long() bool {
	v := os.Getenv(longEnv)
	return v != "" && v != "0"
}

// needLong skips t unless the long tests are switched on, saying how to
// run it.
func needLong(t *testing.T) {
	t.Helper()
	if !long() {
		t.Skipf("long test: run it with %s=1 go test ./cmd/schedsim", longEnv)
	}
}
