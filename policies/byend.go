package policies

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// byEnd keeps running jobs sorted by projected end (start + estimate, then
// arrival), updated as jobs start and end instead of sorted every pass.
type byEnd []*sim.JobRun

func endKey(j *sim.JobRun) sim.Time { return j.Start + j.EstimatedRuntime() }

func (b byEnd) search(j *sim.JobRun) int {
	k := endKey(j)
	return sort.Search(len(b), func(i int) bool {
		ki := endKey(b[i])
		return ki > k || (ki == k && b[i].Seq >= j.Seq)
	})
}

func (b *byEnd) insert(j *sim.JobRun) {
	i := b.search(j)
	*b = append(*b, nil)
	copy((*b)[i+1:], (*b)[i:])
	(*b)[i] = j
}

func (b *byEnd) remove(j *sim.JobRun) {
	i := b.search(j)
	if i < len(*b) && (*b)[i] == j {
		*b = append((*b)[:i], (*b)[i+1:]...)
	}
}
