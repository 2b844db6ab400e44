package report

import (
	"math"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestTimeBinsMerge: a submit past maxBins hours merges pairs of bins.
func TestTimeBinsMerge(t *testing.T) {
	b := newTimeBins(3600 * sim.Second)
	for _, h := range []sim.Time{0, 1, 20000} {
		b.add(h * 3600 * sim.Second)
	}
	// 20000 h ≥ 16384 bins of 1 h: width 2 h, hours 0 and 1 in bin 0,
	// hour 20000 in bin 10000.
	if b.Width != 7200*sim.Second || len(b.Counts) != 10001 || b.Counts[0] != 2 || b.Counts[10000] != 1 {
		t.Errorf("width %s, %d bins, first %d, last %d; want 7200 s, 10001, 2, 1", b.Width, len(b.Counts), b.Counts[0], b.Counts[len(b.Counts)-1])
	}
}

// TestSampleBeyondCap: past sampleCap values the quantiles come from a
// reservoir; count, sum, min and max stay exact.
func TestSampleBeyondCap(t *testing.T) {
	s := newSample(1)
	n := sampleCap + sampleCap/2
	for i := range n {
		s.add(float64(i))
	}
	if s.Exact() || s.Count != int64(n) || s.Min != 0 || s.Max != float64(n-1) || len(s.Values()) != sampleCap {
		t.Fatalf("exact %v count %d min %g max %g kept %d", s.Exact(), s.Count, s.Min, s.Max, len(s.Values()))
	}
	// Values 0…n−1: the median is (n−1)/2, the mean too. A uniform sample
	// of 2^20 has a median within a fraction of a percent of it.
	if med := s.Quantile(0.5); math.Abs(med-float64(n-1)/2) > 0.005*float64(n) {
		t.Errorf("median %g, want ≈ %g", med, float64(n-1)/2)
	}
	if s.Mean() != float64(n-1)/2 {
		t.Errorf("mean %g, want %g", s.Mean(), float64(n-1)/2)
	}
}

// TestInspectFiguresEdgeCases: zero runtimes, one value, negative and
// zero requests, and a single job all draw.
func TestInspectFiguresEdgeCases(t *testing.T) {
	for _, jobs := range [][]*sim.Job{
		{{Submit: 0, Runtime: 0, Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: -1000}, {Resource: "tag", Amount: 0}}}},
		{
			{Submit: 0, Runtime: 0, Tasks: 3, Request: []sim.Quantity{{Resource: "gpu", Amount: 500}}},
			{Submit: 5 * sim.Second, Runtime: 2 * sim.Second, Tasks: 1, Request: []sim.Quantity{{Resource: "gpu", Amount: 500}}},
		},
	} {
		s := NewTraceStats()
		for _, j := range jobs {
			s.Add(j)
		}
		written, err := WriteInspect(t.TempDir(), s, TraceInfo{Name: "t", Format: "native"})
		if err != nil {
			t.Fatal(err)
		}
		// arrivals, by hour, runtime, sizes, one per resource with a
		// non-zero request (not the tag), summary.txt
		drawn := 0
		for _, r := range s.Resources {
			if r.PerTask.Max != 0 {
				drawn++
			}
		}
		if drawn == len(s.Resources) && len(jobs) == 1 {
			t.Fatal("the tag resource is drawn")
		}
		if want := 5 + drawn; len(written) != want {
			t.Errorf("wrote %d files, want %d: %v", len(written), want, written)
		}
	}
}
