package tune

import "math"

// FrontPoint is a point of the Pareto front and how many other evaluated
// profiles gave exactly the same metrics (weights that differ but order
// the queue alike).
type FrontPoint struct {
	*Point
	Same int
}

// Pareto returns the non-dominated points of pts on the axes, in the
// order of pts. A point dominates another when it is at least as good on
// every axis and better on one. Points missing an axis are left out;
// points with equal metrics are shown once (the first).
func Pareto(pts []*Point, axes []Axis) []FrontPoint {
	var cands []*Point
	for _, p := range pts {
		if p.Invalid {
			continue
		}
		ok := true
		for _, a := range axes {
			v, has := p.Metrics[a.Metric]
			ok = ok && has && !math.IsNaN(v)
		}
		if ok {
			cands = append(cands, p)
		}
	}
	var front []FrontPoint
	for i, p := range cands {
		dominated, first := false, true
		same := 0
		for j, q := range cands {
			if i == j {
				continue
			}
			switch compareOn(q, p, axes) {
			case 1:
				dominated = true
			case 0:
				same++
				if j < i {
					first = false
				}
			}
		}
		if !dominated && first {
			front = append(front, FrontPoint{p, same})
		}
	}
	return front
}

// compareOn returns 1 when a dominates b, 0 when they are equal on every
// axis, −1 otherwise.
func compareOn(a, b *Point, axes []Axis) int {
	better, worse := false, false
	for _, ax := range axes {
		x, y := a.Metrics[ax.Metric], b.Metrics[ax.Metric]
		if ax.Higher {
			x, y = -x, -y
		}
		switch {
		case x < y:
			better = true
		case x > y:
			worse = true
		}
	}
	switch {
	case !better && !worse:
		return 0
	case better && !worse:
		return 1
	}
	return -1
}
