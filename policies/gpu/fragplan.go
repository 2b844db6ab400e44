package gpu

import (
	"cmp"
	"slices"
)

// fragPlan arranges the table's GPU types for frag, which FGD calls for
// every candidate node and GPU of every placement. Per node model it
// holds the total count of the types that model cannot serve (each
// counts every free milli) and the types it can; the per-GPU tests
// ("how many GPUs have at least m milli free, and how much is on the
// others") are made once per distinct per-GPU milli, not once per type.
// frag sums the same integer terms as the definition, so it gives the
// same value.
type fragPlan struct {
	millis  []int32 // distinct per-GPU milli of the GPU types, as met
	rising  []int   // positions in millis, by increasing milli
	byModel [maxModels + 1]modelPlan
}

// modelPlan is the plan for one node model: byModel[id] for catalog ids,
// byModel[maxModels] for a node whose id no set can name (−1).
type modelPlan struct {
	barred int64 // Σ Count of the types whose model set excludes the model
	types  []plannedType
}

// plannedType is a GPU type a model may serve.
type plannedType struct {
	cpu   int64 // milli-CPU it needs
	gpus  int   // GPUs it needs with milli free each
	milli int   // index of its per-GPU milli in fragPlan.millis
	count int64
}

// add files GPU type tt.
func (p *fragPlan) add(tt TaskType) {
	k := -1
	for i, m := range p.millis {
		if m == tt.GPUMilli {
			k = i
		}
	}
	if k < 0 {
		k = len(p.millis)
		p.millis = append(p.millis, tt.GPUMilli)
		p.rising = append(p.rising, k)
		slices.SortFunc(p.rising, func(a, b int) int { return cmp.Compare(p.millis[a], p.millis[b]) })
	}
	for slot := range p.byModel {
		id := slot
		if slot == maxModels {
			id = -1
		}
		mp := &p.byModel[slot]
		if !tt.Models.Allows(id) {
			mp.barred += tt.Count
			continue
		}
		mp.types = append(mp.types, plannedType{cpu: tt.CPU, gpus: tt.GPUs, milli: k, count: tt.Count})
	}
}

// forModel returns the plan of a node of catalog id model.
func (p *fragPlan) forModel(model int) *modelPlan {
	if model < 0 || model >= maxModels {
		return &p.byModel[maxModels]
	}
	return &p.byModel[model]
}

// perMilli fills fit[k] with how many of the free amounts are at least
// millis[k], and small[k] with the sum of the others: one pass over the
// amounts sorted, the millis taken in increasing order.
func (p *fragPlan) perMilli(free []int32, fit []int, small []int64) {
	var buf [MaxGPUs]int32
	sorted := buf[:len(free)]
	copy(sorted, free)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	below, sum := 0, int64(0)
	for _, k := range p.rising {
		m := p.millis[k]
		for below < len(sorted) && sorted[below] < m {
			sum += int64(sorted[below])
			below++
		}
		fit[k], small[k] = len(sorted)-below, sum
	}
}
