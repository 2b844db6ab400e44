package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/calibrate"
)

// TestCalibrateHoldoutBestReproduces calibrates the first 2,000 jobs of
// KTH-SP2 over a four-candidate space held out at 40 %: calibration.csv
// ranks every candidate with both parts, the split and the detected
// resolution are stated, best.yaml replays to its row's holdout columns
// byte for byte, and a second calibrate resumes from the runs without
// replaying them.
func TestCalibrateHoldoutBestReproduces(t *testing.T) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.yaml")
	if err := os.WriteFile(space, []byte("base: {swf_model: nodes}\naxes:\n  scheduling_interval_s: [0, 60]\n  availability: [off, on]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cal")
	trace := "../../testdata/experiments/kth-sp2-2000.swf.gz"
	stdout, err := execute(t, "calibrate", trace, "--space", space, "--out", out, "--holdout", "0.4", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 candidates × 5 parts", "recorded resolution 60 s (detected)", "the first 60 % of the submit span",
		"mean objective over 3 blocks of the fit part"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	rows := runcmp.ReadCSV(t, filepath.Join(out, "calibration.csv"))
	if len(rows) != 5 {
		t.Fatalf("calibration.csv: %d rows, want a header and 4 candidates", len(rows))
	}
	head, best := rows[0], rows[1]
	if best[0] != "1" || !slices.Contains(head, "fit_calib_wait_ks") || !slices.Contains(head, "holdout_calib_wait_ks") ||
		!slices.Contains(head, "fit_block3_calib_wait_ks") || !slices.Contains(head, "choice_se") {
		t.Fatalf("calibration.csv header %v, first row %v", head, best)
	}
	// The inferred availability comes from the choosing part's record only:
	// no node drained at or after the cut.
	cutText := regexp.MustCompile(`submitted before (\d+) s`).FindStringSubmatch(stdout)
	if cutText == nil {
		t.Fatalf("output names no cut:\n%s", stdout)
	}
	cut, _ := strconv.ParseFloat(cutText[1], 64)
	data, err := os.ReadFile(filepath.Join(out, "availability-1", "node-events.csv"))
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "time_s,") {
			continue
		}
		events++
		at, _, _ := strings.Cut(line, ",")
		if v, err := strconv.ParseFloat(at, 64); err != nil || v > cut || (v == cut && strings.HasSuffix(line, ",drain")) {
			t.Errorf("node event %q after the cut %v s: the held-out record shaped the availability", line, cut)
		}
	}
	if events == 0 {
		t.Fatal("availability-1/node-events.csv: no events: the test learns nothing")
	}
	rep := filepath.Join(dir, "replay")
	if _, err := execute(t, "replay", "--config", filepath.Join(out, "best.yaml"), "--out", rep, "--quiet"); err != nil {
		t.Fatal(err)
	}
	summary := runcmp.ReadCSV(t, filepath.Join(rep, "summary.csv"))
	for _, col := range calibrate.Columns {
		got := summary[1][slices.Index(summary[0], col)]
		want := best[slices.Index(head, "holdout_"+col)]
		if got != want {
			t.Errorf("%s: best.yaml replays %q, calibration.csv says %q", col, got, want)
		}
	}
	// Resume: every run is there, so nothing is replayed again.
	before, err := os.Stat(filepath.Join(out, "runs", "c0000-fit", "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := execute(t, "calibrate", trace, "--space", space, "--out", out, "--workers", "2"); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(out, "runs", "c0000-fit", "summary.csv"))
	if err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("resume replayed a finished run again (%v)", err)
	}
	if again := runcmp.ReadCSV(t, filepath.Join(out, "calibration.csv")); !slices.EqualFunc(again, rows, slices.Equal) {
		t.Errorf("resumed calibration.csv differs")
	}
	// An edited space: the candidates whose spec changed are replayed,
	// not read back from the runs their numbers held before (without
	// blocks, to keep the test short: the rule is not what it checks).
	if err := os.WriteFile(space, []byte("base: {swf_model: nodes}\naxes:\n  scheduling_interval_s: [0, 120]\n  availability: [off, on]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := execute(t, "calibrate", trace, "--space", space, "--out", out, "--holdout", "0.4", "--workers", "2", "--blocks", "0"); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh")
	if _, err := execute(t, "calibrate", trace, "--space", space, "--out", fresh, "--holdout", "0.4", "--workers", "2", "--blocks", "0"); err != nil {
		t.Fatal(err)
	}
	edited, want := runcmp.ReadCSV(t, filepath.Join(out, "calibration.csv")), runcmp.ReadCSV(t, filepath.Join(fresh, "calibration.csv"))
	if !slices.EqualFunc(edited, want, slices.Equal) {
		t.Errorf("resumed after an edit:\n%v\nfrom scratch:\n%v", edited, want)
	}
}

// A bad rule of the availability axis is refused with the space file's
// line and exit 2, before any replay.
func TestAvailabilityAxisBadRule(t *testing.T) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.yaml")
	if err := os.WriteFile(space, []byte("axes:\n  availability:\n    - on\n    - 0.2/-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := execute(t, "calibrate", "../../testdata/experiments/kth-sp2-2000.swf.gz", "--space", space, "--out", filepath.Join(dir, "cal"))
	if exitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), "space.yaml:4: axes.availability") {
		t.Errorf("bad rule: exit %d, %v", exitCode(err), err)
	}
}

// --quiet prints nothing and writes the same files.
func TestCalibrateQuiet(t *testing.T) {
	dir := t.TempDir()
	space := filepath.Join(dir, "space.yaml")
	if err := os.WriteFile(space, []byte("base: {swf_model: nodes}\naxes:\n  scheduling_interval_s: [0, 60]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, "calibrate", "../../testdata/experiments/kth-sp2-2000.swf.gz", "--space", space, "--out", filepath.Join(dir, "cal"), "--quiet")
	if err != nil || out != "" {
		t.Errorf("--quiet printed %q (%v)", out, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cal", "best.yaml")); err != nil {
		t.Error(err)
	}
}

// One block has no standard error to choose by: refused before any
// replay, naming the flag.
func TestBlocksFlag(t *testing.T) {
	for _, bad := range []string{"1", "-1", "13"} {
		_, err := execute(t, "calibrate", "--space", "../../testdata/calibrate/kth-sp2.yaml", "--out", t.TempDir(), "--blocks", bad)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "--blocks") {
			t.Errorf("--blocks %s: exit %d, %v", bad, exitCode(err), err)
		}
	}
}
