package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestLegendReductionGolden reduces the labels of hand-made sets of runs
// and compares the subtitle and the legend entries with
// testdata/golden/legends.txt: runs differing in backfill only are named
// by it, several differing dimensions join, identical runs fall back on
// their directories, a dimension only some runs know shows as "(no …)",
// and a single run has everything in its subtitle.
func TestLegendReductionGolden(t *testing.T) {
	mk := func(dir string, parts ...string) *Run {
		r := &Run{Dir: "/runs/" + dir}
		for i, v := range parts {
			r.Parts = append(r.Parts, LabelPart{labelDims[i+1], v}) // after "sweep"
		}
		return r
	}
	cases := []struct {
		name string
		runs []*Run
	}{
		{"backfills", []*Run{
			mk("none", "KTH", "1 node, cpu 100", "fcfs", "none", "first-fit"),
			mk("easy", "KTH", "1 node, cpu 100", "fcfs", "easy", "first-fit"),
			mk("cons", "KTH", "1 node, cpu 100", "fcfs", "conservative", "first-fit")}},
		{"two dimensions", []*Run{
			mk("a", "KTH", "c", "fcfs", "easy", "first-fit"),
			mk("b", "KTH", "c", "lattice/balanced", "easy", "best-fit")}},
		{"two traces", []*Run{
			mk("a", "KTH", "c", "fcfs", "easy", "first-fit"),
			mk("b", "SDSC", "c", "fcfs", "easy", "first-fit")}},
		{"identical", []*Run{
			mk("seed1", "KTH", "c", "fcfs", "easy", "first-fit"),
			mk("seed2", "KTH", "c", "fcfs", "easy", "first-fit")}},
		{"unknown cluster", []*Run{
			mk("a", "KTH", "", "fcfs", "easy"),
			mk("b", "KTH", "cluster.yaml", "fcfs", "easy")}},
		{"one run", []*Run{mk("only", "KTH", "1 node, cpu 100", "fcfs", "easy", "first-fit")}},
	}
	var b strings.Builder
	for _, c := range cases {
		lt := reduceLabels(c.runs)
		fmt.Fprintf(&b, "# %s\nsubtitle: %s\n", c.name, lt.Subtitle())
		for _, e := range lt.Entries {
			fmt.Fprintf(&b, "entry: %s\n", e)
		}
	}
	checkGolden(t, "legends.txt", b.String())
}
