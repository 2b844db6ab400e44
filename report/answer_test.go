package report

import (
	"math"
	"os"
	"strings"
	"testing"
)

// The answer figure draws every scenario's replicas, the target line, and
// says in its caption what the answer is.
func TestAnswerFigure(t *testing.T) {
	a := Answer{Target: "p95_wait_s <= 3600", Metric: "p95_wait_s", Op: "<=", Value: 3600,
		Sentence: "no — p95_wait_s <= 3600? plus20-1.3x meets it in 0 of 5 replicas (mean 25.9 h)",
		Scenarios: []AnswerScenario{
			{Name: "today-1.3x", Values: []float64{145685, 118709, 140744, 189173, 130498}, Mean: 144962, Lo: 111695, Hi: 178229},
			{Name: "plus20-1.3x", Values: []float64{99686, 95055, 99068, 87187, 86092}, Mean: 93418, Lo: 85410, Hi: 101426},
		}}
	f, err := answerFigure(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "answer" || !strings.Contains(f.Caption, "every replica") || f.Plot.Y.Label.Text != "p95_wait_s (h)" || f.Title != "p95_wait_s ≤ 1 h in every replica?" {
		t.Errorf("%s %q %q", f.Name, f.Caption, f.Plot.Y.Label.Text)
	}
	if f.Plot.Y.Max < 189173/3600.0 || f.Plot.Y.Min != 0 {
		t.Errorf("y axis [%v, %v] does not hold every replica", f.Plot.Y.Min, f.Plot.Y.Max)
	}
	png, err := f.render("png")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("SCHEDSIM_FIGURE_DIR"); dir != "" {
		os.WriteFile(dir+"/answer.png", png, 0o644)
	}
	// A scenario without a value and without an interval is drawn too.
	a.Scenarios = append(a.Scenarios, AnswerScenario{Name: "empty", Values: []float64{math.NaN()}, Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()})
	if _, err := answerFigure(a, 1); err != nil {
		t.Fatal(err)
	}
}

// Effect cells print values in the metric's unit, without exponents.
func TestEffectCells(t *testing.T) {
	got := effectCells(Effect{Metric: "p95_wait_s", Group: "g", BaseMean: 144962, CandMean: 93418, RelPct: -35.556, LoPct: -60.9, HiPct: -10.22,
		Interval: "paired t", N: "5", Verdict: "improved"})
	want := []string{"p95_wait_s", "g", "40.27 h", "25.95 h", "-35.56 %", "[-60.90 %, -10.22 %] (paired t)", "5", "improved"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q, want %q", got, want)
	}
	if v := valueCell("jain_bsld", 0.06848); v != "0.06848" {
		t.Errorf("jain_bsld: %q", v)
	}
	if v := valueCell("utilization", 0.7369); v != "73.69 %" {
		t.Errorf("utilization: %q", v)
	}
}

// The summary table marks a best run only where it beats every other by
// more than the tolerance: 100 vs 103 s of mean wait are within 5 %, 100
// vs 200 are not.
func TestSummaryBestOnlyPastTolerance(t *testing.T) {
	run := func(wait string) *Run { return &Run{SummaryVals: map[string]string{"mean_wait_s": wait, "jobs": "10"}} }
	within5 := func(col string, a, b float64) bool { return math.Abs(b-a) > 0.05*math.Abs(a) }
	best := func(runs []*Run) []bool {
		st := buildSummary(runs, within5)
		for _, r := range st.Rows {
			if r.Name == "mean wait" {
				var out []bool
				for _, c := range r.Values {
					out = append(out, c.Best)
				}
				return out
			}
		}
		t.Fatal("no mean wait row")
		return nil
	}
	if got := best([]*Run{run("100"), run("103")}); got[0] || got[1] {
		t.Errorf("100 vs 103 s: best %v, want none (within 5 %%)", got)
	}
	if got := best([]*Run{run("100"), run("200")}); !got[0] || got[1] {
		t.Errorf("100 vs 200 s: best %v, want the first", got)
	}
	if got := best([]*Run{run("100"), run("200"), run("104")}); got[0] || got[1] || got[2] {
		t.Errorf("100, 200, 104 s: best %v, want none (104 is within 5 %% of the best)", got)
	}
}

// Every figure of a report says what to look for, whatever its prefix.
func TestLookFor(t *testing.T) {
	for _, name := range []string{"answer", "answer2", "wait_cdf", "bsld_box", "calibration", "tenant_bsld", "tenant_usage_share",
		"utilization", "queue", "power", "fragmentation", "nodes_asleep", "energy", "gantt", "gantt_3",
		"sweep_heatmap_mean_wait_s", "sweep2_heatmap_jain_bsld", "sweep_pareto", "sweep1_pareto", "sweeps_p95_wait_s", "sweep_tune_weights"} {
		if lookFor(name) == "" {
			t.Errorf("%s: no line on what to look for", name)
		}
	}
}
