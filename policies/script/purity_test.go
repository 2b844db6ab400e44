package script

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

func TestPurity(t *testing.T) {
	const score = "def score(task, node):\n"
	for _, tc := range []struct {
		src  string
		pure bool
	}{
		{score + "    return node.free.mem / (1 + node.capacity.mem)\n", true},
		{score + "    return (node.free.mem - task.request.mem) / node.capacity.mem\n", true},
		{score + "    return 1 if task[\"config\"].get(\"zone\") == node.config.get(\"user.zone\") else 0\n", true},
		{score + "    return len(task.placed) + len(task.project) + len(task.architecture)\n", true},
		{score + "    r = get_instance_resources()\n    return r.memory_size / node.capacity.mem\n", true},
		{"def f(n):\n    return n.tasks\n" + score + "    return f(node)\n", true},
		{"def filter(task, node):\n    return node.attributes.get(\"rack\") != \"r9\"\n" + score + "    return 0.5\n", true},
		{score + "    return lambda: task.request.mem\n", true},
		{"score = lambda task, node: node.free.mem + task.request.mem\n", true},
		{"def mk():\n    def score(task, node):\n        return node.tasks\n    return score\nscore = mk()\n", true},
		// Impure: rand, other members, effects, fields outside the shape.
		{"score = lambda task, node: len(task.name)\n", false},
		{"def mk():\n    def score(task, node):\n        return task.index\n    return score\nscore = mk()\n", false},
		{score + "    return rand()\n", false},
		{"def r():\n    return rand()\n" + score + "    return 1\n", false},
		{score + "    return get_cluster_member_state(node.name).sysinfo.free_ram\n", false},
		{score + "    log_info(node.name)\n    return 1\n", false},
		{score + "    print(node.name)\n    return 1\n", false},
		{score + "    return 1 if task.name == \"x\" else 0\n", false},
		{score + "    return 1 if task.reason == \"new\" else 0\n", false},
		{score + "    return task.index + task.tasks + task.priority\n", false},
		{score + "    return 1 if task[\"user\"] == \"x\" else 0\n", false},
		{score + "    k = \"name\"\n    return 1 if task[k] == \"x\" else 0\n", false},
		{score + "    return 1 if getattr(task, \"name\") == \"x\" else 0\n", false},
		{score + "    return 1 if str(task) == \"x\" else 0\n", false},
		{score + "    t = task\n    return 1 if t.name == \"x\" else 0\n", false},
		{"def f(t):\n    return t.name\n" + score + "    return len(f(task))\n", false},
		{score + "    return len([k for k in task])\n", false},
		{score + "    return (lambda task: 1)(1)\n", false}, // conservative: any other binding of the name
		{"def filter(task, node):\n    return task.reason == \"new\"\n" + score + "    return 0.5\n", false},
		{"def instance_placement(request, candidate_members):\n    set_target(candidate_members[0].server_name)\n" + score + "    return 1\n", false},
	} {
		s := compile(t, tc.src, Config{})
		if s.pure != tc.pure {
			t.Errorf("pure = %v, want %v:\n%s", s.pure, tc.pure, tc.src)
		}
	}
	for _, name := range []string{"score_free_memory.star"} {
		if !example(t, name, Config{}).pure {
			t.Errorf("%s is not pure", name)
		}
	}
	for _, name := range []string{"score_jitter.star", "filter_maintenance.star"} {
		if example(t, name, Config{}).pure {
			t.Errorf("%s is pure", name)
		}
	}
}

// TestAttachPure: only a pure script without instance_placement hands
// the pipeline node-local rules and a Decider that defers to the index.
func TestAttachPure(t *testing.T) {
	c := lxdCluster(t)
	tk := task(t, c, job("j", 1, 1), "new")
	for _, tc := range []struct {
		src   string
		local bool
	}{
		{"def score(task, node):\n    return 1\ndef filter(task, node):\n    return True\n", true},
		{"def score(task, node):\n    return rand()\ndef filter(task, node):\n    return True\n", false},
		{"def instance_placement(request, candidate_members):\n    pass\ndef score(task, node):\n    return 1\n", false},
	} {
		s := compile(t, tc.src, Config{})
		p := pipeline(t, c, "least-allocated", s)
		for _, f := range p.Filters {
			if _, ok := f.(*Filter); ok && tc.local {
				t.Errorf("%s: the filter is not node-local", tc.src)
			}
			if _, ok := f.(localFilter); ok && !tc.local {
				t.Errorf("%s: the filter is node-local", tc.src)
			}
		}
		sc := p.Scorers[len(p.Scorers)-1].Scorer
		if _, ok := sc.(placement.NodeLocal); ok != tc.local {
			t.Errorf("%s: scorer NodeLocal %v", tc.src, ok)
		}
		if d := p.Decider.(*Decider); d.Defers(tk) != tc.local {
			t.Errorf("%s: Defers %v", tc.src, d.Defers(tk))
		}
	}
}

// countingScorer counts the candidates a node-local scorer is asked about.
type countingScorer struct {
	placement.Scorer
	n *int
}

func (c countingScorer) Score(l *placement.Ledger, t *placement.Task, cands []int32, out []float64) {
	*c.n += len(cands)
	c.Scorer.Score(l, t, cands, out)
}

func (countingScorer) NodeLocal() bool { return true }

// TestScriptIndexMatchesScan places and removes random jobs through two
// pipelines with the same pure script, one using the score index and one
// scanning every node, and requires the same outcome (node, rejection
// reason) at every step; the scripts fail on some node states, so the
// error path under the index is exercised too.
func TestScriptIndexMatchesScan(t *testing.T) {
	scripts := map[string]string{
		"free memory": "", // score_free_memory.star
		"zone and tasks": `
def filter(task, node):
    want = task.config.get("zone")
    if want != None and node.config.get("user.zone") != want:
        return "wrong zone"
    return node.tasks < 6

def score(task, node):
    return 1 / (1 + node.tasks) + node.free.cpu / (100 * node.capacity.cpu) - task.request.mem / 1000
`,
		"fails": `
def score(task, node):
    if node.free.mem < 12 and task.request.mem > 6:
        fail("node %s too full for %d" % (node.name, task.request.mem))
    return node.free.mem / node.capacity.mem
`,
	}
	for name, src := range scripts {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 5))
			var nodes []sim.NodeSpec
			for i := 0; i < 60; i++ {
				nodes = append(nodes, node(fmt.Sprintf("n%02d", i), int64(4+4*(i%3)), int64(16<<(i%3)), fmt.Sprintf("user.zone=z%d", i%3)))
			}
			c := cluster(t, nodes...)
			load := func() *Script {
				if src == "" {
					return example(t, "score_free_memory.star", Config{})
				}
				return compile(t, src, Config{})
			}
			fast, slow := pipeline(t, c, "least-allocated", load()), pipeline(t, c, "least-allocated", load())
			slow.NoIndex = true
			var scored int
			last := len(fast.Scorers) - 1
			fast.Scorers[last].Scorer = countingScorer{fast.Scorers[last].Scorer, &scored}
			lf, ls := placement.NewLedger(c), placement.NewLedger(c)
			var live []*placement.Task
			placed, rejected := 0, 0
			for step := 0; step < 2000; step++ {
				if len(live) > 0 && rng.IntN(3) == 0 {
					k := rng.IntN(len(live))
					lf.Release(live[k])
					ls.Release(live[k])
					live = append(live[:k], live[k+1:]...)
					continue
				}
				j := job(fmt.Sprint("j", step), int64(1+rng.IntN(3)), int64(1+rng.IntN(8)))
				if rng.IntN(3) == 0 {
					j.Traits = &sim.Traits{Labels: []sim.Label{{Key: "zone", Value: fmt.Sprint("z", rng.IntN(3))}}}
				}
				tk := task(t, c, j, "new")
				a, ra := place(fast, lf, tk)
				b, rb := place(slow, ls, tk)
				if strings.Join(a, ",") != strings.Join(b, ",") || ra != rb {
					t.Fatalf("step %d: index %v %q, scan %v %q", step, a, ra, b, rb)
				}
				if a != nil {
					placed++
					live = append(live, tk)
				} else if strings.Contains(ra, "too full") {
					rejected++
				}
			}
			if placed == 0 || scored == 0 {
				t.Fatalf("placed %d, scored %d", placed, scored)
			}
			d := fast.Decider.(*Decider)
			if name == "fails" {
				if rejected == 0 || !d.s.unindexed {
					t.Errorf("rejected %d, unindexed %v", rejected, d.s.unindexed)
				}
			} else if d.s.unindexed || scored > 2000*len(nodes)/4 {
				// The index re-scores the changed nodes, not all of them.
				t.Errorf("scored %d nodes in %d placements (unindexed %v)", scored, placed, d.s.unindexed)
			}
		})
	}
}
