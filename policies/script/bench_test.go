package script

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// benchCluster has n nodes of 64 cores and 256 to 1024 units of mem, with
// some memory already in use, so free memory differs from node to node.
func benchCluster(b *testing.B, n int) (*sim.Cluster, *placement.Ledger) {
	nodes := make([]sim.NodeSpec, n)
	for i := range nodes {
		nodes[i] = node(fmt.Sprintf("n%04d", i), 64, int64(256*(1+i%4)), "arch=x86_64", fmt.Sprintf("user.zone=z%d", i%3))
	}
	c := cluster(b, nodes...)
	l := placement.NewLedger(c)
	for i := 0; i < n; i++ {
		fill(b, l, i, 1, int64((i*37)%200))
	}
	return c, l
}

// goMostFreeMemory is most_free_memory.star in Go: the same rule, for the
// benchmark's yardstick.
type goMostFreeMemory struct{ mem int }

func (g goMostFreeMemory) Decide(l *placement.Ledger, t *placement.Task, cands []int32, fallback func() int) placement.Decision {
	best, bestFree := -1, sim.Amount(0)
	for i, n := range cands {
		if free := l.Free[int(n)*l.R+g.mem]; best < 0 || free > bestFree {
			best, bestFree = i, free
		}
	}
	return placement.Decision{Index: best}
}

// goFreeMemory is score_free_memory.star in Go.
type goFreeMemory struct{ mem int }

func (goFreeMemory) Name() string { return "free memory" }
func (g goFreeMemory) Score(l *placement.Ledger, t *placement.Task, cands []int32, out []float64) {
	var need sim.Amount
	for _, q := range t.Need {
		if int(q.Res) == g.mem {
			need = q.Amt
		}
	}
	for i, n := range cands {
		capa, _ := l.Cluster.Capacity(int(n), g.mem)
		if capa <= 0 {
			out[i] = 0
			continue
		}
		out[i] = min(max(float64(l.Free[int(n)*l.R+g.mem]-need)/float64(capa), 0), 1)
	}
}

// BenchmarkMostFreeMemory100 is decisions per second of the most free
// memory rule over 100 candidates: "decide" calls the Decider alone,
// "place" a whole placement through the pipeline (filters included).
func BenchmarkMostFreeMemory100(b *testing.B) {
	c, l := benchCluster(b, 100)
	mem, _ := c.ResourceIndex("mem")
	tk := task(b, c, job("j", 1, 1), "new")
	cands := append([]int32(nil), l.Leaves()...)
	deciders := map[string]func() placement.Decider{
		"script": func() placement.Decider {
			return &Decider{s: example(b, "most_free_memory.star", Config{})}
		},
		"go": func() placement.Decider { return goMostFreeMemory{mem} },
	}
	for _, how := range []string{"script", "go"} {
		b.Run(how+"/decide", func(b *testing.B) {
			d := deciders[how]()
			want := d.Decide(l, tk, cands, nil)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if got := d.Decide(l, tk, cands, nil); got != want {
					b.Fatalf("decision %+v, want %+v", got, want)
				}
			}
			report(b, cpu)
		})
		b.Run(how+"/place", func(b *testing.B) {
			p := pipeline(b, c, "first-fit", nil)
			p.Stats = nil
			if how == "script" {
				if err := Attach(p, example(b, "most_free_memory.star", Config{})); err != nil {
					b.Fatal(err)
				}
			} else {
				p.Decider = deciders[how]()
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if p.Place(l, tk, nil) < 0 {
					b.Fatal("not placed")
				}
			}
			report(b, cpu)
		})
	}
}

// BenchmarkScore1000 is decisions per second of a first-fit pipeline
// with the free-memory score over a 1,000-node cluster, as a script
// (score_free_memory.star) and in Go. "script" and "go" scan every node
// (p.NoIndex); "script-index" and "go-index" let the pipeline use its
// score index (the script may: it is pure, purity.go), and book the task
// on the chosen node and release it after each decision, so that every
// decision re-scores the node that changed, as in a replay.
func BenchmarkScore1000(b *testing.B) {
	c, l := benchCluster(b, 1000)
	mem, _ := c.ResourceIndex("mem")
	tk := task(b, c, job("j", 1, 1), "new")
	for _, how := range []string{"script", "go", "script-index", "go-index"} {
		b.Run(how, func(b *testing.B) {
			p := pipeline(b, c, "first-fit", nil)
			p.Stats = nil
			if strings.HasPrefix(how, "script") {
				if err := Attach(p, example(b, "score_free_memory.star", Config{})); err != nil {
					b.Fatal(err)
				}
			} else {
				p.Scorers = append(p.Scorers, placement.Weighted{Scorer: goFreeMemory{mem}, Weight: 1})
			}
			churn := strings.HasSuffix(how, "-index")
			p.NoIndex = !churn
			want := p.Place(l, tk, nil)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				got := p.Place(l, tk, nil)
				if got != want {
					b.Fatalf("placed on %d, want %d", got, want)
				}
				if churn {
					l.Take(tk, got)
					l.Release(tk)
				}
			}
			report(b, cpu)
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report gives decisions per second of wall time and of CPU time since
// cpu (cpuTime): on a machine shared with other work the wall-clock rate
// swings, the CPU-time rate much less (run with -cpu 1 so the garbage
// collector's time counts against the same one core).
func report(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(b.N)/used.Seconds(), "decisions/cpu-s")
	}
}

// BenchmarkFloor100 measures what the interpreter costs before any
// builtin of ours does work, over the 100 candidates of
// BenchmarkMostFreeMemory100: "pass" only walks the list and calls
// set_target on the first member; "index" also reads each member's
// server_name; "call" also calls get_cluster_member_state on it (and
// reads nothing of the state); "ideal" is most_free_memory.star with a
// get_cluster_member_state that returns a prebuilt, frozen
// {"sysinfo": {"free_ram": …}} dict per member, the cheapest builtin
// conceivable; "script" is most_free_memory.star as it is.
func BenchmarkFloor100(b *testing.B) {
	c, l := benchCluster(b, 100)
	tk := task(b, c, job("j", 1, 1), "new")
	cands := append([]int32(nil), l.Leaves()...)
	const head = "def instance_placement(request, candidate_members):\n"
	srcs := map[string]string{
		"pass": head + "    for candidate in candidate_members:\n        pass\n" +
			"    set_target(candidate_members[0][\"server_name\"])\n",
		"index": head + "    for candidate in candidate_members:\n        server = candidate[\"server_name\"]\n" +
			"    set_target(candidate_members[0][\"server_name\"])\n",
		"call": head + "    for candidate in candidate_members:\n        server = candidate[\"server_name\"]\n" +
			"        state = get_cluster_member_state(server)\n" +
			"    set_target(candidate_members[0][\"server_name\"])\n",
	}
	for _, how := range []string{"pass", "index", "call", "ideal", "script"} {
		b.Run(how, func(b *testing.B) {
			var s *Script
			switch how {
			case "ideal", "script":
				s = example(b, "most_free_memory.star", Config{})
			default:
				s = compile(b, srcs[how], Config{})
			}
			if how == "ideal" {
				// The module's predeclared names are this map: replacing
				// the builtin here replaces it for the compiled program.
				states := map[string]starlark.Value{}
				e := newEnv(c)
				e.l = l
				for n := range c.Nodes {
					sys := starlark.NewDict(1)
					_ = sys.SetKey(starlark.String("free_ram"), amount(e.freeOf(n, e.mem)))
					st := starlark.NewDict(1)
					_ = st.SetKey(starlark.String("sysinfo"), sys)
					st.Freeze()
					states[c.Nodes[n].Name] = st
				}
				s.predeclared["get_cluster_member_state"] = &builtin{name: "get_cluster_member_state",
					fn: func(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
						return states[string(args[0].(starlark.String))], nil
					}}
			}
			d := &Decider{s: s}
			want := d.Decide(l, tk, cands, nil)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if got := d.Decide(l, tk, cands, nil); got != want {
					b.Fatalf("decision %+v, want %+v", got, want)
				}
			}
			report(b, cpu)
		})
	}
}

// BenchmarkScoreFloor1000 is BenchmarkScore1000's script with a score
// that returns 0 at once: the cost of calling a Starlark function 1,000
// times (scanning every node, as "script" there), which no builtin or
// object of ours can lower.
func BenchmarkScoreFloor1000(b *testing.B) {
	c, l := benchCluster(b, 1000)
	tk := task(b, c, job("j", 1, 1), "new")
	p := pipeline(b, c, "first-fit", nil)
	p.Stats = nil
	if err := Attach(p, compile(b, "def score(task, node):\n    return 0\n", Config{})); err != nil {
		b.Fatal(err)
	}
	p.NoIndex = true // the call itself, on every node
	want := p.Place(l, tk, nil)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if got := p.Place(l, tk, nil); got != want {
			b.Fatalf("placed on %d, want %d", got, want)
		}
	}
	report(b, cpu)
}

// goFreeMemory is node-local, as the pipeline's own scorers are.
func (goFreeMemory) NodeLocal() bool { return true }

// guardBenchScript scores a node with four operators the memory guard
// turns into builtin calls (guard.go: no number literal beside them) and a
// string concatenation, so that the benchmark shows what the guard costs
// per operator.
const guardBenchScript = `
def score(task, node):
    free = node.free.mem + node.free.cpu * node.capacity.cpu
    total = node.capacity.mem + node.capacity.cpu * node.capacity.cpu
    tag = node.name + "/"
    return free / total
`

// BenchmarkMemoryGuard1000 is BenchmarkScore1000's full scan with
// guardBenchScript compiled with the memory guard ("guarded", as Compile
// does) and without it ("unguarded"): the difference over 1,000 calls of
// five guarded operators each is the guard's cost per decision.
func BenchmarkMemoryGuard1000(b *testing.B) {
	c, l := benchCluster(b, 1000)
	tk := task(b, c, job("j", 1, 1), "new")
	for _, how := range []string{"guarded", "unguarded"} {
		b.Run(how, func(b *testing.B) {
			s, err := compileScript("guard.star", []byte(guardBenchScript), Config{OnError: Reject, StepBudget: DefaultStepBudget, Weight: 1, MemoryBudgetMiB: DefaultMemoryBudgetMiB}, how == "guarded")
			if err != nil {
				b.Fatal(err)
			}
			p := pipeline(b, c, "first-fit", nil)
			p.Stats = nil
			if err := Attach(p, s); err != nil {
				b.Fatal(err)
			}
			p.NoIndex = true
			want := p.Place(l, tk, nil)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if got := p.Place(l, tk, nil); got != want {
					b.Fatalf("placed on %d, want %d", got, want)
				}
			}
			report(b, cpu)
		})
	}
}
