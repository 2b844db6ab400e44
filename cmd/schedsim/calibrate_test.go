package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
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
	rows := readCalibCSV(t, filepath.Join(out, "calibration.csv"))
	if len(rows) != 5 {
		t.Fatalf("calibration.csv: %d rows, want a header and 4 candidates", len(rows))
	}
	head, best := rows[0], rows[1]
	if best[0] != "1" || !slices.Contains(head, "fit_calib_wait_ks") || !slices.Contains(head, "holdout_calib_wait_ks") ||
		!slices.Contains(head, "fit_block3_calib_wait_ks") || !slices.Contains(head, "choice_se") {
		t.Fatalf("calibration.csv header %v, first row %v", head, best)
	}
	rep := filepath.Join(dir, "replay")
	if _, err := execute(t, "replay", "--config", filepath.Join(out, "best.yaml"), "--out", rep, "--quiet"); err != nil {
		t.Fatal(err)
	}
	summary := readCalibCSV(t, filepath.Join(rep, "summary.csv"))
	for _, col := range calibColumns {
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
	if again := readCalibCSV(t, filepath.Join(out, "calibration.csv")); !slices.EqualFunc(again, rows, slices.Equal) {
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
	edited, want := readCalibCSV(t, filepath.Join(out, "calibration.csv")), readCalibCSV(t, filepath.Join(fresh, "calibration.csv"))
	if !slices.EqualFunc(edited, want, slices.Equal) {
		t.Errorf("resumed after an edit:\n%v\nfrom scratch:\n%v", edited, want)
	}
}

func readCalibCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestDetectResolution(t *testing.T) {
	s := sim.Second
	var minutes, seconds []sim.Time
	for i := range 200 {
		minutes = append(minutes, sim.Time(i%7)*60*s)
		seconds = append(seconds, sim.Time(i*7+1)*s)
	}
	if r := detectResolution(minutes); r != 60 {
		t.Errorf("whole minutes: %g, want 60", r)
	}
	if r := detectResolution(seconds); r != 1 {
		t.Errorf("whole seconds: %g, want 1", r)
	}
	if r := detectResolution(make([]sim.Time, 500)); r != 0 {
		t.Errorf("all zero: %g, want 0 (nothing to tell)", r)
	}
}

// TestAvailabilityAxisValues reads the availability axis's rules and
// refuses a bad one with the space file's line and exit 2, before any
// replay.
func TestAvailabilityAxisValues(t *testing.T) {
	for v, want := range map[string]string{"on": "0.2/3600", "0.3/2": "0.3/7200", "0.1/0.5": "0.1/1800"} {
		r, on, err := availabilityRule(v)
		if err != nil || !on {
			t.Errorf("%s: %v, on %v", v, err, on)
			continue
		}
		if got := fmt.Sprintf("%g/%g", r.BusyShare, r.MinDuration.Seconds()); got != want {
			t.Errorf("%s: rule %s, want %s", v, got, want)
		}
	}
	if r, on, err := availabilityRule("off"); r != nil || on || err != nil {
		t.Errorf("off: %v %v %v", r, on, err)
	}
	for _, bad := range []string{"0/1", "1/1", "0.2/0", "0.2", "x/1", "0.2/-1"} {
		if _, _, err := availabilityRule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	dir := t.TempDir()
	space := filepath.Join(dir, "space.yaml")
	if err := os.WriteFile(space, []byte("axes:\n  availability:\n    - on\n    - 0.2/-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := execute(t, "calibrate", "../../testdata/experiments/kth-sp2-2000.swf.gz", "--space", space, "--out", filepath.Join(dir, "cal"))
	if exitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), "space.yaml:4: axes.availability") {
		t.Errorf("bad rule: exit %d, %v", exitCode(err), err)
	}
	if vals := axisValueText(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "submit"}, {Kind: yaml.ScalarNode, Value: "end"}}}); vals != "[submit, end]" {
		t.Errorf("list value prints %q", vals)
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
