package script

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/placement"
)

// allocated is how many bytes the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// decideOnce runs instance_placement of src once over a small cluster.
func decideOnce(t *testing.T, src string, cfg Config) placement.Decision {
	t.Helper()
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	d := &Decider{s: compile(t, src, cfg)}
	return d.Decide(l, task(t, c, job("greedy", 1, 1), "new"), append([]int32(nil), l.Leaves()...), nil)
}

// A string doubled forty times would be a TiB: the call is refused once
// its budget is spent, the job rejected with a message that says so and
// where, and the process allocates far less than the 200 MB it may.
func TestStringDoublingIsRefused(t *testing.T) {
	src := `
def instance_placement(request, candidate_members):
    s = "x"
    for i in range(40):
        s = s + s
    return "built %d bytes" % len(s)
`
	before := allocated()
	dec := decideOnce(t, src, Config{})
	grown := allocated() - before
	if grown > 200<<20 {
		t.Errorf("allocated %d MB, want < 200", grown>>20)
	}
	if dec.Index >= 0 || !strings.Contains(dec.Reject, "script: error at test.star:5: memory budget exceeded: string + string would allocate about 64.0 MiB") {
		t.Errorf("decision %+v", dec)
	}
	// Under on_error: stop the same failure is the run's error.
	dec = decideOnce(t, src, Config{OnError: Stop})
	var e *Error
	if !errors.As(dec.Err, &e) || !e.Memory || e.Pos != "test.star:5" {
		t.Errorf("stop: %+v (%v)", dec, dec.Err)
	}
}

// A top-level value too large for the budget is a load error naming the
// line, before anything is allocated.
func TestTopLevelAllocationIsRefusedAtLoad(t *testing.T) {
	before := allocated()
	_, err := Compile("big.star", []byte("x = [0] * 100000000\ndef score(task, node):\n    return 1\n"), Config{})
	if grown := allocated() - before; grown > 50<<20 {
		t.Errorf("allocated %d MB", grown>>20)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "big.star:1: memory budget exceeded: list * int would allocate about 1.5 GiB") {
		t.Errorf("err = %v", err)
	}
}

// Every operation that can grow a value in one step is charged: each
// script below would allocate gigabytes, and each fails within a 4 MiB
// budget (with the operation in the message) while allocating little.
func TestGrowingOperationsAreCharged(t *testing.T) {
	const mb = "s = 'x' * 1000000\n" // 1 MB: within the budget
	for _, tc := range []struct{ name, body, want string }{
		{"repeat", "s = 'x' * 4000000000", "string * int"},
		{"repeat reversed", "s = 3000000000 * 'x'", "int * string"},
		{"list repeat", "l = [1, 2] * 1000000000", "list * int"},
		{"tuple concat", "t = (1,) * 200000\nfor i in range(20):\n    t = t + t", "tuple + tuple"},
		{"augmented string", "s = 'x'\nfor i in range(40):\n    s += s", "string + string"},
		{"augmented repeat", "l = [0]\nl *= 1000000000", "list * int"},
		{"augmented index", "d = {'k': 'x'}\nfor i in range(40):\n    d['k'] += d['k']", "string + string"},
		{"list extend by range", "l = []\nl += range(1000000000)", "list + range"},
		{"big int squaring", "x = 3\nfor i in range(40):\n    x = x * x", "int * int"},
		{"join", mb + "l = [s] * 10000\nj = ''.join(l)", "string.join()"},
		{"str of shared list", mb + "l = [s] * 10000\nj = str(l)", "str()"},
		{"repr", mb + "l = [s] * 10000\nj = repr(l)", "repr()"},
		{"percent format", mb + "l = [s] * 10000\nj = '%s' % (l,)", "string % tuple"},
		{"format method", mb + "j = '{}{}{}{}{}'.format(s)", "string.format()"},
		{"replace", mb + "j = s.replace('x', s)", "string.replace()"},
		{"split", "l = 'x ' * 1000000\np = l.split()", "string.split()"},
		{"rsplit reserving maxsplit pieces", "p = 'a b'.rsplit(None, 4000000000)", "string.rsplit()"},
		{"rsplit reserving maxsplit pieces, by name", "p = 'a b'.rsplit(maxsplit = 4000000000)", "string.rsplit()"},
		{"list of range", "l = list(range(1000000000))", "list()"},
		{"sorted range", "l = sorted(range(1000000000))", "sorted()"},
		{"enumerate", "l = enumerate(range(1000000000))", "enumerate()"},
		{"zip", "l = zip(range(1000000000), range(1000000000))", "zip()"},
		{"extend", "l = []\nl.extend(range(1000000000))", "list.extend()"},
		{"log", mb + "l = [s] * 10000\nlog_info(l)", "log_info()"},
		{"print", mb + "l = [s] * 10000\nprint(l)", "print()"},
		{"fail", mb + "l = [s] * 10000\nfail(l)", "fail()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "def instance_placement(request, candidate_members):\n" + indent(tc.body) + "    return 'done'\n"
			before := allocated()
			dec := decideOnce(t, src, Config{MemoryBudgetMiB: 4, TimeBudgetMS: MaxTimeBudgetMS}) // the memory budget is under test
			if grown := allocated() - before; grown > 100<<20 {
				t.Errorf("allocated %d MB", grown>>20)
			}
			if !strings.Contains(dec.Reject, "memory budget exceeded: "+tc.want+" would allocate") {
				t.Errorf("decision %+v, want %q refused", dec, tc.want)
			}
		})
	}
}

func indent(body string) string {
	var b strings.Builder
	for _, line := range strings.Split(body, "\n") {
		b.WriteString("    " + line + "\n")
	}
	return b.String()
}

// The rewrite keeps what the operators mean: arithmetic, concatenation,
// repetition, formatting, augmented assignment to names, indexes and
// fields, list += in place (aliases see it), methods with keywords and
// *args, and a receiver without the method fails as Starlark would.
func TestGuardedOperatorsKeepTheirMeaning(t *testing.T) {
	got := decideOnce(t, `
def instance_placement(request, candidate_members):
    a = 1 + 2 * 3 - 4 % 3
    f = 1.5 * 2 + 0.5
    s = "ab" + "c" * 2
    l = [1] + [2] * 2
    alias = l
    l += [9]
    d = {"k": 1, "s": "x"}
    d["k"] += 10
    d["s"] *= 3
    n = 2
    n *= n
    t = ("%d-%s" % (a, s)) + "|" + "{}/{x}".format(1, x=2)
    parts = "a,b,c".split(",", 1)
    args = [["p", "q"]]
    j = "+".join(*args)
    r = "aXbX".replace("X", "yy", 1)
    return "%s %s %s %s %s %s %s %s %s %s %s" % (a, f, s, l, alias, d, n, t, parts, j, r)
`, Config{}).Reject
	want := `6 3.5 abcc [1, 2, 2, 9] [1, 2, 2, 9] {"k": 11, "s": "xxx"} 4 6-abcc|1/2 ["a", "b,c"] p+q ayybX`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := decideOnce(t, "def instance_placement(request, candidate_members):\n    return (1).join([])\n", Config{}).Reject; !strings.Contains(got, "int has no .join field or method") {
		t.Errorf("join on an int: %s", got)
	}
}

// An augmented assignment whose target calls a function would be
// evaluated twice by the rewrite: it is refused at load.
func TestAugmentedTargetWithCallIsALoadError(t *testing.T) {
	_, err := Compile("t.star", []byte("def f():\n    return 0\ndef score(task, node):\n    l = [1]\n    l[f()] += 1\n    return 1\n"), Config{})
	if err == nil || !strings.Contains(err.Error(), "t.star:5:12: += with a target that calls a function is not supported") {
		t.Errorf("err = %v", err)
	}
}

// A comprehension adds one element per few steps: the step budget, not
// the memory budget, stops one over a billion elements, and the values
// it may build are bounded by the steps.
func TestComprehensionIsBoundedBySteps(t *testing.T) {
	before := allocated()
	dec := decideOnce(t, "def instance_placement(request, candidate_members):\n    l = [i for i in range(1000000000)]\n", Config{})
	if grown := allocated() - before; grown > 100<<20 {
		t.Errorf("allocated %d MB", grown>>20)
	}
	if !strings.Contains(dec.Reject, "step budget exceeded") {
		t.Errorf("decision %+v", dec)
	}
}

// The budget is per call: a call that uses most of it does not leave the
// next call short.
func TestMemoryBudgetIsPerCall(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	d := &Decider{s: compile(t, "def instance_placement(request, candidate_members):\n    s = 'x' * 3000000\n    return 'ok'\n", Config{MemoryBudgetMiB: 4})}
	for i := 0; i < 3; i++ {
		if dec := d.Decide(l, task(t, c, job("j", 1, 1), "new"), append([]int32(nil), l.Leaves()...), nil); dec.Reject != "ok" {
			t.Fatalf("call %d: %+v", i, dec)
		}
	}
}

func TestMemoryBudgetConfig(t *testing.T) {
	c := Config{Path: "x.star"}
	if err := c.Validate(); err != nil || c.MemoryBudgetMiB != DefaultMemoryBudgetMiB {
		t.Errorf("default: %v %d", err, c.MemoryBudgetMiB)
	}
	c = Config{Path: "x.star", MemoryBudgetMiB: MaxMemoryBudgetMiB + 1}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "memory_budget_mib must be at most 1048576") {
		t.Errorf("too large: %v", err)
	}
}

// A long message is cut when it is logged: the log keeps up to MaxLog
// entries, and MaxLog messages of the size one call may format would not
// fit in memory.
func TestLongLogMessageIsCut(t *testing.T) {
	s := compile(t, "def instance_placement(request, candidate_members):\n    log_info('é' * 5000)\n    return 'logged'\n", Config{})
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	(&Decider{s: s}).Decide(l, task(t, c, job("j", 1, 1), "new"), append([]int32(nil), l.Leaves()...), nil)
	log := s.Log()
	if len(log) != 1 || !strings.HasSuffix(log[0].Msg, "é… (5904 more bytes)") || len(log[0].Msg) > MaxLogMsg+30 {
		t.Errorf("log %d entries, %q…", len(log), log[0].Msg[len(log[0].Msg)-40:])
	}
}
