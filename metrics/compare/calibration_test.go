package compare

import (
	"math"
	"strings"
	"testing"
)

// side builds a sweep side of one group whose runs (seeds 1, 2, …) have
// the given values of each metric.
func side(path string, values map[string][]float64) *Side {
	s := &Side{Path: path, Kind: "sweep"}
	n := 0
	for name, vs := range values {
		s.Columns = append(s.Columns, name)
		n = len(vs)
	}
	for i := range n {
		r := Run{Key: "kth__sjf", Group: "kth__sjf", Label: "kth__sjf", Seed: string(rune('1' + i)), Values: map[string]float64{}}
		for name, vs := range values {
			r.Values[name] = vs[i]
		}
		s.Runs = append(s.Runs, r)
	}
	return s
}

// A ratio of simulated to recorded waits is better the closer it is to 1.
// Base p95 ratios 0.78, 0.80, 0.82 (0.2 from 1 on average); candidate
// 1.09, 1.10, 1.11 is 0.1 from 1: better by 0.1 > 0.05, although the ratio
// grew. The paired changes of distance, c + b − 2, are −0.13, −0.10, −0.07
// (sd 0.03): −0.1 ± 0.075, wholly below zero: improved. The mean ratio's
// candidate 1.29, 1.30, 1.31 is 0.3 from 1, worse by 0.1, its changes
// 0.07, 0.10, 0.13 wholly above zero: regressed. The wait KS distance, lower
// is better, drops from 0.30 to 0.20 (absolute tolerance 0.02): improved.
func TestCalibrationDirections(t *testing.T) {
	base := side("base", map[string][]float64{
		"calib_p95_wait_ratio":  {0.78, 0.80, 0.82},
		"calib_mean_wait_ratio": {0.78, 0.80, 0.82},
		"calib_wait_ks":         {0.29, 0.30, 0.31},
	})
	cand := side("cand", map[string][]float64{
		"calib_p95_wait_ratio":  {1.09, 1.10, 1.11},
		"calib_mean_wait_ratio": {1.29, 1.30, 1.31},
		"calib_wait_ks":         {0.19, 0.20, 0.21},
	})
	res, err := Compare(base, cand, DefaultTolerances(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		metric string
		v      Verdict
	}{{"calib_p95_wait_ratio", Improved}, {"calib_mean_wait_ratio", Regressed}, {"calib_wait_ks", Improved}} {
		r := row(t, res, want.metric, "kth__sjf")
		if r.Verdict != want.v || !r.Paired {
			t.Errorf("%s: %v (paired %v), want %v", want.metric, r.Verdict, r.Paired, want.v)
		}
	}
	if r := row(t, res, "calib_p95_wait_ratio", "kth__sjf"); math.Abs(r.Delta-0.3) > 1e-9 || !r.Absolute {
		t.Errorf("calib_p95_wait_ratio: delta %v (absolute %v), want the ratio's change +0.3 in its unit", r.Delta, r.Absolute)
	}
	if len(res.Regressions) != 1 || res.Regressions[0] != "calib_mean_wait_ratio on kth__sjf (+0.5000, 0.1000 farther from 1, tolerance 0.05)" {
		t.Errorf("regressions: %q", res.Regressions)
	}
	// The start errors are in neither summary: left out without a note.
	for _, sk := range res.Skipped {
		if strings.HasPrefix(sk.Metric, "calib_") {
			t.Errorf("skipped %v: a default calibration metric is left out quietly", sk)
		}
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "calib_p95_wait_ratio (closer to 1 is better; tolerance 0.05 absolute)") {
		t.Errorf("no near-1 title in\n%s", text.String())
	}
}

// A what-if run has no calib_* values (its transforms changed the jobs'
// timing): comparing it with a calibration run leaves the calib_* metrics
// out and says why, once for all of them; with neither side calibrated
// the note says so too.
func TestCalibrationOneSided(t *testing.T) {
	nan := math.NaN()
	calibrated := side("base", map[string][]float64{"mean_wait_s": {100, 110, 120}, "calib_wait_ks": {0.3, 0.3, 0.3}, "calib_p95_wait_ratio": {0.5, 0.5, 0.5}})
	projected := side("cand", map[string][]float64{"mean_wait_s": {200, 210, 220}, "calib_wait_ks": {nan, nan, nan}, "calib_p95_wait_ratio": {nan, nan, nan}})
	for i := range projected.Runs {
		projected.Runs[i].Prov = Provenance{Known: true, Calibration: "n/a: load_factor 1.3 changed the jobs' timing, so no recorded start applies"}
	}
	res, err := Compare(calibrated, projected, DefaultTolerances(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Sections {
		if strings.HasPrefix(s.Metric.Name, "calib_") {
			t.Errorf("%s compared with one side uncalibrated", s.Metric.Name)
		}
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := "not comparable: calib_*: the candidate has no value (load_factor 1.3 changed the jobs' timing, so no recorded start applies)\n"
	if len(res.NotComparable) != 1 || strings.Count(text.String(), want) != 1 {
		t.Errorf("not comparable %q, text:\n%s", res.NotComparable, text.String())
	}
	for _, r := range res.Regressions {
		if strings.HasPrefix(r, "calib_") {
			t.Errorf("regression %q: a null was scored", r)
		}
	}
	res, err = Compare(projected, projected, DefaultTolerances(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NotComparable) != 1 || !strings.HasPrefix(res.NotComparable[0], "calib_*: neither side has a value") {
		t.Errorf("neither side calibrated: %q", res.NotComparable)
	}
	// Named explicitly, a calibration metric gets a row that says it is
	// not comparable, and why.
	tols := DefaultTolerances()
	if err := tols.Only([]string{"calib_wait_ks"}); err != nil {
		t.Fatal(err)
	}
	res, err = Compare(calibrated, projected, tols, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := row(t, res, "calib_wait_ks", "kth__sjf"); r.Verdict != NoData || !strings.Contains(r.Why, "load_factor 1.3") || r.Verdict.String() != "not comparable" {
		t.Errorf("explicit calib_wait_ks against no values: %v (%s), want not comparable", r.Verdict, r.Why)
	}
}

func TestNearOneDirectionParses(t *testing.T) {
	tols := DefaultTolerances()
	if err := tols.SetFlag("my_ratio=0.1,near1"); err != nil {
		t.Fatal(err)
	}
	m := tols.Metrics[len(tols.Metrics)-1]
	if m.Name != "my_ratio" || m.Direction != NearOne || m.Tolerance.Value != 0.1 || m.Tolerance.Relative {
		t.Errorf("my_ratio=0.1,near1 gave %+v", m)
	}
	if err := tols.SetFlag("calib_p95_wait_ratio=0.2"); err != nil {
		t.Fatal(err)
	}
	for _, m := range tols.Metrics {
		if m.Name == "calib_p95_wait_ratio" && (m.Direction != NearOne || m.Tolerance.Value != 0.2) {
			t.Errorf("calib_p95_wait_ratio=0.2 gave %+v, want near1 kept", m)
		}
	}
}
