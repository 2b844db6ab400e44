package external

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// resources maps Batsim's resource ids to the engine's nodes. In the hosts
// model resource i is node i and a job asks for one resource per task; in
// the pool model (one node of many processors, SWF's pool) resource i is
// processor i of node 0 and a job asks for as many as its processors.
type resources struct {
	pool    bool
	poolRes int32 // the pool's resource index (cpu)
	names   []string
	busy    []string // by resource id: the id of the running job holding it, or
}

func newResources(c *sim.Cluster, pool bool) (*resources, error) {
	r := &resources{pool: pool}
	if !pool {
		for _, n := range c.Nodes {
			r.names = append(r.names, n.Name)
		}
		r.busy = make([]string, len(r.names))
		return r, nil
	}
	if len(c.Nodes) != 1 {
		return nil, fmt.Errorf("the pool model needs one node, the cluster has %d", len(c.Nodes))
	}
	idx, ok := c.ResourceIndex("cpu")
	if !ok {
		return nil, fmt.Errorf("the pool node has no cpu resource")
	}
	capa, _ := c.Capacity(0, idx)
	procs := int(capa / sim.Units(1))
	if procs < 1 || procs > 1<<24 {
		return nil, fmt.Errorf("the pool has %s processors: the Batsim protocol needs 1 to %d", capa, 1<<24)
	}
	r.poolRes = int32(idx)
	for i := 0; i < procs; i++ {
		r.names = append(r.names, fmt.Sprintf("%s-%d", c.Nodes[0].Name, i))
	}
	r.busy = make([]string, procs)
	return r, nil
}

// count is the number of resources.
func (r *resources) count() int { return len(r.names) }

// asks is how many resources job j asks for (Batsim's res).
func (r *resources) asks(j *sim.JobRun) int {
	if !r.pool {
		return j.Job.Tasks
	}
	var procs sim.Amount
	for _, q := range j.Needs() {
		if q.Res == r.poolRes {
			procs = q.Amt
		}
	}
	return j.Job.Tasks * int((procs+sim.Units(1)-1)/sim.Units(1))
}

// nodes is where the engine starts a job given its allocation.
func (r *resources) nodes(alloc []int) []int32 {
	if r.pool {
		return []int32{0}
	}
	nodes := make([]int32, len(alloc))
	for i, id := range alloc {
		nodes[i] = int32(id)
	}
	return nodes
}

// firstBusy returns the first resource of alloc held by a running job
// and that job's id, or -1.
func (r *resources) firstBusy(alloc []int) (int, string) {
	for _, id := range alloc {
		if r.busy[id] != "" {
			return id, r.busy[id]
		}
	}
	return -1, ""
}

// hold marks alloc as held by job id.
func (r *resources) hold(alloc []int, job string) {
	for _, id := range alloc {
		r.busy[id] = job
	}
}

// release frees alloc.
func (r *resources) release(alloc []int) {
	for _, id := range alloc {
		r.busy[id] = ""
	}
}
