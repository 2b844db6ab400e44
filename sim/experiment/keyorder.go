package experiment

import (
	"container/heap"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// A run key is one segment per axis, concatenated: the trace's name, then
// "__cluster", "__queue", …, "__name=value" per parameter and
// "__seed=N". walk enumerates the keys of a product of axes in byte order
// without sorting them. Whatever follows an axis starts with "__", so
// with each axis's choices sorted by segment+"__" the keys come in order
// axis by axis (as "1__" < "1.5__" < "10__" although "1" is a prefix of
// both), except where one segment+"__" is a prefix of another's: a name
// or value ending in "_" beside the same without it (a and a_), or one
// holding "__" (x and x__y). Such choices form a group whose keys
// interleave, and walk merges the group's streams. Memory is that of the
// axes, plus, in such a group only, one stream per choice. The replica
// axis is last: nothing follows seg=N, so its segments sort as they are
// (seed=1, seed=10, seed=2).

// keySep starts every segment but the first.
const keySep = "__"

// keyAxis is one axis of the key: its choices sorted by segment+"__",
// cut into groups whose segment+"__" starts with the group's first one's.
type keyAxis struct {
	groups [][]keyChoice
	// replicas > 0 makes this the replica axis: segments __seed=1 …
	// __seed=replicas, made in byte order rather than stored, as the
	// last axis.
	replicas int
}

// keyChoice is one value of an axis: its key segment, its index among the
// axis's values, and the axis that follows it (nil: the key ends).
type keyChoice struct {
	seg  string
	idx  int
	next *keyAxis
}

// newKeyAxis makes an axis of segs (value i's segment is segs[i]),
// followed by next(i).
func newKeyAxis(segs []string, next func(i int) *keyAxis) *keyAxis {
	choices := make([]keyChoice, len(segs))
	for i, s := range segs {
		choices[i] = keyChoice{seg: s, idx: i, next: next(i)}
	}
	slices.SortStableFunc(choices, func(a, b keyChoice) int { return strings.Compare(a.seg+keySep, b.seg+keySep) })
	a := &keyAxis{}
	// Sorted, the choices whose segment+"__" starts with a given one's
	// follow it at once.
	for i := 0; i < len(choices); {
		j := i + 1
		for j < len(choices) && strings.HasPrefix(choices[j].seg+keySep, choices[i].seg+keySep) {
			j++
		}
		a.groups = append(a.groups, choices[i:j])
		i = j
	}
	return a
}

// replicaSeg is the key's last segment, replica r's.
const replicaSeg = keySep + "seed="

// walk calls yield with every key of the axes from a on, appended to key,
// in byte order, with the index of each axis's value appended to path;
// yield must copy what it keeps. It stops when yield returns false.
func walk(a *keyAxis, key []byte, path []int, yield func(key []byte, path []int) bool) bool {
	if a == nil {
		return yield(key, path)
	}
	if a.replicas > 0 {
		return eachReplica(a.replicas, func(r int) bool {
			k := strconv.AppendInt(append(key, replicaSeg...), int64(r), 10)
			return yield(k, append(path, r))
		})
	}
	for _, g := range a.groups {
		if len(g) == 1 {
			if !walk(g[0].next, append(key, g[0].seg...), append(path, g[0].idx), yield) {
				return false
			}
			continue
		}
		if !mergeGroup(g, key, path, yield) {
			return false
		}
	}
	return true
}

// mergeGroup walks the choices of one group, each a sorted stream of its
// own, and yields their keys merged in byte order.
func mergeGroup(g []keyChoice, key []byte, path []int, yield func([]byte, []int) bool) bool {
	var h streams
	defer func() {
		for _, s := range h {
			s.stop()
		}
	}()
	for _, c := range g {
		next, stop := iter.Pull2(func(y func(string, []int) bool) {
			walk(c.next, []byte(c.seg), []int{c.idx}, func(k []byte, p []int) bool {
				return y(string(k), slices.Clone(p))
			})
		})
		s := &stream{next: next, stop: stop}
		if s.advance() {
			h = append(h, s)
		} else {
			stop()
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		s := h[0]
		if !yield(append(key, s.key...), append(path, s.path...)) {
			return false
		}
		if s.advance() {
			heap.Fix(&h, 0)
		} else {
			s.stop()
			heap.Pop(&h)
		}
	}
	return true
}

// stream is one choice's keys (from its segment on) during a merge.
type stream struct {
	key  string
	path []int
	next func() (string, []int, bool)
	stop func()
}

func (s *stream) advance() bool {
	var ok bool
	s.key, s.path, ok = s.next()
	return ok
}

// streams is a heap of streams by their current key.
type streams []*stream

func (h streams) Len() int           { return len(h) }
func (h streams) Less(i, j int) bool { return h[i].key < h[j].key }
func (h streams) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *streams) Push(x any)        { *h = append(*h, x.(*stream)) }
func (h *streams) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}

// eachReplica calls f with 1 … n in the byte order of their decimal texts
// (1, 10, 100, 11, …, 2, 20, …), as keys ending in seed=N sort, without
// storing them.
func eachReplica(n int, f func(int) bool) bool {
	cur := 1
	for range n {
		if !f(cur) {
			return false
		}
		if cur <= n/10 {
			cur *= 10
			continue
		}
		for cur%10 == 9 || cur >= n {
			cur /= 10
		}
		cur++
	}
	return true
}
