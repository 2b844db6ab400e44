package placement

import (
	"math/rand/v2"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// roundRobin is pylighthouse's RoundRobinDistributor: each placement takes
// the first candidate after the node used last, wrapping around. The
// cursor is the distributor's state: it persists across placements.
type roundRobin struct{ last int32 }

func newRoundRobin() *roundRobin { return &roundRobin{last: -1} }

func (r *roundRobin) Pick(l *Ledger, t *Task, cands []int32, scores []float64) int {
	i := sort.Search(len(cands), func(i int) bool { return cands[i] > r.last })
	if i == len(cands) {
		i = 0
	}
	r.last = cands[i]
	return i
}

// randomPick picks a candidate uniformly with its own seeded stream.
type randomPick struct{ rng *rand.Rand }

func newRandomPick(seed uint64) *randomPick {
	return &randomPick{rng: rand.New(rand.NewPCG(seed, 0x706c616365))} // stream "place"
}

func (r *randomPick) Pick(l *Ledger, t *Task, cands []int32, scores []float64) int {
	return r.rng.IntN(len(cands))
}

// binpack is pylighthouse's BinPackDistributor choice: the node with the
// least room, room = Σ rubric[r] · free[r] over the rubric's resources,
// ties by node name (not index: pylighthouse sorts nodes by name).
type binpack struct {
	rubric []ResourceWeight
}

func (b *binpack) room(l *Ledger, n int) float64 {
	sum := 0.0
	for _, r := range b.rubric {
		if f := l.Free[n*l.R+r.index]; f != sim.Absent {
			sum += r.Weight * f.Float()
		}
	}
	return sum
}

func (b *binpack) Pick(l *Ledger, t *Task, cands []int32, scores []float64) int {
	size := 0.0 // the task's rubric score
	for _, r := range b.rubric {
		size += r.Weight * demand(t, r.index).Float()
	}
	best, bestRoom := -1, 0.0
	for i, n := range cands {
		room := b.room(l, int(n))
		if room < size {
			continue // pylighthouse skips nodes smaller than the load
		}
		if best < 0 || room < bestRoom || (room == bestRoom && l.Cluster.Nodes[n].Name < l.Cluster.Nodes[cands[best]].Name) {
			best, bestRoom = i, room
		}
	}
	return best
}
