package placement

import (
	"fmt"
	"math"

	"github.com/schedsim/schedsim/sim"
)

// ResourceWeight is one resource a resource scorer looks at, with its
// weight in the scorer's average (k8s NodeResourcesFit's resources).
type ResourceWeight struct {
	Name   string
	Weight float64
	index  int
}

// resolveResources checks the names and weights against the cluster.
func resolveResources(c *sim.Cluster, rs []ResourceWeight) ([]ResourceWeight, error) {
	out := make([]ResourceWeight, 0, len(rs))
	for _, r := range rs {
		i, ok := c.ResourceIndex(r.Name)
		if !ok {
			return nil, fmt.Errorf("resource %q: no node has it", r.Name)
		}
		if r.Weight < 0 || math.IsNaN(r.Weight) || math.IsInf(r.Weight, 0) {
			return nil, fmt.Errorf("resource %q: weight must be a finite number ≥ 0", r.Name)
		}
		r.index = i
		out = append(out, r)
	}
	return out, nil
}

// allocation is k8s' least- and most-allocated scoring: the weighted mean
// over resources of the free share (least) or used share (most) after
// placement. Resources a node lacks are left out of its mean.
type allocation struct {
	name      string
	resources []ResourceWeight
	most      bool
}

func (a *allocation) Name() string { return a.name }
func (a *allocation) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	var buf [8]demandOf
	ds := demands(t, a.resources, buf[:0])
	R := l.R
	for i, n := range cands {
		base := int(n) * R
		sum, weights := 0.0, 0.0
		for _, d := range ds {
			inv := l.invCap[base+d.r]
			if inv == 0 {
				continue // the node lacks the resource
			}
			// used share after placement = 1 − (free − demand) / capacity
			f := clamp01(1 - float64(l.Free[base+d.r]-d.amt)*inv)
			if !a.most {
				f = 1 - f
			}
			sum += d.w * f
			weights += d.w
		}
		out[i] = 0
		if weights > 0 {
			out[i] = sum / weights
		}
	}
}

// demandOf is a task's amount of one scored resource and its weight.
type demandOf struct {
	r   int
	amt sim.Amount
	w   float64
}

// demands resolves the task's demand of each scored resource once per
// Score call, not once per node.
func demands(t *Task, rs []ResourceWeight, out []demandOf) []demandOf {
	for _, r := range rs {
		out = append(out, demandOf{r.index, demand(t, r.index), r.Weight})
	}
	return out
}

// balanced is k8s' balanced allocation: 1 − the standard deviation of the
// used shares after placement across the resources (for two resources,
// 1 − |a − b| / 2), so nodes whose resources fill evenly score high.
type balanced struct{ resources []ResourceWeight }

func (b *balanced) Name() string { return "balanced-allocation" }
func (b *balanced) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	var buf [8]demandOf
	ds := demands(t, b.resources, buf[:0])
	var fs [16]float64
	R := l.R
	for i, n := range cands {
		base := int(n) * R
		f := fs[:0]
		for _, d := range ds {
			if inv := l.invCap[base+d.r]; inv != 0 && len(f) < len(fs) {
				f = append(f, clamp01(1-float64(l.Free[base+d.r]-d.amt)*inv))
			}
		}
		if len(f) < 2 {
			out[i] = 1
			continue
		}
		mean := 0.0
		for _, v := range f {
			mean += v
		}
		mean /= float64(len(f))
		variance := 0.0
		for _, v := range f {
			variance += (v - mean) * (v - mean)
		}
		out[i] = clamp01(1 - math.Sqrt(variance/float64(len(f))))
	}
}

// spreadScorer spreads a job's tasks over the values of an attribute
// (zone, rack): 1 − (co-tasks on nodes with this node's value) / (co-tasks
// + 1). Nodes lacking the attribute score 0.
type spreadScorer struct{ attribute string }

func (s *spreadScorer) Name() string { return "spread(" + s.attribute + ")" }
func (s *spreadScorer) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	ids, values := l.Attribute(s.attribute)
	// Counts per value id, on the stack for the usual few values.
	var buf [16]int
	var counts []int
	if len(values) > len(buf) {
		counts = make([]int, len(values))
	} else {
		counts = buf[:len(values)]
	}
	for _, m := range t.Co {
		counts[ids[m]]++
	}
	for i, n := range cands {
		if ids[n] == 0 {
			out[i] = 0
			continue
		}
		out[i] = 1 - float64(counts[ids[n]])/float64(len(t.Co)+1)
	}
}

// taintPreference is k8s' TaintToleration score: 1 / (1 + the number of
// PreferNoSchedule taints the task does not tolerate).
type taintPreference struct{}

func (taintPreference) Name() string { return "taint-preference" }
func (taintPreference) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	tol := t.traits().Tolerations
	for i, n := range cands {
		out[i] = 1 / float64(1+untolerated(l.Cluster.Nodes[n].Taints, tol, "PreferNoSchedule"))
	}
}

// fewestInstances is LXD's default: the node running the fewest tasks,
// scored 1 / (1 + tasks).
type fewestInstances struct{}

func (fewestInstances) Name() string { return "fewest-instances" }
func (fewestInstances) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	for i, n := range cands {
		out[i] = 1 / float64(1+l.Tasks[n])
	}
}

// dotProduct is Tetris' alignment score: the dot product of the task's
// demand and the node's free amounts, each as a share of the node's
// capacity, divided by the number of resources the task asks for, so it
// lies in [0, 1].
type dotProduct struct{}

func (dotProduct) Name() string { return "dot-product" }
func (dotProduct) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	for i, n := range cands {
		sum, k := 0.0, 0
		for _, q := range t.Need {
			capa, ok := l.Cluster.Capacity(int(n), int(q.Res))
			if !ok || capa <= 0 || q.Amt <= 0 {
				continue
			}
			free := l.Free[int(n)*l.R+int(q.Res)]
			sum += clamp01(float64(q.Amt)/float64(capa)) * clamp01(float64(free)/float64(capa))
			k++
		}
		if k > 0 {
			out[i] = sum / float64(k)
		} else {
			out[i] = 0
		}
	}
}

// Every scorer here depends on one node's state and the task, given no
// co-tasks (spread counts co-tasks: with none it is node-local too).
func (*allocation) NodeLocal() bool     { return true }
func (*balanced) NodeLocal() bool       { return true }
func (*spreadScorer) NodeLocal() bool   { return true }
func (taintPreference) NodeLocal() bool { return true }
func (fewestInstances) NodeLocal() bool { return true }
func (dotProduct) NodeLocal() bool      { return true }
