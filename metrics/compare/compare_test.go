package compare

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func mustCompare(t *testing.T, base, cand string, tols *Tolerances) *Result {
	t.Helper()
	b, err := Load(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(cand)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compare(b, c, tols, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func row(t *testing.T, res *Result, metric, label string) Row {
	t.Helper()
	for _, s := range res.Sections {
		if s.Metric.Name != metric {
			continue
		}
		for _, r := range s.Rows {
			if r.Label == label {
				return r
			}
		}
	}
	t.Fatalf("no row %s / %s", metric, label)
	return Row{}
}

// testdata/regression: hpc-batch's mean_bsld per seed goes 20, 22, 18 →
// 21.6, 23.7, 19.5: paired differences 1.6, 1.7, 1.5, mean 1.6, so +8 % of
// the base mean 20, past the 5 % tolerance; their standard deviation 0.1
// gives the t-interval 1.6 ± 4.303 × 0.1/√3 = [1.352, 1.848], which
// excludes zero: regressed. sensitive's jain_bsld goes 0.80, 0.82, 0.78 →
// 0.70, 0.83, 0.79: the mean drops by 0.08/3 = 0.0267, past the absolute
// 0.02, but the paired differences −0.10, +0.01, +0.01 (sd 0.0635) give
// −0.0267 ± 0.158, around zero: inconclusive, not a failure.
func TestSyntheticRegression(t *testing.T) {
	res := mustCompare(t, "testdata/base", "testdata/regression", DefaultTolerances())
	r := row(t, res, "mean_bsld", "hpc-batch")
	if r.Verdict != Regressed || !r.Paired || r.BaseN != 3 {
		t.Fatalf("mean_bsld hpc-batch: %+v", r)
	}
	half := 4.302652729911275 * 0.1 / math.Sqrt(3)
	if math.Abs(r.Rel-8) > 1e-9 || math.Abs(r.Interval.Lo-(1.6-half)) > 1e-9 || math.Abs(r.Interval.Hi-(1.6+half)) > 1e-9 || r.Interval.Method != "paired t" {
		t.Errorf("mean_bsld hpc-batch: rel %v, interval %+v, want +8%% within 1.6 ± %.4f (paired t)", r.Rel, r.Interval, half)
	}
	j := row(t, res, "jain_bsld", "sensitive")
	if j.Verdict != Inconclusive || !(j.Interval.Lo < 0 && j.Interval.Hi > 0) {
		t.Errorf("jain_bsld sensitive: %+v, want inconclusive with an interval around 0", j)
	}
	if math.Abs(j.Delta-(-0.08/3)) > 1e-9 {
		t.Errorf("jain_bsld sensitive: delta %v, want −0.0267", j.Delta)
	}
	if len(res.Regressions) != 1 || !strings.HasPrefix(res.Regressions[0], "mean_bsld on hpc-batch (+8.00%") {
		t.Errorf("regressions: %q", res.Regressions)
	}
	// Absent from the fixture's summaries: skipped, not an error.
	if len(res.Skipped) != 5 || res.Skipped[0] != (Skip{"p95_wait_s", "base and candidate"}) {
		t.Errorf("skipped: %q", res.Skipped)
	}
}

// testdata/noise: hpc-batch's mean_bsld goes 20, 22, 18 → 20.4, 21.8,
// 18.1, mean 20.1: +0.5 %, within 5 %; everything else is unchanged.
func TestNoiseWithinTolerance(t *testing.T) {
	res := mustCompare(t, "testdata/base", "testdata/noise", DefaultTolerances())
	if len(res.Regressions) != 0 {
		t.Fatalf("regressions: %q", res.Regressions)
	}
	r := row(t, res, "mean_bsld", "hpc-batch")
	if r.Verdict != Same || math.Abs(r.Rel-0.5) > 1e-9 {
		t.Errorf("mean_bsld hpc-batch: %+v, want ~ at +0.5%%", r)
	}
	// A tolerance of 0.25 % turns the same noise into a finding, but the
	// paired differences +0.4, −0.2, +0.1 straddle zero: inconclusive.
	tols := DefaultTolerances()
	if err := tols.SetFlag("mean_bsld=0.25%"); err != nil {
		t.Fatal(err)
	}
	res = mustCompare(t, "testdata/base", "testdata/noise", tols)
	if r := row(t, res, "mean_bsld", "hpc-batch"); r.Verdict != Inconclusive || len(res.Regressions) != 0 {
		t.Errorf("tight tolerance: %+v, regressions %q", r, res.Regressions)
	}
}

func TestMarkdownGolden(t *testing.T) {
	res := mustCompare(t, "testdata/base", "testdata/regression", DefaultTolerances())
	var md, text bytes.Buffer
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/regression.md", md.Bytes())
	golden(t, "testdata/regression.txt", text.Bytes())
	// Deterministic: a second comparison gives the same bytes.
	var again bytes.Buffer
	mustCompare(t, "testdata/base", "testdata/regression", DefaultTolerances()).WriteMarkdown(&again)
	if !bytes.Equal(md.Bytes(), again.Bytes()) {
		t.Error("two comparisons differ")
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update to rewrite):\n%s", path, got)
	}
}

// The interval of a row depends only on its own values, not on which
// other groups or metrics are compared.
func TestIntervalIndependentOfOtherRows(t *testing.T) {
	all := mustCompare(t, "testdata/base", "testdata/regression", DefaultTolerances())
	tols := DefaultTolerances()
	if err := tols.Only([]string{"jain_bsld"}); err != nil {
		t.Fatal(err)
	}
	one := mustCompare(t, "testdata/base", "testdata/regression", tols)
	a, b := row(t, all, "jain_bsld", "sensitive"), row(t, one, "jain_bsld", "sensitive")
	if a.Interval != b.Interval {
		t.Errorf("interval changed with the other rows: %+v vs %+v", a.Interval, b.Interval)
	}
}

func writeRun(t *testing.T, dir, seed string, bsld string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := "jobs,mean_bsld,utilization,trace,queue,backfill\n100," + bsld + ",0.5,kth,fcfs,easy\n"
	os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(csv), 0o644)
	os.WriteFile(filepath.Join(dir, "run.yaml"), []byte("seed: "+seed+"\n"), 0o644)
}

// Run directories: one a side is compared whatever its labels; with one
// seed there is no interval and the point estimate decides: 10 → 10.6 is
// +6 % > 5 %.
func TestRunDirectories(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, filepath.Join(dir, "base"), "0", "10")
	writeRun(t, filepath.Join(dir, "cand"), "0", "10.6")
	res := mustCompare(t, filepath.Join(dir, "base"), filepath.Join(dir, "cand"), DefaultTolerances())
	r := row(t, res, "mean_bsld", "kth__fcfs__easy")
	if res.Common != "" || r.Verdict != Regressed || !math.IsNaN(r.Interval.Lo) || res.Base.Kind != "run" {
		t.Errorf("%+v (kind %s)", r, res.Base.Kind)
	}
	// A directory of run directories and a comma list: seeds 1, 2 and 3
	// on both sides, paired. 10, 12, 11 → 10.1, 12.1, 11.2: differences
	// 0.1, 0.1, 0.2 (+1.2 %), t-interval 0.1333 ± 4.303 × 0.0577/√3.
	writeRun(t, filepath.Join(dir, "b", "s1"), "1", "10")
	writeRun(t, filepath.Join(dir, "b", "s2"), "2", "12")
	writeRun(t, filepath.Join(dir, "b", "s3"), "3", "11")
	writeRun(t, filepath.Join(dir, "c1"), "1", "10.1")
	writeRun(t, filepath.Join(dir, "c2"), "2", "12.1")
	writeRun(t, filepath.Join(dir, "c3"), "3", "11.2")
	cands := filepath.Join(dir, "c1") + "," + filepath.Join(dir, "c2") + "," + filepath.Join(dir, "c3")
	res = mustCompare(t, filepath.Join(dir, "b"), cands, DefaultTolerances())
	r = row(t, res, "mean_bsld", "kth__fcfs__easy")
	half := 4.302652729911275 * math.Sqrt(1.0/300) / math.Sqrt(3)
	if r.Verdict != Same || !r.Paired || r.BaseN != 3 || math.Abs(r.Interval.Lo-(0.4/3-half)) > 1e-9 || math.Abs(r.Interval.Hi-(0.4/3+half)) > 1e-9 {
		t.Errorf("%+v", r)
	}
	// Two seeds a side: no interval, the tolerance alone decides, and
	// the output says so.
	res = mustCompare(t, filepath.Join(dir, "b", "s1")+","+filepath.Join(dir, "b", "s2"), filepath.Join(dir, "c1")+","+filepath.Join(dir, "c2"), DefaultTolerances())
	r = row(t, res, "mean_bsld", "kth__fcfs__easy")
	var text strings.Builder
	res.WriteText(&text)
	if r.Interval.Has() || r.Interval.Why != "n < 3" || !strings.Contains(text.String(), "no interval (n < 3): those verdicts weigh the change against the tolerance alone") {
		t.Errorf("two seeds: %+v\n%s", r, text.String())
	}
}

func TestBadInput(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no summary.csv") {
		t.Errorf("empty directory: %v", err)
	}
	b, _ := Load("testdata/base")
	tols := DefaultTolerances()
	if err := tols.SetFlag("jobs_killed=0"); err != nil {
		t.Fatal(err)
	}
	if _, err := Compare(b, b, tols, Options{}); err == nil || !strings.Contains(err.Error(), "jobs_killed (not in the base and candidate summary)") {
		t.Errorf("explicit metric missing: %v", err)
	}
	for _, bad := range []string{"mean_bsld", "mean_bsld=x", "mean_bsld=-1%", "foo=1", "foo=1,sideways"} {
		if err := DefaultTolerances().SetFlag(bad); err == nil {
			t.Errorf("--tolerance %s accepted", bad)
		}
	}
}

// Every problem of a tolerances file is reported, each with its line.
func TestToleranceFileErrors(t *testing.T) {
	data := []byte(`mean_bsld: 5%
jain_bsld: lots
mean_bsld: 3%
custom_metric: 2%
jobs_killed: {tolerance: 0, direction: down}
energy_kwh: {tol: 1%}
utilization: [1, 2]
`)
	_, err := ParseFile("tol.yaml", data)
	if err == nil {
		t.Fatal("accepted")
	}
	want := []string{
		`tol.yaml:2: jain_bsld: want a percentage of the base (5%), an absolute amount (0.02) or off, got "lots"`,
		`tol.yaml:3: mean_bsld: given twice (first on line 1)`,
		`tol.yaml:4: no known direction for "custom_metric": say lower, higher or near1`,
		`tol.yaml:5: jobs_killed.direction: want lower, higher or near1, got "down"`,
		`tol.yaml:6: unknown key "energy_kwh.tol" (did you mean "energy_kwh.tolerance"?)`,
		`tol.yaml:7: utilization: want a tolerance (5%, 0.02, off) or {tolerance, direction}`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", err, strings.Join(want, "\n"))
	}
	ms, err := ParseFile("ok.yaml", []byte("mean_bsld: 3%\nmax_wait_s: off\ncustom: {tolerance: 0.5, direction: higher}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 || ms[0].Tolerance != (Tolerance{Value: 3, Relative: true}) || !ms[1].Tolerance.Off || ms[2].Direction != Higher || ms[2].Tolerance.Value != 0.5 {
		t.Errorf("%+v", ms)
	}
	if _, err := ParseFile("bad.yaml", []byte("a: [\n")); err == nil || !strings.HasPrefix(err.Error(), "bad.yaml: bad YAML: line 1: ") {
		t.Errorf("syntax error: %v", err)
	}
}
