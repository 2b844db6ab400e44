package gpu

import (
	"math/rand/v2"
	"testing"
)

// fragByDefinition is F_n(M) in table units computed type by type, as
// frag.go's comment defines it, without the plan.
func fragByDefinition(t *TaskTable, model int, freeCPU int64, free []int32) int64 {
	var total int64
	for _, f := range free {
		total += int64(f)
	}
	if total == 0 {
		return 0
	}
	out := t.cpuOnly * total
	for _, m := range t.gpu {
		if freeCPU < m.CPU || !m.Models.Allows(model) {
			out += m.Count * total
			continue
		}
		fit, small := 0, int64(0)
		for _, f := range free {
			if f >= m.GPUMilli {
				fit++
			} else {
				small += int64(f)
			}
		}
		if fit < m.GPUs {
			out += m.Count * total
		} else {
			out += m.Count * small
		}
	}
	return out
}

// TestFragPlanMatchesDefinition compares frag with the type-by-type sum
// on random tables (model sets, repeated per-GPU millis) and nodes.
func TestFragPlanMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	millis := []int32{50, 100, 250, 300, 500, 1000}
	for table := 0; table < 50; table++ {
		var types []TaskType
		for i := 0; i < 1+rng.IntN(30); i++ {
			d := Demand{CPU: int64(rng.IntN(8)) * 1000}
			if rng.IntN(4) > 0 {
				d.GPUMilli = millis[rng.IntN(len(millis))]
				d.GPUs = 1
				if d.GPUMilli == MilliPerGPU {
					d.GPUs = 1 + rng.IntN(8)
				}
				if rng.IntN(2) == 0 {
					d.Models = constrained | ModelSet(rng.Uint64N(1<<4))
				}
			}
			types = append(types, TaskType{d, int64(1 + rng.IntN(100))})
		}
		tt, err := NewTaskTableOf(types)
		if err != nil {
			t.Fatal(err)
		}
		for node := 0; node < 200; node++ {
			free := make([]int32, rng.IntN(9))
			for i := range free {
				free[i] = int32(rng.IntN(21)) * 50
			}
			model := rng.IntN(5) - 1 // −1: a node no set names
			cpu := int64(rng.IntN(9)) * 1000
			if got, want := tt.frag(model, cpu, free), fragByDefinition(tt, model, cpu, free); got != want {
				t.Fatalf("table %d, model %d, cpu %d, free %v: frag %d, by definition %d", table, model, cpu, free, got, want)
			}
		}
	}
}
