package script

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// lxdCluster has three members with LXD's attributes.
func lxdCluster(t *testing.T) *sim.Cluster {
	c := cluster(t,
		node("m1", 16, 1024, "arch=x86_64", "groups=default, gpu", "user.zone=a", "rack=r1"),
		node("m2", 8, 512, "arch=aarch64", "user.zone=b", "failure_domain=fd2"),
		node("m3", 4, 256))
	c.Nodes[0].Capacity = append(c.Nodes[0].Capacity, sim.Quantity{Resource: "gpu", Amount: sim.Units(2)})
	c2, err := sim.NewCluster(c.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c2
}

// verdict runs instance_placement once and returns what it returned, as
// the rejection reason (scripts below return what they want checked).
func verdict(t *testing.T, c *sim.Cluster, l *placement.Ledger, src string, tk *placement.Task) string {
	t.Helper()
	p := pipeline(t, c, "first-fit", compile(t, src, Config{}))
	got, reason := place(p, l, tk)
	if got != nil {
		t.Fatalf("placed on %v, want the script's return value", got)
	}
	return reason
}

func TestRequestAndCandidates(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	j := job("web-1", 2, 300)
	j.User, j.Queue, j.Priority = "ann", "batch", 5
	j.Traits = &sim.Traits{Project: "blue", Architecture: "", Labels: []sim.Label{{Key: "env", Value: "prod"}, {Key: "limits.cpu", Value: "99"}}}
	got := verdict(t, c, l, `
def instance_placement(request, candidate_members):
    r = request
    return "|".join([r.name, r["project"], r.reason, r.type, str(r.config), str(r.task), str(r.tasks),
                     r.user, r.queue, str(r.priority), str(len(candidate_members))])
`, task(t, c, j, "relocation"))
	want := `web-1|blue|relocation|container|{"env": "prod", "limits.cpu": "2", "limits.memory": "300"}|0|1|ann|batch|5|2` // m3 is too small
	if got != want {
		t.Errorf("request:\n got %s\nwant %s", got, want)
	}
	got = verdict(t, c, l, `
def instance_placement(request, candidate_members):
    return "\n".join([str(m) for m in candidate_members])
`, task(t, c, job("x", 1, 1), "new"))
	want = `{"server_name": "m1", "url": "", "database": False, "status": "Online", "message": "Fully operational", "architecture": "x86_64", "failure_domain": "default", "description": "", "config": {"user.zone": "a"}, "groups": ["default", "gpu"], "roles": []}
{"server_name": "m2", "url": "", "database": False, "status": "Online", "message": "Fully operational", "architecture": "aarch64", "failure_domain": "fd2", "description": "", "config": {"user.zone": "b"}, "groups": [], "roles": []}
{"server_name": "m3", "url": "", "database": False, "status": "Online", "message": "Fully operational", "architecture": "", "failure_domain": "default", "description": "", "config": {}, "groups": [], "roles": []}`
	if got != want {
		t.Errorf("candidates:\n got %s\nwant %s", got, want)
	}
}

func TestMemberStateAndResources(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	fill(t, l, 0, 3, 100)
	fill(t, l, 0, 1, 24)
	src := `
def instance_placement(request, candidate_members):
    s = get_cluster_member_state("m1")
    r = get_cluster_member_resources("m1")
    return " ".join([str(s.sysinfo), str(s.instance_count), str(s["storage_pools"]),
                     str(r.cpu), str(r.memory), str(r["gpu"]), str(r.resources["mem"])])
`
	got := verdict(t, c, l, src, task(t, c, job("x", 1, 1), "new"))
	want := `{"uptime": 0, "load_averages": [4.0, 4.0, 4.0], "total_ram": 1024, "free_ram": 900, "shared_ram": 0, "buffer_ram": 0, "total_swap": 0, "free_swap": 0, "processes": 2, "logical_cpus": 16} 2 {} ` +
		`{"architecture": "x86_64", "sockets": [], "total": 16, "used": 4} {"total": 1024, "used": 124, "free": 900} {"cards": [], "total": 2, "used": 0} {"total": 1024, "used": 124, "free": 900}`
	if got != want {
		t.Errorf("state:\n got %s\nwant %s", got, want)
	}
	// Any member may be asked about, not only candidates; unknown ones fail.
	got = verdict(t, c, l, `
def instance_placement(request, candidate_members):
    return get_cluster_member_state("nope")
`, task(t, c, job("x", 1, 1), "new"))
	if got != `script: error at test.star:3: get_cluster_member_state: no cluster member "nope"` {
		t.Errorf("unknown member: %q", got)
	}
}

func TestInstanceResources(t *testing.T) {
	c := cluster(t, sim.NodeSpec{Name: "d", Capacity: []sim.Quantity{
		{Resource: "cpu", Amount: sim.Units(8)}, {Resource: "mem", Amount: sim.Units(64)}, {Resource: "disk", Amount: sim.Units(500)}}})
	l := placement.NewLedger(c)
	j := job("x", 1, 2)
	j.Request[0].Amount = 1500 // 1.5 cores
	j.Request = append(j.Request, sim.Quantity{Resource: "disk", Amount: sim.Units(20)})
	got := verdict(t, c, l, `
def instance_placement(request, candidate_members):
    return str(get_instance_resources()) + " " + str(request.devices) + " " + request.config["limits.cpu"]
`, task(t, c, j, "new"))
	want := `{"cpu_cores": 1.5, "memory_size": 2, "root_disk_size": 20} {"root": {"type": "disk", "path": "/", "size": "20"}} 1.5`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestEachReason(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	src := `
def instance_placement(request, candidate_members):
    return "reason=" + request.reason
`
	for _, why := range []string{"new", "evacuation", "relocation"} {
		if got := verdict(t, c, l, src, task(t, c, job("x", 1, 1), why)); got != "reason="+why {
			t.Errorf("%s: %q", why, got)
		}
	}
}

func TestRejectionValues(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	for ret, want := range map[string]string{
		`"Invalid name"`: "Invalid name",
		`42`:             "42",
		`["a", 1]`:       `["a", 1]`,
		`False`:          "False",
		`""`:             `script: instance_placement returned ""`,
	} {
		src := "def instance_placement(request, candidate_members):\n    set_target(\"m1\")\n    return " + ret + "\n"
		if got := verdict(t, c, l, src, task(t, c, job("x", 1, 1), "new")); got != want {
			t.Errorf("return %s: reason %q, want %q", ret, got, want)
		}
	}
}

func TestFallbackAndTarget(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	fill(t, l, 0, 1, 1)
	// No set_target: the strategy (fewest instances) decides: m2.
	p := pipeline(t, c, "fewest-instances", compile(t, "def instance_placement(request, candidate_members):\n    pass\n", Config{}))
	got, reason := place(p, l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "m2")
	// First fit as the fallback still sees every candidate in the script.
	p = pipeline(t, c, "first-fit", compile(t, `
def instance_placement(request, candidate_members):
    set_target("m2")  # the last call wins
    set_target(candidate_members[-1].server_name)
`, Config{}))
	got, reason = place(p, l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "m3")
	p = pipeline(t, c, "first-fit", compile(t, "def instance_placement(request, candidate_members):\n    return None\n", Config{}))
	got, reason = place(p, l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "m1")
}

func TestSetTargetNotACandidate(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	src := `
def instance_placement(request, candidate_members):
    set_target("m3")
`
	// m3 has 4 cores: a 6-core job's candidates are m1 and m2.
	got, reason := place(pipeline(t, c, "first-fit", compile(t, src, Config{})), l, task(t, c, job("big", 6, 1), "new"))
	wantReject(t, got, reason, `script: error at test.star:3: set_target: "m3" is not a candidate member`)
	src = "def instance_placement(request, candidate_members):\n    set_target(\"ghost\")\n"
	got, reason = place(pipeline(t, c, "first-fit", compile(t, src, Config{})), l, task(t, c, job("x", 1, 1), "new"))
	wantReject(t, got, reason, `"ghost" is not a candidate member`)
	src = "def instance_placement(request, candidate_members):\n    set_target(3)\n"
	got, reason = place(pipeline(t, c, "first-fit", compile(t, src, Config{})), l, task(t, c, job("x", 1, 1), "new"))
	wantReject(t, got, reason, "set_target: for parameter member_name: got int, want string")
	// set_target belongs to instance_placement only.
	src = "def score(task, node):\n    set_target(node.name)\n    return 1\n"
	got, reason = place(pipeline(t, c, "least-allocated", compile(t, src, Config{})), l, task(t, c, job("x", 1, 1), "new"))
	wantReject(t, got, reason, "set_target: only inside instance_placement")
}

func TestFailAndRuntimeErrors(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	for src, want := range map[string]string{
		"def instance_placement(request, candidate_members):\n    fail(\"no way\")\n":                                    "script: error at test.star:2: fail: no way",
		"def instance_placement(request, candidate_members):\n    x = {}\n    return x[\"missing\"]\n":                   `script: error at test.star:3: key "missing" not in dict`,
		"def instance_placement(request, candidate_members):\n    return helper(0)\ndef helper(d):\n    return 1 // d\n": "script: error at test.star:4: floored division by zero",
		"def instance_placement(request, candidate_members):\n    request.name = 1\n":                                    "script: error at test.star:2:",
		"def instance_placement(request, candidate_members):\n    return request.nope\n":                                 "has no .nope field or method",
		"def instance_placement(request, candidate_members):\n    return f(1)\ndef f(n):\n    return f(n)\n":             "called recursively",
	} {
		got, reason := place(pipeline(t, c, "first-fit", compile(t, src, Config{})), l, task(t, c, job("x", 1, 1), "new"))
		wantReject(t, got, reason, want)
	}
}

func TestStepBudget(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	loops := map[string]string{
		"instance_placement": "def instance_placement(request, candidate_members):\n    while True:\n        pass\n",
		"score":              "def score(task, node):\n    n = 0\n    for i in range(1 << 40):\n        n += i\n    return n\n",
		"filter":             "def filter(task, node):\n    while True:\n        pass\n",
	}
	for entry, src := range loops {
		s := compile(t, src, Config{StepBudget: 5000})
		got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
		wantReject(t, got, reason, "script: step budget exceeded (5000 steps in "+entry+"; step_budget)")
		// on_error: stop ends the run instead.
		s = compile(t, src, Config{StepBudget: 5000, OnError: Stop})
		p := pipeline(t, c, "first-fit", s)
		if got, _ := p.PlaceJob(l, task(t, c, job("x", 1, 1), "new"), 1, nil, nil); got != nil || p.Fatal == nil {
			t.Fatalf("%s stop: placed %v, fatal %v", entry, got, p.Fatal)
		}
		var e *Error
		if !errors.As(p.Fatal, &e) || !e.Budget {
			t.Errorf("%s stop: %v", entry, p.Fatal)
		}
		// The script recovers: the next call has a fresh budget.
		if entry == "instance_placement" {
			if _, err := s.call(s.placement, starlark.None, starlark.NewList(nil)); err == nil || !err.Budget {
				t.Errorf("second call: %v", err)
			}
		}
	}
	// A budget big enough lets the same kind of loop finish.
	s := compile(t, "def instance_placement(request, candidate_members):\n    n = 0\n    for i in range(100):\n        n += i\n", Config{StepBudget: 5000})
	got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "m1")
}

func TestLoadErrors(t *testing.T) {
	for src, want := range map[string]string{
		"def instance_placement(request, candidate_members)\n    pass\n":                   "test.star:2:1: got newline, want ':'",
		"def instance_placement(request, candidate_members):\n    get_member(\"x\")\n":     "test.star:2:5: undefined: get_member",
		"def instance_placement(request, candidate_members):\n    return time.now()\n":     "test.star:2:12: undefined: time",
		"def instance_placement(request, candidate_members):\n    open(\"/etc/passwd\")\n": "test.star:2:5: undefined: open",
		"load(\"x.star\", \"y\")\ndef score(task, node):\n    return y\n":                  `test.star:1:6: load("x.star"): scripts cannot load modules`,
		"def placement(request, candidates):\n    pass\n":                                  "test.star: defines none of instance_placement(request, candidate_members), score(task, node), filter(task, node)",
		"def instance_placement(reason, request, candidate_members):\n    pass\n":          "test.star:1:1: instance_placement must take (request, candidate_members), has (reason, request, candidate_members)",
		"def score(node, task):\n    return 1\n":                                           "test.star:1:1: score must take (task, node), has (node, task)",
		"def filter(task, node, *rest):\n    return True\n":                                "filter must take (task, node)",
		"score = 3\n": "test.star: score must be a function (def score(task, node)), not int",
		"fail(\"at load\")\ndef score(task, node):\n    return 1\n":        "test.star:1: fail: at load",
		"while True:\n    pass\ndef score(task, node):\n    return 1\n":    "script: step budget exceeded",
		"get_instance_resources()\ndef score(task, node):\n    return 1\n": "get_instance_resources: only inside instance_placement, score or filter",
		"x = 1\nx = 2\ndef score(task, node):\n    return x\n":             "test.star:2:1: cannot reassign global x declared at test.star:1:1",
		"": "defines none of",
	} {
		_, err := Compile("test.star", []byte(src), Config{StepBudget: 10000})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
}

func TestGlobalsAreFrozen(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	s := compile(t, "SEEN = []\ndef instance_placement(request, candidate_members):\n    SEEN.append(request.name)\n", Config{})
	got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	wantReject(t, got, reason, "script: error at test.star:3: append: cannot append to frozen list")
}

func TestPanicInBuiltinIsRecovered(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	for _, mode := range []string{Reject, Stop} {
		s := compile(t, "def score(task, node):\n    return rand()\n", Config{OnError: mode})
		// Swap in a builtin that panics: the module reads its predeclared
		// names from this dict at call time.
		s.predeclared["rand"] = starlark.NewBuiltin("rand", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			panic("boom")
		})
		p := pipeline(t, c, "least-allocated", s)
		got, reason := place(p, l, task(t, c, job("x", 1, 1), "new"))
		want := "script: error in score: internal error: boom"
		if mode == Stop {
			want = "fatal: " + want
		}
		if got != nil || reason != want {
			t.Errorf("%s: %v %q, want %q", mode, got, reason, want)
		}
	}
}

func TestScoreValues(t *testing.T) {
	c := cluster(t, node("a", 8, 64), node("b", 8, 64), node("c", 8, 64))
	l := placement.NewLedger(c)
	// Clamped: b's 5 and c's 7 both count as 1; the tie goes to b.
	s := compile(t, "def score(task, node):\n    return [-3, 5, 7][node.index]\n", Config{})
	got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "b")
	for ret, want := range map[string]string{
		`float("nan")`: "score must return a number (int or float, not NaN), not float",
		`None`:         "script: error at test.star:1: score must return a number (int or float, not NaN), not NoneType",
		`"high"`:       "not string",
	} {
		s := compile(t, "def score(task, node):\n    return "+ret+"\n", Config{})
		got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
		wantReject(t, got, reason, want)
	}
	// Booleans are 1 and 0.
	s = compile(t, "def score(task, node):\n    return node.name == \"c\"\n", Config{Weight: 2})
	got, reason = place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "c")
}

func TestFilterValues(t *testing.T) {
	c := cluster(t, node("a", 8, 64), node("b", 8, 64), node("c", 8, 64))
	l := placement.NewLedger(c)
	s := compile(t, "def filter(task, node):\n    return {\"a\": \"too hot\", \"b\": \"\"}.get(node.name, True)\n", Config{})
	p := pipeline(t, c, "first-fit", s)
	got, reason := place(p, l, task(t, c, job("x", 1, 1), "new"))
	wantNodes(t, got, reason, "c")
	s = compile(t, "def filter(task, node):\n    return node.free.cpu >= 100 or \"small\"\n", Config{})
	got, reason = place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	// Nothing passes: the job waits and the explanation names the reason;
	// the placer's probe of the empty cluster then rejects it.
	if got != nil || reason != "0/3 nodes: 3 script filter: small" {
		t.Errorf("got %v, reason %q", got, reason)
	}
	s = compile(t, "def filter(task, node):\n    return 1\n", Config{})
	got, reason = place(pipeline(t, c, "first-fit", s), l, task(t, c, job("x", 1, 1), "new"))
	wantReject(t, got, reason, "script: error at test.star:1: filter must return a bool or a string, not int")
}

func TestTaskAndNodeValues(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	fill(t, l, 1, 2, 12)
	j := job("t", 1, 8)
	j.Tasks = 2
	j.Traits = &sim.Traits{Project: "p"}
	src := `
def filter(task, node):
    if task.index == 1 and node.name == "m2":
        fail(" ".join([str(task), str(node.tasks), str(node.free), str(node.used), str(node.capacity), str(node.attributes)]))
    return True
`
	s := compile(t, src, Config{})
	got, reason := place(pipeline(t, c, "first-fit", s), l, task(t, c, j, "new"))
	want := `fail: {"name": "t", "project": "p", "reason": "new", "index": 1, "tasks": 2, "request": {"cpu": 1, "mem": 8, "gpu": 0}, "config": {"limits.cpu": "1", "limits.memory": "8"}, "architecture": "", "placed": [` +
		`{"server_name": "m1", "url": "", "database": False, "status": "Online", "message": "Fully operational", "architecture": "x86_64", "failure_domain": "default", "description": "", "config": {"user.zone": "a"}, "groups": ["default", "gpu"], "roles": []}], ` +
		`"user": "", "group": "", "queue": "", "partition": "", "priority": 0} 1 {"cpu": 6, "mem": 500, "gpu": 0} {"cpu": 2, "mem": 12, "gpu": 0} {"cpu": 8, "mem": 512, "gpu": 0} {"arch": "aarch64", "failure_domain": "fd2", "user.zone": "b"}`
	wantReject(t, got, reason, want)
}

func TestDeterministic(t *testing.T) {
	src := `
def instance_placement(request, candidate_members):
    i = rand(len(candidate_members))
    log_info(request.name, " draws ", i, " then ", rand())
    set_target(candidate_members[i].server_name)
`
	run := func() string {
		c := cluster(t, node("a", 64, 64), node("b", 64, 64), node("c", 64, 64), node("d", 64, 64))
		l := placement.NewLedger(c)
		s := compile(t, src, Config{Seed: 9})
		var buf bytes.Buffer
		s.SetLog(&buf)
		p := pipeline(t, c, "first-fit", s)
		var out []string
		for i := 0; i < 20; i++ {
			tk := task(t, c, job("j", 1, 1), "new")
			tk.Key = int64(i)
			got, reason := place(p, l, tk)
			out = append(out, strings.Join(got, "")+reason)
		}
		return strings.Join(out, ",") + "\n" + buf.String()
	}
	a, b := run(), run()
	if a != b {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, "t=7 info job=j task=0 instance_placement: j draws") {
		t.Errorf("log lines: %s", a)
	}
	if strings.Count(a[:strings.Index(a, "\n")], "a") == 20 {
		t.Errorf("rand never moved: %s", a)
	}
}

func TestLogLimitAndPrint(t *testing.T) {
	c := lxdCluster(t)
	l := placement.NewLedger(c)
	s := compile(t, "def score(task, node):\n    print(\"p\", node.name)\n    log_warn(node.name, 1, None)\n    return 1\n", Config{})
	place(pipeline(t, c, "least-allocated", s), l, task(t, c, job("x", 1, 1), "new"))
	logs := s.Log()
	if len(logs) != 6 || logs[0].Level != "print" || logs[0].Msg != "p m1" || logs[1].Msg != "m11None" || logs[1].Entry != "score" {
		t.Errorf("log: %+v", logs)
	}
	s.log.entries = make([]Entry, MaxLog)
	s.logf("info", "over")
	if s.Dropped() != 1 || len(s.Log()) != MaxLog {
		t.Errorf("dropped %d", s.Dropped())
	}
}

func TestAttach(t *testing.T) {
	c := lxdCluster(t)
	s := compile(t, "def instance_placement(request, candidate_members):\n    pass\ndef score(task, node):\n    return 1\ndef filter(task, node):\n    return True\n", Config{Weight: 3})
	p := pipeline(t, c, "least-allocated", nil)
	filters, scorers := len(p.Filters), len(p.Scorers)
	if err := Attach(p, s); err != nil {
		t.Fatal(err)
	}
	// The script's score(), then the weight-0 scorer that marks
	// instance_placement's own choices in explanations.
	if len(p.Filters) != filters+1 || len(p.Scorers) != scorers+2 || p.Scorers[scorers].Weight != 3 || p.Decider == nil ||
		p.Scorers[scorers+1].Name() != ChoiceScorer || p.Scorers[scorers+1].Weight != 0 {
		t.Errorf("attached: %d filters, %+v", len(p.Filters), p.Scorers)
	}
	if err := Attach(p, s); err == nil {
		t.Error("attached twice")
	}
	if pl, sc, fi := s.Defines(); !pl || !sc || !fi {
		t.Error("Defines")
	}
	for _, rule := range p.Filters[filters:] {
		if _, ok := rule.(placement.NodeLocal); ok {
			t.Error("the script filter claims NodeLocal")
		}
	}
	if _, ok := p.Scorers[scorers].Scorer.(placement.NodeLocal); ok {
		t.Error("the script scorer claims NodeLocal")
	}
}

func TestConfigValidate(t *testing.T) {
	c := Config{Path: "x.star"}
	if err := c.Validate(); err != nil || c.OnError != Reject || c.StepBudget != DefaultStepBudget || c.Weight != 1 {
		t.Errorf("defaults: %+v %v", c, err)
	}
	bad := Config{OnError: "ignore", Weight: -1}
	err := bad.Validate()
	for _, want := range []string{"path is required", `on_error "ignore"`, "weight must be"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
	if _, err := Load(Config{Path: "no/such.star"}); err == nil {
		t.Error("loaded a missing file")
	}
}
