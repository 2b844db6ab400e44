package main

import (
	"os"
	"runtime"
	"testing"
)

// TestCoresForWorkers checks that --workers N keeps a sweep on N cores,
// and that a GOMAXPROCS the user set wins.
func TestCoresForWorkers(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	runtime.GOMAXPROCS(4)
	t.Setenv("GOMAXPROCS", "")
	os.Unsetenv("GOMAXPROCS")

	coresForWorkers(8) // more workers than cores: the cores stay
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("8 workers on 4 cores: GOMAXPROCS %d, want 4", got)
	}
	coresForWorkers(2)
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("2 workers on 4 cores: GOMAXPROCS %d, want 2", got)
	}

	runtime.GOMAXPROCS(4)
	restore := runtimeForManyRuns(1)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("1 worker on 4 cores: GOMAXPROCS %d, want 1", got)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("after the command: GOMAXPROCS %d, want 4 back", got)
	}

	t.Setenv("GOMAXPROCS", "4")
	coresForWorkers(1)
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("GOMAXPROCS=4 set, 1 worker: GOMAXPROCS %d, want the user's 4", got)
	}
}
