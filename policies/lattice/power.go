package lattice

import "github.com/schedsim/schedsim/sim"

// powerBudget is the cluster-level power dimension of the knapsack: a cap
// in watts on the cluster's draw. Each node draws idle_w + (max_w −
// idle_w)·utilization of its power resource (sim.PowerModel), so a job
// adds, on each node it uses, (max_w − idle_w) × its share of that
// resource; the idle draw is paid whether or not a job runs. A job starts
// only when the engine's exact current draw plus what it adds stays within
// the budget.
type powerBudget struct {
	cl     *sim.Cluster
	limitW float64 // 0: no budget
	draw   map[*sim.JobRun]float64
}

func newPowerBudget(cl *sim.Cluster, limitW float64) *powerBudget {
	return &powerBudget{cl: cl, limitW: limitW, draw: map[*sim.JobRun]float64{}}
}

func (p *powerBudget) enabled() bool { return p.limitW > 0 }

// adds is the draw j's tasks add on nodes (one entry per task).
func (p *powerBudget) adds(j *sim.JobRun, nodes []int32) float64 {
	var w float64
	for _, n := range nodes {
		r := p.cl.PowerResource(int(n))
		for _, q := range j.Needs() {
			if int(q.Res) == r {
				w += p.cl.NodeWatts(int(n), q.Amt) - p.cl.NodeWatts(int(n), 0)
			}
		}
	}
	return w
}

// fits reports whether adding w to a draw of base stays within the budget
// (a relative tolerance absorbs float rounding of equal sums).
func (p *powerBudget) fits(base, w float64) bool {
	return !p.enabled() || base+w <= p.limitW*(1+1e-12)
}

func (p *powerBudget) started(j *sim.JobRun, nodes []int32) {
	if p.enabled() {
		p.draw[j] = p.adds(j, nodes)
	}
}

func (p *powerBudget) stopped(j *sim.JobRun) { delete(p.draw, j) }
