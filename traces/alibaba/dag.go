package alibaba

import (
	"container/heap"
	"errors"
	"fmt"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// jobGroup is one job's tasks while the reader holds them.
type jobGroup struct {
	name   string
	seq    int64    // order of first appearance: the tie-breaker
	submit sim.Time // earliest start of its tasks
	tasks  []*taskRow
	// skipped holds the numbers of its DAG tasks skipped as bad records,
	// so that their dependents can say why they go too.
	skipped map[int]bool
	index   int // in the reader's heap
}

// Reasons a task is dropped when its job's DAG is resolved.
var (
	errDupNumber  = errors.New("task number given twice in the job")
	errDepMissing = errors.New("depends on a task the job does not have")
	errDepSkipped = errors.New("depends on a skipped task")
	errCycle      = errors.New("in a dependency cycle, or waits on one")
)

// build turns a job's tasks into sim.Jobs, one per task, all submitted at
// the job's first start, each waiting for the tasks its name lists. Jobs
// come out in a topological order (a task after everything it waits for),
// ties in file order, because the engine resolves a dependency to an
// earlier job. A task whose dependencies cannot be resolved is a bad
// record; so is every task that waits on it.
func (r *Reader) build(g *jobGroup) ([]*sim.Job, error) {
	n := len(g.tasks)
	alive := make([]bool, n)
	byNum := map[int]int{} // task number → index in g.tasks
	for i, t := range g.tasks {
		alive[i] = true
		if !t.parsed.DAG {
			continue
		}
		if first, dup := byNum[t.parsed.Num]; dup {
			if err := r.reject(r.tasks.Name, t.line, "task_name", withDetails(errDupNumber,
				fmt.Sprintf("job %s has task %d as %s (line %d) and %s", g.name, t.parsed.Num, g.tasks[first].name, g.tasks[first].line, t.name))); err != nil {
				return nil, err
			}
			alive[i] = false
			continue
		}
		byNum[t.parsed.Num] = i
	}
	indeg := make([]int, n)
	dependents := make([][]int, n)
	for i, t := range g.tasks {
		if !alive[i] {
			continue
		}
		for _, d := range t.parsed.Deps {
			j, ok := byNum[d]
			if !ok {
				reason, why := errDepMissing, fmt.Sprintf("%s waits for task %d, which is not among job %s's rows (they must lie within the reorder window)", t.name, d, g.name)
				if g.skipped[d] {
					reason, why = errDepSkipped, fmt.Sprintf("%s waits for task %d of job %s, skipped as a bad record", t.name, d, g.name)
				}
				if err := r.reject(r.tasks.Name, t.line, "task_name", withDetails(reason, why)); err != nil {
					return nil, err
				}
				alive[i] = false
				break
			}
			indeg[i]++
			dependents[j] = append(dependents[j], i)
		}
	}
	// Kahn's algorithm, ready tasks in file order.
	var ready indexHeap
	for i := range g.tasks {
		if alive[i] && indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	heap.Init(&ready)
	done := make([]bool, n)
	jobs := make([]*sim.Job, 0, n)
	for ready.Len() > 0 {
		i := heap.Pop(&ready).(int)
		done[i] = true
		jobs = append(jobs, r.job(g, g.tasks[i], byNum))
		for _, k := range dependents[i] {
			// A task dropped after it counted this dependency (a later
			// one of its dependencies was missing) is never ready.
			if indeg[k]--; indeg[k] == 0 && alive[k] {
				heap.Push(&ready, k)
			}
		}
	}
	if err := r.rejectLeftovers(g, alive, done, byNum); err != nil {
		return nil, err
	}
	return jobs, nil
}

// rejectLeftovers reports the tasks Kahn's algorithm could not order:
// those waiting on a dropped task, and those in (or after) a cycle.
func (r *Reader) rejectLeftovers(g *jobGroup, alive, done []bool, byNum map[int]int) error {
	// A leftover waits on a dropped task when one of its dependencies was
	// dropped or waits on one itself: spread until nothing changes.
	afterDropped := make([]bool, len(g.tasks))
	for changed := true; changed; {
		changed = false
		for i, t := range g.tasks {
			if !alive[i] || done[i] || afterDropped[i] {
				continue
			}
			for _, d := range t.parsed.Deps {
				if j := byNum[d]; !alive[j] || afterDropped[j] {
					afterDropped[i], changed = true, true
					break
				}
			}
		}
	}
	for i, t := range g.tasks {
		if !alive[i] || done[i] {
			continue
		}
		reason, why := errCycle, ""
		if afterDropped[i] {
			reason = errDepSkipped
		} else if r.opt.Strict {
			why = cyclePath(g, i, alive, done, byNum)
		}
		if err := r.reject(r.tasks.Name, t.line, "task_name", withDetails(reason, why)); err != nil {
			return err
		}
	}
	return nil
}

// cyclePath follows the undone dependencies of task i until one repeats
// and names the way: "job j_1: M9_7 → M7_8 → M8_7 → M7_8".
func cyclePath(g *jobGroup, i int, alive, done []bool, byNum map[int]int) string {
	seen := map[int]bool{}
	var names []string
	for {
		names = append(names, g.tasks[i].name)
		if seen[i] {
			return fmt.Sprintf("job %s: %s", g.name, strings.Join(names, " → "))
		}
		seen[i] = true
		next := -1
		for _, d := range g.tasks[i].parsed.Deps {
			if j := byNum[d]; alive[j] && !done[j] {
				next = j
				break
			}
		}
		if next < 0 {
			return fmt.Sprintf("job %s: %s", g.name, strings.Join(names, " → "))
		}
		i = next
	}
}

// job makes the sim.Job of task t of job g (see the package doc).
func (r *Reader) job(g *jobGroup, t *taskRow, byNum map[int]int) *sim.Job {
	j := &sim.Job{
		ID:       g.name + "/" + t.name,
		Submit:   g.submit,
		Runtime:  t.runtime,
		Walltime: sim.NoWalltime,
		Tasks:    t.instances,
		Request:  []sim.Quantity{{Resource: "cpu", Amount: t.cpu}, {Resource: "mem", Amount: t.mem}},
		Group:    g.name,
		Queue:    t.taskType,
	}
	if len(t.parsed.Deps) > 0 {
		j.DependsOn = make([]sim.Dependency, len(t.parsed.Deps))
		for k, d := range t.parsed.Deps {
			j.DependsOn[k] = sim.Dependency{ID: g.name + "/" + g.tasks[byNum[d]].name}
		}
	}
	return j
}

// indexHeap is a min-heap of task indices.
type indexHeap []int

func (h indexHeap) Len() int           { return len(h) }
func (h indexHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h indexHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *indexHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *indexHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// groupHeap orders the jobs held by the reader by (submit, first
// appearance).
type groupHeap []*jobGroup

func (h groupHeap) Len() int { return len(h) }
func (h groupHeap) Less(i, j int) bool {
	if h[i].submit != h[j].submit {
		return h[i].submit < h[j].submit
	}
	return h[i].seq < h[j].seq
}
func (h groupHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *groupHeap) Push(x any) {
	g := x.(*jobGroup)
	g.index = len(*h)
	*h = append(*h, g)
}
func (h *groupHeap) Pop() any {
	old := *h
	g := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return g
}
