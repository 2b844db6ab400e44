package metrics

import (
	"math"
	"math/bits"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// Fragmentation: the share of the cluster's free capacity that a typical
// task cannot use. It generalises Weng et al.'s fragmentation (ATC'23,
// "Beware of Fragmentation", §3) from GPUs to every resource, at node
// level:
//
//   - The typical task is the distribution M of task shapes (a task's
//     compiled request, cluster defaults included) of the jobs submitted so
//     far, each job counting its task count: the most popular shapes that
//     cover popularity (95%, as the paper's typical pods) of those tasks.
//     A replay streams its trace, so M is rebuilt whenever the tasks seen
//     reach a power of two (1, 2, 4, …): it follows the trace with a
//     logarithmic number of rebuilds, as the fgd placement learns its table.
//   - Node n's free amount f_r(n) of resource r is a fragment to shape m
//     when m cannot use it: m does not fit on n (sim.TasksFittingIn, the
//     engine's fit on n's free amounts) or m asks for none of r. This is
//     the paper's F_n(m) for GPUs in quadrants I, II and IV (a task that
//     does not fit, or asks no GPU, leaves every free GPU a fragment).
//     Quadrant III (a fitting task cannot use the GPUs that each hold less
//     than its share) needs each GPU's free milli; the engine keeps a
//     node's GPUs as one amount, so it is not counted: the value is exact
//     when GPU tasks ask whole GPUs.
//   - F_r(n) = Σ_m p_m · [f_r(n) is a fragment to m] · f_r(n), with p_m the
//     share of m's tasks in M; the cluster's fragmentation of r is
//     Σ_n F_r(n) / Σ_n f_r(n), over the nodes that are up and not drained
//     (leaves only: their ancestors' capacity, and immunities, are not
//     considered).
//
// The sums are exact: Σ_n f_r(n)·w_r(n), with w_r(n) = Σ_m count_m · [...]
// in tasks, is kept in 128-bit integers and updated only for the nodes
// whose free amounts changed.
const fragPopularity = 0.95

// maxShapes bounds the distinct task shapes counted: beyond it new shapes
// are ignored (they are rare by then, and the memory stays bounded).
const maxShapes = 1 << 16

type fragShape struct {
	needs []sim.Need
	count int64 // tasks of this shape seen
	first int   // first-seen rank: the tie-breaker
}

// fragTracker measures fragmentation at every step.
type fragTracker struct {
	c  *sim.Cluster
	R  int
	on bool // some job was seen: the table exists

	shapes  map[string]*fragShape
	keyBuf  []byte       // count's key, reused
	ranked  []*fragShape // every shape, first-seen order
	counted int64        // tasks counted

	table []*fragShape // M: the most popular shapes, with their counts at the last rebuild
	total int64        // Σ count over M
	// single: every shape of M asks for one resource, single.res, a
	// positive amount: w is then a binary search in amounts (sorted) over
	// the prefix counts of the shapes asking more (above).
	single struct {
		ok      bool
		res     int32
		amounts []sim.Amount
		above   []int64 // above[i] = Σ count of amounts[i:]
	}

	// grid, when not nil, weighs a table of several shapes (fraggrid.go).
	grid *fragGrid

	free    []sim.Amount // free[n*R+r] counted, ≥ 0
	weight  []int64      // w[n*R+r]
	touched []int32      // the nodes to measure at this step
	all     bool         // every node needs measuring (table rebuilt)
	// image is the engine's free vector and online the nodes' state, as
	// of the last step: the steps' copies (feed.go) bring the nodes that
	// changed up to date.
	image  []sim.Amount
	online []bool

	fragSum []u128       // Σ_n free·w per resource, milli·tasks
	freeSum []sim.Amount // Σ_n free per resource

	lastT            sim.Time
	started          bool
	fragInt, freeInt []float64 // ∫ fragmented dt, ∫ free dt (units·s)
}

func newFragTracker(c *sim.Cluster) *fragTracker {
	N, R := len(c.Nodes), len(c.Resources)
	return &fragTracker{
		c: c, R: R, shapes: map[string]*fragShape{},
		free: make([]sim.Amount, N*R), weight: make([]int64, N*R), image: make([]sim.Amount, N*R), online: make([]bool, N),
		fragSum: make([]u128, R), freeSum: make([]sim.Amount, R), fragInt: make([]float64, R), freeInt: make([]float64, R),
	}
}

// learn counts the shapes of the jobs submitted since the last step (not
// rejected), and rebuilds M when the tasks counted reach a power of two.
func (f *fragTracker) learn(shapes []jobShape) {
	before := f.counted
	for _, s := range shapes {
		f.count(s.needs, s.tasks)
	}
	if f.counted > 0 && bits.Len64(uint64(before)) != bits.Len64(uint64(f.counted)) {
		f.rebuild()
	}
}

// count adds tasks tasks of shape needs.
func (f *fragTracker) count(needs []sim.Need, tasks int64) {
	f.keyBuf = sim.AppendRequestKey(f.keyBuf[:0], needs, nil)
	s, ok := f.shapes[string(f.keyBuf)] // no allocation for the lookup
	if !ok {
		if len(f.ranked) >= maxShapes {
			return
		}
		s = &fragShape{needs: slices.Clone(needs), first: len(f.ranked)}
		f.shapes[string(f.keyBuf)] = s
		f.ranked = append(f.ranked, s)
	}
	s.count += tasks
	f.counted += tasks
}

// rebuild makes M the most popular shapes covering fragPopularity of the
// tasks counted (ties: first seen first).
func (f *fragTracker) rebuild() {
	order := slices.Clone(f.ranked)
	slices.SortStableFunc(order, func(a, b *fragShape) int {
		switch {
		case a.count != b.count:
			if a.count > b.count {
				return -1
			}
			return 1
		}
		return a.first - b.first
	})
	f.table, f.total = f.table[:0], 0
	want := fragPopularity * float64(f.counted)
	for _, s := range order {
		if float64(f.total) >= want {
			break
		}
		// A copy: M's counts hold until the next rebuild, as f.total
		// does, so every node is weighed against the same M.
		f.table = append(f.table, &fragShape{needs: s.needs, count: s.count, first: s.first})
		f.total += s.count
	}
	f.on, f.all = true, true
	f.single.ok = true
	for _, s := range f.table {
		if len(s.needs) != 1 || s.needs[0].Amt <= 0 || s.needs[0].Res != f.table[0].needs[0].Res {
			f.single.ok = false
			break
		}
	}
	f.grid = nil
	if !f.single.ok && len(f.table) > 1 {
		f.grid = newFragGrid(f.table)
	}
	if f.single.ok {
		f.single.res = f.table[0].needs[0].Res
		byAmt := slices.Clone(f.table)
		slices.SortFunc(byAmt, func(a, b *fragShape) int { return int(min(max(a.needs[0].Amt-b.needs[0].Amt, -1), 1)) })
		f.single.amounts = f.single.amounts[:0]
		f.single.above = make([]int64, len(byAmt)+1)
		for _, s := range byAmt {
			f.single.amounts = append(f.single.amounts, s.needs[0].Amt)
		}
		for i := len(byAmt) - 1; i >= 0; i-- {
			f.single.above[i] = f.single.above[i+1] + byAmt[i].count
		}
	}
}

// step brings the sums up to date after the pass at now, as v copies it:
// it integrates the state that held since the last step, counts new
// shapes, and re-measures the nodes that changed.
func (f *fragTracker) step(now sim.Time, v stepView) {
	R := f.R
	f.touched = f.touched[:0]
	for i, t := range v.touched {
		copy(f.image[int(t.n)*R:int(t.n+1)*R], v.free[i*R:(i+1)*R])
		f.online[t.n] = t.online
		if t.changed {
			f.touched = append(f.touched, t.n)
		}
	}
	if v.submittedSinceStep == 0 && len(f.touched) == 0 {
		return
	}
	f.advance(now)
	f.learn(v.shapes)
	if !f.on {
		return
	}
	if f.all {
		f.all = false
		for n := range f.c.Nodes {
			f.measure(n, f.image, f.online[n])
		}
	} else {
		for _, n := range f.touched {
			f.measure(int(n), f.image, f.online[n])
		}
	}
}

// advance integrates fragmented and free capacity up to t.
func (f *fragTracker) advance(t sim.Time) {
	if f.started && t > f.lastT && f.on {
		dt := (t - f.lastT).Seconds()
		for r := range f.fragSum {
			f.fragInt[r] += f.fragSum[r].float() / float64(f.total) / float64(sim.Milli) * dt
			f.freeInt[r] += f.freeSum[r].Float() * dt
		}
	}
	if !f.started || t > f.lastT {
		f.lastT, f.started = t, true
	}
}

// measure re-counts node n's free amounts and weights.
func (f *fragTracker) measure(n int, freeVec []sim.Amount, online bool) {
	R := f.R
	base := n * R
	for r := 0; r < R; r++ {
		if old := f.free[base+r]; old > 0 {
			f.fragSum[r].sub(mul128(old, f.weight[base+r]))
			f.freeSum[r] -= old
		}
		f.free[base+r], f.weight[base+r] = 0, 0
	}
	if !online || f.c.IsParent(n) {
		return
	}
	for r := 0; r < R; r++ {
		if a := freeVec[base+r]; a > 0 && a != sim.Absent {
			f.free[base+r] = a
		}
	}
	f.weigh(n, freeVec)
	for r := 0; r < R; r++ {
		if a := f.free[base+r]; a > 0 {
			f.fragSum[r].add(mul128(a, f.weight[base+r]))
			f.freeSum[r] += a
		}
	}
}

// weigh sets w_r(n) for every r: the tasks of M to which n's free r is a
// fragment.
func (f *fragTracker) weigh(n int, freeVec []sim.Amount) {
	R, base := f.R, n*f.R
	if f.single.ok {
		// Shapes ask for res only: r ≠ res is a fragment to all of them,
		// res to those asking more than n has free.
		for r := 0; r < R; r++ {
			f.weight[base+r] = f.total
		}
		have := freeVec[base+int(f.single.res)]
		if have == sim.Absent {
			return
		}
		i, _ := slices.BinarySearchFunc(f.single.amounts, have, func(a, t sim.Amount) int {
			if a <= t {
				return -1
			}
			return 1
		})
		f.weight[base+int(f.single.res)] = f.single.above[i]
		return
	}
	if f.grid != nil {
		f.grid.weigh(f.weight, freeVec, R, n, f.total)
		return
	}
	for _, s := range f.table {
		fits := sim.TasksFittingIn(freeVec, R, n, s.needs, 1) >= 1
		k := 0
		for r := 0; r < R; r++ {
			for k < len(s.needs) && int(s.needs[k].Res) < r {
				k++
			}
			uses := k < len(s.needs) && int(s.needs[k].Res) == r && s.needs[k].Amt > 0
			if !fits || !uses {
				f.weight[base+r] += s.count
			}
		}
	}
}

// ratio is resource r's fragmentation now; NaN when nothing is free or no
// task was seen yet.
func (f *fragTracker) ratio(r int) float64 {
	if !f.on || f.freeSum[r] <= 0 {
		return math.NaN()
	}
	return f.fragSum[r].float() / float64(f.total) / float64(f.freeSum[r])
}

// mean is resource r's fragmentation over the run: ∫ fragmented dt / ∫
// free dt; NaN when nothing was ever free.
func (f *fragTracker) mean(r int) float64 {
	if f.freeInt[r] <= 0 {
		return math.NaN()
	}
	return f.fragInt[r] / f.freeInt[r]
}

// u128 is an unsigned 128-bit integer: exact sums of amount × tasks.
type u128 struct{ hi, lo uint64 }

func mul128(a sim.Amount, w int64) u128 {
	hi, lo := bits.Mul64(uint64(a), uint64(w))
	return u128{hi, lo}
}

func (x *u128) add(y u128) {
	var c uint64
	x.lo, c = bits.Add64(x.lo, y.lo, 0)
	x.hi, _ = bits.Add64(x.hi, y.hi, c)
}

func (x *u128) sub(y u128) {
	var b uint64
	x.lo, b = bits.Sub64(x.lo, y.lo, 0)
	x.hi, _ = bits.Sub64(x.hi, y.hi, b)
}

func (x u128) float() float64 { return float64(x.hi)*0x1p64 + float64(x.lo) }
