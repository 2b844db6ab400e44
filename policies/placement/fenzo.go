package placement

import (
	"fmt"
	"math"

	"github.com/schedsim/schedsim/sim"
)

// Fenzo's constraint kinds, the values of sim.Constraint.Kind,
// defined in sim so that trace readers can check them.
const (
	ExclusiveHost     = sim.ExclusiveHost
	HostAttribute     = sim.HostAttribute
	UniqueAttribute   = sim.UniqueAttribute
	BalancedAttribute = sim.BalancedAttribute
)

// CheckConstraint reports what is wrong with a constraint, or nil.
func CheckConstraint(c sim.Constraint) error { return sim.CheckConstraint(c) }

// constraintHolds evaluates a constraint as a hard rule on node n.
func constraintHolds(l *Ledger, t *Task, c *sim.Constraint, n int) bool {
	switch c.Kind {
	case ExclusiveHost:
		return l.Tasks[n] == 0 && l.exclusive[n] == 0
	case HostAttribute:
		return l.Cluster.Nodes[n].Attributes[c.Attribute] == c.Value
	case UniqueAttribute:
		ids, _ := l.Attribute(uniqueKey(c))
		if ids[n] == 0 {
			return false // the host lacks the attribute
		}
		for _, m := range t.Co {
			if ids[m] == ids[n] {
				return false
			}
		}
		return true
	case BalancedAttribute:
		counts, groups := coTaskCounts(l, t, c.Attribute, c.Groups)
		ids, _ := l.Attribute(c.Attribute)
		if ids[n] == 0 {
			return false
		}
		lo, hi := spread(counts, groups)
		mine := counts[ids[n]]
		// Fenzo: success when this group is among the least loaded or
		// below the most loaded, so an already unbalanced spread does not
		// grow worse (the seed's scenarios 1–3).
		return mine == lo || mine < hi
	}
	if sim.IsAttributeComparison(c.Kind) {
		v, present := l.Cluster.Nodes[n].Attributes[c.Attribute]
		return sim.AttributeHolds(c, v, present)
	}
	return false
}

// constraintFitness evaluates a constraint as a soft rule on node n, in
// [0, 1]: balanced-attribute has Fenzo's finer form, the others map
// pass/fail to 1/0 (AsSoftConstraint).
func constraintFitness(l *Ledger, t *Task, c *sim.Constraint, n int) float64 {
	if c.Kind == BalancedAttribute {
		counts, groups := coTaskCounts(l, t, c.Attribute, c.Groups)
		ids, _ := l.Attribute(c.Attribute)
		if ids[n] == 0 {
			return 0
		}
		assigned := 0
		for _, k := range counts {
			assigned += k
		}
		avg := math.Ceil(float64(assigned+1) / float64(groups))
		mine := float64(counts[ids[n]])
		if mine > avg {
			return 0
		}
		return (avg - mine) / avg
	}
	if constraintHolds(l, t, c, n) {
		return 1
	}
	return 0
}

// constraintRule names a constraint in rejection reasons: its kind and
// attribute ("unique-attribute zone", "host-attribute zone=a").
func constraintRule(c *sim.Constraint) string {
	switch c.Kind {
	case UniqueAttribute:
		return c.Kind + " " + uniqueKey(c)
	case HostAttribute:
		return c.Kind + " " + c.Attribute + "=" + c.Value
	}
	if c.Attribute == "" {
		return c.Kind
	}
	return c.Kind + " " + c.Attribute
}

// constraintVerdict explains a constraint that no node can pass whatever
// the ledger holds: a unique attribute with fewer distinct values among
// the nodes that hold tasks than the task and its co-tasks need
// ("unique-attribute zone: 3 values, 4 co-tasks"). "" otherwise.
func constraintVerdict(l *Ledger, t *Task, c *sim.Constraint) string {
	if c.Kind != UniqueAttribute {
		return ""
	}
	key := uniqueKey(c)
	ids, values := l.Attribute(key)
	seen := make([]bool, len(values))
	distinct := 0
	for _, n := range l.leaves {
		if id := ids[n]; id != 0 && !seen[id] {
			seen[id] = true
			distinct++
		}
	}
	if co := len(t.Co) + 1; distinct < co {
		return fmt.Sprintf("%s: %d values, %d co-tasks", constraintRule(c), distinct, co)
	}
	return ""
}

func uniqueKey(c *sim.Constraint) string {
	if c.Attribute == "" {
		return HostName
	}
	return c.Attribute
}

// coTaskCounts counts the task's co-tasks per value id of attribute key,
// and returns the number of groups: the expected count when given, else
// the number of values in the cluster.
func coTaskCounts(l *Ledger, t *Task, key string, expected int) ([]int, int) {
	ids, values := l.Attribute(key)
	counts := make([]int, len(values))
	for _, m := range t.Co {
		if ids[m] != 0 {
			counts[ids[m]]++
		}
	}
	groups := expected
	if groups <= 0 {
		groups = len(values) - 1
	}
	return counts, max(groups, 1)
}

// spread returns the least and most co-tasks in a group. Groups that hold
// none count as 0 when fewer groups hold co-tasks than are expected.
func spread(counts []int, groups int) (lo, hi int) {
	lo, used := math.MaxInt, 0
	for _, k := range counts[1:] {
		if k > 0 {
			used++
			lo = min(lo, k)
			hi = max(hi, k)
		}
	}
	if used < groups {
		lo = 0
	}
	return lo, hi
}

// FenzoFitness is Fenzo's scorer: the fitness calculator (bin packing on
// cpu, mem or both) averaged with the task's soft constraints.
type FenzoFitness struct {
	// Calculator: "cpu", "mem", "cpu+mem" or "none".
	Calculator string
	CPU, Mem   string // resource names (default cpu, mem)
	cpu, mem   int
}

// NewFenzoFitness checks the calculator name and resolves resources.
func NewFenzoFitness(c *sim.Cluster, calculator, cpu, mem string) (*FenzoFitness, error) {
	f := &FenzoFitness{Calculator: calculator, CPU: cpu, Mem: mem, cpu: -1, mem: -1}
	if f.CPU == "" {
		f.CPU = "cpu"
	}
	if f.Mem == "" {
		f.Mem = "mem"
	}
	switch calculator {
	case "cpu", "mem", "cpu+mem", "none":
	default:
		return nil, fmt.Errorf("fitness calculator %q: want cpu, mem, cpu+mem or none", calculator)
	}
	if r, ok := c.ResourceIndex(f.CPU); ok {
		f.cpu = r
	}
	if r, ok := c.ResourceIndex(f.Mem); ok {
		f.mem = r
	}
	return f, nil
}

func (f *FenzoFitness) Name() string { return "fenzo-fitness" }

func (f *FenzoFitness) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	var soft []*sim.Constraint
	for i := range t.traits().Constraints {
		if c := &t.traits().Constraints[i]; c.Soft {
			soft = append(soft, c)
		}
	}
	for i, n := range cands {
		sum, parts := 0.0, 0
		switch f.Calculator {
		case "cpu":
			sum, parts = packing(l, t, int(n), f.cpu), 1
		case "mem":
			sum, parts = packing(l, t, int(n), f.mem), 1
		case "cpu+mem":
			sum, parts = (packing(l, t, int(n), f.cpu)+packing(l, t, int(n), f.mem))/2, 1
		}
		for _, c := range soft {
			sum += constraintFitness(l, t, c, int(n))
			parts++
		}
		if parts == 0 {
			out[i] = 0
		} else {
			out[i] = sum / float64(parts)
		}
	}
}

// packing is Fenzo's bin-packing fitness of resource r on node n: the
// share of its capacity in use once the task is placed, in [0, 1].
func packing(l *Ledger, t *Task, n, r int) float64 {
	if r < 0 {
		return 0
	}
	capa, ok := l.Cluster.Capacity(n, r)
	if !ok || capa <= 0 {
		return 0
	}
	used := capa - l.Free[n*l.R+r] + demand(t, r)
	return clamp01(float64(used) / float64(capa))
}

// demand is the task's amount of resource r (0 when it does not list it).
func demand(t *Task, r int) sim.Amount {
	for _, q := range t.Need {
		if int(q.Res) == r {
			return q.Amt
		}
	}
	return 0
}

func clamp01(x float64) float64 { return max(0, min(1, x)) }

// NodeLocal: the fitness and, without co-tasks, every soft constraint look
// at one node.
func (*FenzoFitness) NodeLocal() bool { return true }
