package metrics

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// fragGridCells bounds a fragGrid: cells × resources listed, in int64s
// (2 MiB). Larger tables are weighed shape by shape.
const fragGridCells = 1 << 18

// fragGrid answers weigh for a table of several shapes in a few binary
// searches instead of one fit test per shape. A shape fits a node when,
// for every resource r it lists, the node has r (not absent, ≥ 0) and, if
// the shape asks a positive amount, at least that much free. Per listed
// resource, the free amount therefore matters only through its level:
// 0 absent, 1 + how many of the amounts the table asks of r are ≤ it.
// A shape fits exactly when every level is at least the shape's own (0
// for a resource it does not list, 1 for a listed amount ≤ 0, 2 + the
// rank of a positive amount). The grid holds, for every combination of
// levels, Σ count of the fitting shapes that use each resource (a
// positive amount): the dominance sums, built once per table by prefix
// sums along each axis. Then w_r(n) = total − that sum for a listed r,
// total for any other.
type fragGrid struct {
	res    []int32        // listed resources, ascending
	levels [][]sim.Amount // per listed resource: distinct positive amounts asked, ascending
	stride []int          // cell index = Σ level·stride
	sums   []int64        // sums[cell*len(res)+i]: Σ count of fitting shapes using res[i]
}

// newFragGrid builds the grid of table, or returns nil when it would be
// larger than fragGridCells.
func newFragGrid(table []*fragShape) *fragGrid {
	g := &fragGrid{}
	for _, s := range table {
		for i, q := range s.needs {
			if i > 0 && s.needs[i-1].Res == q.Res {
				return nil // a resource listed twice: weigh shape by shape
			}
			if _, found := slices.BinarySearch(g.res, q.Res); !found {
				g.res = append(g.res, q.Res)
				slices.Sort(g.res)
			}
		}
	}
	g.levels = make([][]sim.Amount, len(g.res))
	for _, s := range table {
		for _, q := range s.needs {
			if q.Amt > 0 {
				d := g.dim(q.Res)
				if _, found := slices.BinarySearch(g.levels[d], q.Amt); !found {
					g.levels[d] = append(g.levels[d], q.Amt)
					slices.Sort(g.levels[d])
				}
			}
		}
	}
	cells := 1
	g.stride = make([]int, len(g.res))
	for d := len(g.res) - 1; d >= 0; d-- {
		g.stride[d] = cells
		cells *= len(g.levels[d]) + 2
		if cells*len(g.res) > fragGridCells {
			return nil
		}
	}
	D := len(g.res)
	g.sums = make([]int64, cells*D)
	for _, s := range table {
		cell := 0
		for _, q := range s.needs {
			d := g.dim(q.Res)
			lvl := 1
			if q.Amt > 0 {
				k, _ := slices.BinarySearch(g.levels[d], q.Amt)
				lvl = k + 2
			}
			cell += lvl * g.stride[d]
		}
		for _, q := range s.needs {
			if q.Amt > 0 {
				g.sums[cell*D+g.dim(q.Res)] += s.count
			}
		}
	}
	// Prefix sums along each axis make every cell the sum over the cells
	// it dominates.
	for d := range D {
		size := len(g.levels[d]) + 2
		for cell := range cells {
			if (cell/g.stride[d])%size == 0 {
				continue
			}
			prev := (cell - g.stride[d]) * D
			for i := range D {
				g.sums[cell*D+i] += g.sums[prev+i]
			}
		}
	}
	return g
}

// dim is the grid axis of resource r, which the table lists.
func (g *fragGrid) dim(r int32) int {
	d, _ := slices.BinarySearch(g.res, r)
	return d
}

// weigh sets node n's weights (weight[base+r]) from its free amounts.
func (g *fragGrid) weigh(weight []int64, freeVec []sim.Amount, R, n int, total int64) {
	base := n * R
	for r := range R {
		weight[base+r] = total
	}
	cell := 0
	for d, r := range g.res {
		f := freeVec[base+int(r)]
		if f == sim.Absent || f < 0 {
			continue // level 0
		}
		k, _ := slices.BinarySearchFunc(g.levels[d], f, func(a, f sim.Amount) int {
			if a <= f {
				return -1
			}
			return 1
		})
		cell += (k + 1) * g.stride[d]
	}
	sums := g.sums[cell*len(g.res):]
	for i, r := range g.res {
		weight[base+int(r)] = total - sums[i]
	}
}
