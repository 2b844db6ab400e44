package fgd

import (
	"bytes"
	"math"
	"testing"

	"github.com/schedsim/schedsim/policies/gpu"
)

// Summarize averages each policy's allocation at 100 % arrived and at the
// end over its seeds, with the sample standard deviation (0 for one run),
// in the order of the policies given; a policy without runs is null.
func TestSummarize(t *testing.T) {
	result := func(policy string, seed uint64, at100, atEnd int64, frag float64) *gpu.Result {
		return &gpu.Result{Policy: policy, Seed: seed, Capacity: 1000, Points: []gpu.Point{
			{ArrivedPct: 100, AllocGPU: at100}, {ArrivedPct: 130, AllocGPU: atEnd, FragRatio: frag}}}
	}
	rs := []*gpu.Result{result("fgd", 1, 900, 950, 0.5), result("fgd", 2, 700, 850, 0.25), result("best-fit", 1, 800, 800, 1)}
	rows := Summarize([]string{"best-fit", "fgd", "random"}, rs)
	if len(rows) != 3 || rows[0].Policy != "best-fit" || rows[1].Policy != "fgd" {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0]; r.Runs != 1 || r.At100 != 80 || r.SD100 != 0 || r.AtEnd != 80 || r.FragEnd != 100 {
		t.Errorf("best-fit: %+v", r)
	}
	// fgd: 90 and 70 % at 100 % arrived: mean 80, sd √200; at the end 95
	// and 85: mean 90, sd √50; fragmentation 50 and 25 %: 37.5.
	if r := rows[1]; r.Runs != 2 || r.At100 != 80 || math.Abs(r.SD100-math.Sqrt(200)) > 1e-9 || r.AtEnd != 90 ||
		math.Abs(r.SDEnd-math.Sqrt(50)) > 1e-9 || r.FragEnd != 37.5 {
		t.Errorf("fgd: %+v", r)
	}
	if r := rows[2]; r.Runs != 0 || !math.IsNaN(r.At100) || !math.IsNaN(r.AtEnd) {
		t.Errorf("random, no runs: %+v", r)
	}
	var b bytes.Buffer
	writeSummaryCSV(&b, rows[:1])
	if want := "policy,runs,alloc_pct_at_100,alloc_sd_at_100,alloc_pct_at_end,alloc_sd_at_end,frag_pct_of_free_at_end\nbest-fit,1,80.000,0.000,80.000,0.000,100.000\n"; b.String() != want {
		t.Errorf("openb_summary.csv:\n%s\nwant\n%s", b.String(), want)
	}
}
