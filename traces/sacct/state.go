package sacct

import (
	"errors"
	"strings"
)

// Why a record yields no job though nothing is wrong with it. Each is
// counted in the reader's Skips, in strict mode too.
var (
	errStep            = errors.New("job step, not an allocation (dump with sacct --allocations)")
	errPending         = errors.New("pending at dump time: never started")
	errCancelledBefore = errors.New("cancelled before it started")
	errNeverStarted    = errors.New("never started: no Start and nothing allocated")
	errNoRuntime       = errors.New("running at dump time without End or Elapsed: runtime unknown")
	errRevoked         = errors.New("revoked: a sibling cluster of the federation ran it")
	errState           = errors.New("not a Slurm job state (COMPLETED, CANCELLED, FAILED, TIMEOUT, …)")
)

// states are the job states sacct prints (sacct(1), JOB STATE CODES).
var states = map[string]bool{
	"BOOT_FAIL": true, "CANCELLED": true, "COMPLETED": true, "DEADLINE": true,
	"FAILED": true, "NODE_FAIL": true, "OUT_OF_MEMORY": true, "PENDING": true,
	"PREEMPTED": true, "RUNNING": true, "REQUEUED": true, "RESIZING": true,
	"REVOKED": true, "SUSPENDED": true, "TIMEOUT": true,
}

// parseState reads a State field: a state name, for CANCELLED followed by
// "by UID" (who cancelled it), or cut short with a '+' when the field was
// too narrow. An empty field is an unknown state, "".
func parseState(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	name, _, _ := strings.Cut(s, " ")
	name = strings.TrimSuffix(name, "+")
	if !states[name] {
		return "", errState
	}
	return name, nil
}
