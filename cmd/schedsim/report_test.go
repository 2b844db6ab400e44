package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

// TestReport renders a report from two small replays in different formats
// (CSV and Parquet) and checks the files, the page's content and that a
// second rendering gives the same bytes.
func TestReport(t *testing.T) {
	tmp := t.TempDir()
	dir1, dir2 := filepath.Join(tmp, "none"), filepath.Join(tmp, "easy")
	if _, err := execute(t, "replay", "--quiet", "--backfill", "none", "--format", "csv", "--out", dir1); err != nil {
		t.Fatal(err)
	}
	if _, err := execute(t, "replay", "--quiet", "--backfill", "easy", "--format", "parquet", "--out", dir2); err != nil {
		t.Fatal(err)
	}
	out1, out2 := filepath.Join(tmp, "rep1"), filepath.Join(tmp, "rep2")
	for _, out := range []string{out1, out2} {
		if _, err := execute(t, "report", dir1, dir2, "--out", out, "--quiet"); err != nil {
			t.Fatal(err)
		}
	}
	// No nodes_asleep: these runs do not power nodes down; no
	// tenant_usage_share: they configure no shares.
	figures := []string{"wait_cdf", "bsld_box", "tenant_bsld", "utilization", "queue", "power", "fragmentation", "energy"}
	if _, err := os.Stat(filepath.Join(out1, "tenant_usage_share.png")); err == nil {
		t.Error("tenant_usage_share drawn for runs without shares")
	}
	for _, fig := range figures {
		for _, ext := range []string{"png", "svg"} {
			st, err := os.Stat(filepath.Join(out1, fig+"."+ext))
			if err != nil {
				t.Fatal(err)
			}
			if ext == "svg" && st.Size() > 1<<20 {
				t.Errorf("%s.svg is %d bytes; downsampling should keep it under 1 MiB", fig, st.Size())
			}
		}
	}
	page, err := os.ReadFile(filepath.Join(out1, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, label := range []string{"KTH-SP2-1996-2.1-cln · a pool of 100 processors · fcfs · none · first-fit", "KTH-SP2-1996-2.1-cln · a pool of 100 processors · fcfs · easy · first-fit"} {
		if !strings.Contains(html, label) {
			t.Errorf("index.html lacks the run label %q", label)
		}
	}
	for _, dir := range []string{dir1, dir2} {
		sum, err := metrics.ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, col := range []string{"mean_wait_s", "mean_bsld", "utilization", "energy_j"} {
			// The table shows a rounded value with the exact one as its
			// tooltip, or the value itself when rounding changes nothing.
			// html/template writes '+' (in 5.9e+11) as &#43;.
			exact := strings.ReplaceAll(sum[col], "+", "&#43;")
			if !strings.Contains(html, "<td>"+exact+"</td>") && !strings.Contains(html, `title="`+exact+`">`) {
				t.Errorf("index.html lacks %s = %s of %s", col, sum[col], dir)
			}
		}
	}
	pngs, _ := filepath.Glob(filepath.Join(out1, "*.png"))
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") || strings.Count(html, "data:image/png;base64,") != len(pngs) {
		t.Errorf("index.html should embed its %d PNGs and reference nothing external", len(pngs))
	}
	for _, name := range []string{"index.html", "wait_cdf.svg", "queue.png"} {
		a, _ := os.ReadFile(filepath.Join(out1, name))
		b, _ := os.ReadFile(filepath.Join(out2, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two renderings of the same runs", name)
		}
	}
}

// TestReportNotARun checks that a directory that is not a run is bad input
// and that the message names the directory and the missing file.
func TestReportNotARun(t *testing.T) {
	tmp := t.TempDir()
	_, err := execute(t, "report", tmp, "--out", filepath.Join(tmp, "rep"))
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), tmp) || !strings.Contains(err.Error(), "summary.csv") {
		t.Fatalf("got %v (exit %d), want exit 2 naming %s and summary.csv", err, exitCode(err), tmp)
	}
	if err := os.WriteFile(filepath.Join(tmp, "summary.csv"), []byte("jobs,trace\n1,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "run.yaml"), []byte("config: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = execute(t, "report", tmp, "--out", filepath.Join(tmp, "rep"))
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "jobs.csv") {
		t.Fatalf("got %v, want exit 2 naming the missing jobs table", err)
	}
	if _, err := execute(t, "report", "--out", filepath.Join(tmp, "rep")); exitCode(err) != run.ExitBadInput {
		t.Fatalf("no directory: got %v, want exit 2", err)
	}
}

// TestReportSweep renders the small sweep of testdata/sweeps with a
// run directory and checks the sweep figures, the page's sweep table, and
// that heatmap options the sweep cannot satisfy are bad input.
func TestReportSweep(t *testing.T) {
	tmp := t.TempDir()
	sweep := filepath.Join("..", "..", "testdata", "sweeps", "weights")
	runDir := filepath.Join(tmp, "run")
	trace := filepath.Join("..", "..", "testdata", "report", "kth-head.swf")
	if _, err := execute(t, "replay", "--quiet", "--trace", trace, "--format", "csv", "--out", runDir); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "rep")
	if _, err := execute(t, "report", runDir, sweep, "--out", out, "--quiet", "--heatmap-metric", "mean_bsld"); err != nil {
		t.Fatal(err)
	}
	for _, fig := range []string{"wait_cdf", "tenant_bsld", "energy", "sweep_heatmap_mean_bsld", "sweep_pareto"} {
		if _, err := os.Stat(filepath.Join(out, fig+".svg")); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "sweep_heatmap_mean_wait_s.svg")); err == nil {
		t.Error("--heatmap-metric mean_bsld should replace the default heatmaps")
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	// 18 parameter combinations (2 backfills × 3 × 3), each of 2 seeds.
	html := string(page)
	rows := strings.Count(html, "<tr><td>kth-head__") + strings.Count(html, `<tr class="front"><td>kth-head__`)
	if rows != 18 || !strings.Contains(html, "Sweep weights") {
		t.Errorf("the sweep table has %d rows, want 18", rows)
	}
	for _, bad := range [][]string{
		{"--heatmap-weights", "w_fair_share,w_size"},
		{"--heatmap-metric", "mean_wiat_s"},
	} {
		args := append([]string{"report", sweep, "--out", filepath.Join(tmp, "bad")}, bad...)
		if _, err := execute(t, args...); exitCode(err) != run.ExitBadInput {
			t.Errorf("%v: got %v, want exit 2", bad, err)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "bad")); err == nil {
		t.Error("a refused report should write nothing")
	}
}

// One definition of an effect: the report of two sweeps opens with the
// target's answer and writes the effects exactly as compare --format csv
// prints them (CI adds the notebook, .ci/notebooks/run.sh).
func TestReportEffectsAreCompares(t *testing.T) {
	tmp := t.TempDir()
	today, plus20 := filepath.Join(tmp, "today-1.3x"), filepath.Join(tmp, "plus20-1.3x")
	for _, s := range []struct{ spec, out string }{{"today-1.3x", today}, {"plus20-1.3x", plus20}} {
		if out, err := execute(t, "sweep", "../../testdata/walkthrough/"+s.spec+".yaml", "--out", s.out, "--quiet"); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	out, err := execute(t, "compare", today, plus20, "--format", "csv")
	if exitCode(err) != run.ExitFailed { // utilization drops past its default tolerance
		t.Fatalf("compare: %v\n%s", err, out)
	}
	rep := filepath.Join(tmp, "report")
	if _, err := execute(t, "report", today, plus20, "--out", rep, "--quiet"); err != nil {
		t.Fatal(err)
	}
	effects, err := os.ReadFile(filepath.Join(rep, "effects.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(effects) != out {
		t.Errorf("report's effects.csv differs from compare --format csv:\n%s\nvs\n%s", effects, out)
	}
	page, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	answer, effectsAt, sweepAt := strings.Index(html, "<h2>The answer</h2>"), strings.Index(html, "<h2>Effects: today-1.3x → plus20-1.3x</h2>"), strings.Index(html, "<h2>Sweep ")
	if answer < 0 || effectsAt < answer || sweepAt < effectsAt {
		t.Errorf("index.html does not open with the answer, then the effects (at %d, %d, %d)", answer, effectsAt, sweepAt)
	}
	if !strings.Contains(html, "no — p95_wait_s &lt;= 3600? today-1.3x meets it in 0 of 5 replicas (mean 52.6 h); plus20-1.3x meets it in 0 of 5 replicas (mean 30.3 h)") ||
		!strings.Contains(html, "[-66.04 %, -18.67 %] (paired t)") {
		t.Errorf("index.html lacks the answer or the p95 effect")
	}
	// Sweeps of other traces and parameters are drawn, not compared.
	other := filepath.Join(tmp, "other")
	if _, err := execute(t, "report", today, "../../testdata/sweeps/weights", "--out", other, "--quiet"); err != nil {
		t.Fatalf("a report of unlike sweeps: %v", err)
	}
	page, _ = os.ReadFile(filepath.Join(other, "index.html"))
	if !strings.Contains(string(page), "Not compared: ") {
		t.Error("a report of unlike sweeps does not say they were not compared")
	}
	if _, err := os.Stat(filepath.Join(other, "effects.csv")); err == nil {
		t.Error("effects.csv written for sweeps that were not compared")
	}
}
