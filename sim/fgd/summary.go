package fgd

import (
	"math"

	"github.com/schedsim/schedsim/policies/gpu"
)

// Row is one policy's summary over seeds.
type Row struct {
	Policy                     string
	Runs                       int
	At100, SD100, AtEnd, SDEnd float64 // allocation ratio, percent: at 100 % arrived and at the end
	FragEnd                    float64 // fragmentation % of free GPU at the end, mean
}

// Summarize is each policy's row over the seeds of rs, in policies order.
func Summarize(policies []string, rs []*gpu.Result) []Row {
	var rows []Row
	for _, pol := range policies {
		var a100, aEnd, fEnd []float64
		for _, r := range rs {
			if r.Policy != pol {
				continue
			}
			if p, ok := r.At(100); ok {
				a100 = append(a100, 100*r.Alloc(p))
			}
			p := r.Points[len(r.Points)-1]
			aEnd = append(aEnd, 100*r.Alloc(p))
			fEnd = append(fEnd, 100*p.FragRatio)
		}
		row := Row{Policy: pol, Runs: len(aEnd)}
		row.At100, row.SD100 = meanSD(a100)
		row.AtEnd, row.SDEnd = meanSD(aEnd)
		row.FragEnd, _ = meanSD(fEnd)
		rows = append(rows, row)
	}
	return rows
}

// meanSD is the mean and the sample standard deviation (0 for one value).
func meanSD(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	m := s / float64(len(xs))
	if len(xs) == 1 {
		return m, 0
	}
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}
