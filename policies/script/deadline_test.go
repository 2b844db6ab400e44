package script

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
)

// The inputs of the issue that the step budget let run for hours: one
// step of s.count() over a 48 MiB string, or of x in a 2-million list,
// takes milliseconds. With the step budget out of the way, the time budget
// stops such a call (the loop never ends, so the outcome does not depend
// on the machine's speed), and the next call starts afresh.
func TestTimeBudget(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	for entry, src := range map[string]string{
		"score":              "def score(task, node):\n    s = 'x' * (48 << 20)\n    n = 0\n    while True:\n        n += s.count('y')\n",
		"filter":             "def filter(task, node):\n    xs = list(range(2000000))\n    while True:\n        if -1 in xs:\n            return True\n",
		"instance_placement": "def instance_placement(request, candidate_members):\n    while True:\n        pass\n",
	} {
		s := compile(t, src, Config{StepBudget: 1 << 62, MemoryBudgetMiB: 256, TimeBudgetMS: 20})
		got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
		wantReject(t, got, reason, "script: time budget exceeded ("+entry+" ran past 20ms; time_budget_ms)")
	}
	// The thread's cancellation is undone for the next call.
	s := compile(t, "def instance_placement(request, candidate_members):\n    if len(candidate_members) == 0:\n        while True:\n            pass\n    return None\n",
		Config{StepBudget: 1 << 62, TimeBudgetMS: 20})
	if _, err := s.call(s.placement, starlark.None, starlark.NewList(nil)); err == nil || !err.Time {
		t.Fatalf("the looping call: %v", err)
	}
	if _, err := s.call(s.placement, starlark.None, starlark.NewList([]starlark.Value{starlark.None})); err != nil {
		t.Errorf("the call after a time-out: %v", err)
	}
	// At load, too.
	_, err := Compile("test.star", []byte("while True:\n    pass\ndef score(task, node):\n    return 1\n"), Config{StepBudget: 1 << 62, TimeBudgetMS: 20})
	if err == nil || !strings.Contains(err.Error(), "time budget exceeded (the top level ran past 20ms; time_budget_ms)") {
		t.Errorf("load: %v", err)
	}
}

// Interrupt (the replay's SIGINT and SIGTERM) cancels a running call at
// once, without waiting for its time budget, and every later call.
func TestInterruptCancelsTheCall(t *testing.T) {
	s := compile(t, "def instance_placement(request, candidate_members):\n    while True:\n        pass\n",
		Config{StepBudget: 1 << 62, TimeBudgetMS: MaxTimeBudgetMS})
	s.log.limit = 1 << 20
	done := make(chan *Error)
	go func() {
		_, err := s.call(s.placement, starlark.None, starlark.NewList(nil))
		done <- err
	}()
	// Wait for the call to run (its steps are the interpreter's to read).
	for {
		s.watch.mu.Lock()
		running := s.watch.running
		s.watch.mu.Unlock()
		if running {
			break
		}
	}
	s.Interrupt()
	err := <-done
	if err == nil || !err.Interrupted || err.Error() != "script: instance_placement interrupted (SIGINT or SIGTERM)" {
		t.Errorf("interrupted call: %v", err)
	}
	if _, err := s.call(s.placement, starlark.None, starlark.NewList(nil)); err == nil || !err.Interrupted {
		t.Errorf("a call after the interrupt: %v", err)
	}
}

// log_info in a loop wrote a 417 MB script.log: the log stops at
// log_max_mib, counting what it drops, and says so in its last line.
func TestLogCapped(t *testing.T) {
	s := compile(t, "def instance_placement(request, candidate_members):\n    for i in range(20000):\n        log_info('x' * 100)\n",
		Config{LogMaxMiB: 1})
	if _, err := s.call(s.placement, starlark.None, starlark.NewList(nil)); err != nil {
		t.Fatal(err)
	}
	var size int
	for _, e := range s.Log() {
		size += len(e.String()) + 1
	}
	if size > 1<<20 || size < 1<<20-200 {
		t.Errorf("log of %d bytes, want just under 1 MiB", size)
	}
	kept := len(s.Log())
	if s.Dropped() != 20000-kept {
		t.Errorf("%d kept, %d dropped, want 20000 in all", kept, s.Dropped())
	}
	want := "(log cut at log_max_mib: 1 MiB; " + itoa(20000-kept) + " more messages dropped)"
	if got := s.DroppedNote(); got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
}

func itoa(n int) string { return strings.TrimSpace(starlark.MakeInt(n).String()) }

// Work that grows with its input counts against the step budget: x in a
// list of 600,000 goes through 600,000 elements in one interpreter step
// (and list() built them), s.count() over 48 MiB through 786,432 steps'
// worth of bytes, max() and min() through the list's elements. Each pair
// passes a 1,000,000 step budget only if the second operation is not
// charged; the same operations on small inputs cost a few steps.
func TestLinearWorkChargesSteps(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"xs = list(range(600000))\n    return -1 in xs", "step budget exceeded"},
		{"xs = list(range(600000))\n    return -1 not in xs", "step budget exceeded"},
		{"s = 'x' * (48 << 20)\n    return [s.count('y') for i in range(2)]", "step budget exceeded"},
		{"xs = list(range(600000))\n    return max(xs) + min(xs)", "step budget exceeded"},
		{"xs = list(range(100))\n    return [-1 in xs, 'x'.count('x'), max(xs), 'ab'.find('b')]", ""},
	} {
		src := "def instance_placement(request, candidate_members):\n    " + tc.body + "\n"
		s := compile(t, src, Config{StepBudget: 1_000_000, MemoryBudgetMiB: 256, TimeBudgetMS: MaxTimeBudgetMS})
		_, err := s.call(s.placement, starlark.None, starlark.NewList(nil))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.body, err)
		case tc.want != "" && (err == nil || !err.Budget):
			t.Errorf("%q: %v, want the step budget", tc.body, err)
		}
	}
}
