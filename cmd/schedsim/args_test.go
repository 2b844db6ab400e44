package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDefaultOut: one rule, runs/<command>-<input name>, for every
// command that writes a directory.
func TestDefaultOut(t *testing.T) {
	for _, c := range []struct{ command, input, want string }{
		{"sweep", "testdata/experiments/kth-lattice.yaml", "runs/sweep-kth-lattice"},
		{"report", "runs/easy/", "runs/report-easy"},
		{"openb", "traces/openb/openb_pod_list_default.csv", "runs/openb-openb_pod_list_default"},
		{"report", "KTH-SP2-1996-2.1-cln.swf.gz", "runs/report-KTH-SP2-1996-2.1-cln"},
		{"tune", "kth-tune", "runs/tune-kth-tune"},
	} {
		if got := defaultOut(c.command, c.input); got != filepath.FromSlash(c.want) {
			t.Errorf("defaultOut(%q, %q) = %q, want %q", c.command, c.input, got, c.want)
		}
	}
}

// TestUsageFrictions: a mistyped flag gets a suggestion, a command
// without its argument says what it needs, policy names ignore case.
func TestUsageFrictions(t *testing.T) {
	_, err := execute(t, "replay", "--backfil", "none")
	if err == nil || !strings.Contains(err.Error(), "did you mean --backfill?") {
		t.Errorf("--backfil: %v", err)
	}
	_, err = execute(t, "sweep")
	if err == nil || !strings.Contains(err.Error(), "sweep needs the experiment file") {
		t.Errorf("sweep without an argument: %v", err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "../../testdata/batsim/test_delays.json", "--platform",
		"../../testdata/batsim/small_platform.xml", "--queue", "FCFS", "--backfill", "EASY", "--placement", "First-Fit",
		"--out", out, "--quiet"); err != nil {
		t.Errorf("policy names in capitals: %v", err)
	}
}

// TestInputFrictions: a gzipped Batsim workload replays; an openb pod
// list given to replay says what it is; every problem of a config file
// is listed, in line order.
func TestInputFrictions(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile("../../testdata/batsim/test_delays.json")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(raw)
	w.Close()
	trace := filepath.Join(dir, "delays.json.gz")
	os.WriteFile(trace, gz.Bytes(), 0o644)
	if _, err := execute(t, "replay", trace, "--platform", "../../testdata/batsim/small_platform.xml",
		"--out", filepath.Join(dir, "gz"), "--quiet"); err != nil {
		t.Errorf("gzipped Batsim workload: %v", err)
	}

	pods := filepath.Join(dir, "pods.csv")
	os.WriteFile(pods, []byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"+
		"p0,8000,30517,0,0,,BE,Running,1,2,1\n"), 0o644)
	_, err = execute(t, "replay", pods)
	if err == nil || !strings.Contains(err.Error(), "openb") || !strings.Contains(err.Error(), "schedsim openb") {
		t.Errorf("openb pod list to replay: %v", err)
	}

	cfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(cfg, []byte("queue: fcfs\nbackfil: easy\nmtbf_s: often\nformat: xls\nbsld_tau_s: -3\nplacment: first-fit\n"), 0o644)
	_, err = execute(t, "replay", "--config", cfg)
	if err == nil {
		t.Fatal("bad config accepted")
	}
	var lines []int
	for _, m := range strings.Split(err.Error(), "\n") {
		if _, rest, ok := strings.Cut(m, "bad.yaml:"); ok {
			n, _ := strconv.Atoi(rest[:strings.Index(rest, ":")])
			lines = append(lines, n)
		}
	}
	if !slices.Equal(lines, []int{2, 3, 4, 5, 6}) {
		t.Errorf("problems at lines %v, want 2, 3, 4, 5, 6 in order:\n%v", lines, err)
	}
}
