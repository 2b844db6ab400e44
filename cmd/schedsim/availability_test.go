package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAvailabilityTimeZone reads the walkthrough's Slurm dump with and
// without --time-zone, as replay does: the local times are read in the
// zone given (the first stretch is at the same wall-clock minute, an
// hour apart in absolute time), the stretches relative to the trace are
// the same, and the printed dates say the zone. An SWF log's own zone
// is the default; --time-zone only changes how its dates are shown. A
// zone that does not exist is bad input naming the flag.
func TestAvailabilityTimeZone(t *testing.T) {
	dir := t.TempDir()
	dump := "../../testdata/walkthrough/kth-sp2.sacct.gz"
	conf := "../../testdata/walkthrough/slurm.conf"
	sthlm, err := execute(t, "availability", dump, "--cluster", conf, "--time-zone", "Europe/Stockholm", "--out", filepath.Join(dir, "sthlm"))
	if err != nil {
		t.Fatal(err)
	}
	utc, err := execute(t, "availability", dump, "--cluster", conf, "--out", filepath.Join(dir, "utc"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "first stretch 1996-11-01 08:22 CET to 1996-11-01 11:13 CET"; !strings.Contains(sthlm, want) || !strings.Contains(sthlm, "(Europe/Stockholm)") {
		t.Errorf("with --time-zone Europe/Stockholm, output lacks %q:\n%s", want, sthlm)
	}
	if want := "first stretch 1996-11-01 08:22 UTC"; !strings.Contains(utc, want) {
		t.Errorf("without --time-zone, output lacks %q:\n%s", want, utc)
	}
	events := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name, "node-events.csv"))
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(string(data), "\n") // past the comment naming the trace
		return body
	}
	if events("sthlm") != events("utc") {
		t.Error("the zone moved the stretches relative to the trace")
	}

	swf := "../../testdata/experiments/kth-sp2-2000.swf.gz"
	own, err := execute(t, "availability", swf, "--swf-model", "nodes", "--out", filepath.Join(dir, "swf"))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := execute(t, "availability", swf, "--swf-model", "nodes", "--time-zone", "UTC", "--out", filepath.Join(dir, "swf-utc"))
	if err != nil {
		t.Fatal(err)
	}
	first := func(out string) string {
		_, after, _ := strings.Cut(out, "first stretch ")
		return strings.Fields(after + " x x x")[1]
	}
	if !strings.Contains(own, "(Europe/Stockholm)") || !strings.Contains(shown, "(UTC)") || first(own) == first(shown) {
		t.Errorf("the SWF header's zone is not the default, or --time-zone does not show dates in its zone:\n%s\n%s", own, shown)
	}

	_, err = execute(t, "availability", dump, "--cluster", conf, "--time-zone", "Mars/Olympus", "--out", filepath.Join(dir, "bad"))
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "--time-zone") {
		t.Errorf("unknown zone: exit %d, %v", exitCode(err), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Error("an unknown zone left an output directory")
	}
}
