package gpu

import (
	"fmt"
	"sort"
)

// TaskType is one kind of task of the workload, with its popularity.
type TaskType struct {
	Demand       // CPU, GPUs, GPUMilli, Models; Mem is not part of a type
	Count  int64 // tasks of this type in the workload
}

// TaskTable is the target workload fragmentation is measured against: the
// most popular task types and their counts (popularity p_m = Count/Total).
// As in the paper's simulator, a type is (CPU, GPUs, GPU milli, models):
// memory is not part of it.
type TaskTable struct {
	Types []TaskType // most popular first
	Total int64      // Σ Count
	// cpuOnly is Σ Count over CPU-only types: for them every free GPU is
	// a fragment, whatever the node.
	cpuOnly int64
	gpu     []TaskType // the GPU types
	plan    fragPlan   // the GPU types arranged for frag (fragplan.go)
}

// DefaultPopularity is the share of the workload's tasks the table keeps
// (the paper's simulator: typical pods covering 95% of pods).
const DefaultPopularity = 0.95

// NewTaskTable groups the workload into types, most popular first (ties:
// larger CPU, GPU milli, GPU count, model set first), and keeps the
// smallest prefix that covers popularity (0 < popularity ≤ 1) of the tasks.
func NewTaskTable(workload []Demand, popularity float64) (*TaskTable, error) {
	if !(popularity > 0 && popularity <= 1) {
		return nil, fmt.Errorf("popularity %g: need 0 < p ≤ 1", popularity)
	}
	if len(workload) == 0 {
		return nil, fmt.Errorf("no tasks to build task types from")
	}
	counts := map[Demand]int64{}
	for _, d := range workload {
		d.Mem = 0
		if d.GPUs == 0 {
			d.Models = AnyModel
		}
		counts[d]++
	}
	all := make([]TaskType, 0, len(counts))
	for d, c := range counts {
		all = append(all, TaskType{d, c})
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		switch {
		case a.Count != b.Count:
			return a.Count > b.Count
		case a.CPU != b.CPU:
			return a.CPU > b.CPU
		case a.GPUMilli != b.GPUMilli:
			return a.GPUMilli > b.GPUMilli
		case a.GPUs != b.GPUs:
			return a.GPUs > b.GPUs
		}
		return a.Models > b.Models
	})
	t := &TaskTable{}
	want := popularity * float64(len(workload))
	for _, tt := range all {
		if float64(t.Total) >= want {
			break
		}
		t.add(tt)
	}
	return t, nil
}

// NewTaskTableOf builds a table from given types and counts.
func NewTaskTableOf(types []TaskType) (*TaskTable, error) {
	t := &TaskTable{}
	for _, tt := range types {
		if tt.Count <= 0 {
			return nil, fmt.Errorf("task type with count %d", tt.Count)
		}
		if err := tt.Validate(); err != nil {
			return nil, err
		}
		tt.Mem = 0
		t.add(tt)
	}
	if t.Total == 0 {
		return nil, fmt.Errorf("no task types")
	}
	return t, nil
}

func (t *TaskTable) add(tt TaskType) {
	t.Types = append(t.Types, tt)
	t.Total += tt.Count
	if tt.GPUs == 0 {
		t.cpuOnly += tt.Count
	} else {
		t.gpu = append(t.gpu, tt)
		t.plan.add(tt)
	}
}

// Popularity is type i's share of the table.
func (t *TaskTable) Popularity(i int) float64 { return float64(t.Types[i].Count) / float64(t.Total) }

// units converts fragmentation from table units (count × milli-GPU) to
// GPUs: F = Σ_m p_m F(m) with p_m = Count_m / Total.
func (t *TaskTable) units(f int64) float64 {
	return float64(f) / float64(t.Total) / MilliPerGPU
}
