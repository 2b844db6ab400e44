package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// inspectTrace is four jobs an hour apart; the expected summary below is
// worked out by hand from it.
const inspectTrace = `{"id": "1", "submit_s": 0, "runtime_s": 100, "walltime_s": 200, "tasks": 1, "request": {"cpu": 1}, "user": "a"}
{"id": "2", "submit_s": 3600, "runtime_s": 200, "tasks": 2, "request": {"cpu": 2}, "user": "b"}
{"id": "3", "submit_s": 7200, "runtime_s": 300, "tasks": 4, "request": {"cpu": 1, "mem": 10}, "user": "a"}
{"id": "4", "submit_s": 10800, "runtime_s": 400, "tasks": 3, "request": {"cpu": 0.5}, "user": "a"}
`

const inspectCluster = `node_groups:
  - {prefix: n, count: 2, resources: {cpu: 4, mem: 64}}
`

func TestInspectSummary(t *testing.T) {
	dir := t.TempDir()
	trace, cluster, out := filepath.Join(dir, "t.jsonl"), filepath.Join(dir, "c.yaml"), filepath.Join(dir, "inspect")
	os.WriteFile(trace, []byte(inspectTrace), 0o644)
	os.WriteFile(cluster, []byte(inspectCluster), 0o644)
	stdout, err := execute(t, "inspect", trace, "--cluster", cluster, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"cluster       cluster " + cluster + ": 2 nodes; cpu 8, mem 128",
		"jobs          4\n",
		// 1 + 2 + 4 + 3 = 10 tasks, 10 / 4 = 2.5 per job.
		"tasks         10 (2.5 per job)",
		// span 10800 − 0 s = 0.125 days.
		"submit        first 0 s, last 10800 s: span 10800 s (0.125 days)",
		// ends 100, 3800, 7500, 11200.
		"last end      11200 s",
		// (4 − 1) jobs over 3 h; one job in each 1 h bin, the first from 0 s.
		"arrival rate  1 jobs/h on average; busiest 1 h bin: 1 job (1 jobs/h), from 0 s",
		"              00–05 h   25.0   25.0   25.0   25.0    0.0    0.0",
		// sizes 1 | 2, 4 | 3.
		"sizes         1 task: 25.0 %, power of two (2, 4, 8, …): 50.0 %, other: 25.0 %",
		"walltime      given by 1 job (25.0 %)",
		`users         2; most jobs: "a" with 3 (75.0 %)`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	// Type-7 quantiles: h = (n − 1)·p = 3p between ranks. Runtimes 100…400:
	// p10 → h 0.3 → 130, p25 → 175, p50 → 250, p75 → 325, p90 → 370,
	// p99 → h 2.97 → 397. Per-task cpu sorted 0.5, 1, 1, 2: p10 → 0.5 +
	// 0.3·0.5 = 0.65, p25 → 0.5 + 0.75·0.5 = 0.875, p50 → 1, p75 → 1.25,
	// p90 → 1.7, p99 → 1.97, mean 4.5 / 4 = 1.125.
	for _, row := range [][]string{
		{"runtime_s", "100", "130", "175", "250", "325", "370", "397", "400", "250", "4"},
		{"walltime_s", "200", "200", "200", "200", "200", "200", "200", "200", "200", "1"},
		{"tasks", "1", "1.3", "1.75", "2.5", "3.25", "3.7", "3.97", "4", "2.5", "4"},
		{"req_cpu per task", "0.5", "0.65", "0.875", "1", "1.25", "1.7", "1.97", "2", "1.125", "4"},
		{"req_mem per task", "10", "10", "10", "10", "10", "10", "10", "10", "10", "1"},
	} {
		if !hasFields(stdout, row) {
			t.Errorf("no table row %v in:\n%s", row, stdout)
		}
	}
	// Offered load: cpu work = 1·1·100 + 2·2·200 + 4·1·300 + 3·0.5·400 =
	// 2700 cpu·s over 8 cpu × 10800 s = 0.03125 → 0.031; mem: 4·10·300 =
	// 12000 mem·s over 128 × 10800 = 0.00868 → 0.009.
	for _, want := range []string{
		"cpu        0.031  (2700 cpu·s requested; 8 cpu × 10800 s)",
		"mem        0.009  (12000 mem·s requested; 128 mem × 10800 s)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}

	// The PNGs decode; summary.txt is the text printed.
	for _, name := range []string{"arrivals", "arrivals_by_hour", "runtime_cdf", "sizes", "request_cpu_cdf", "request_mem_cdf"} {
		data, err := os.ReadFile(filepath.Join(out, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s.png: %v", name, err)
		}
	}
	text, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil || !strings.HasPrefix(stdout, string(text)) {
		t.Errorf("summary.txt differs from the printed summary (%v)", err)
	}

	// Without a cluster: no offered load, the rest the same.
	stdout, err = execute(t, "inspect", trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "cluster       none") || strings.Contains(stdout, "offered load  Σ") {
		t.Errorf("without --cluster:\n%s", stdout)
	}
}

// hasFields reports whether some line of text has exactly these
// whitespace-separated fields (the row name may hold spaces).
func hasFields(text string, want []string) bool {
	w := strings.Fields(strings.Join(want, " "))
	for _, line := range strings.Split(text, "\n") {
		if strings.Join(strings.Fields(line), " ") == strings.Join(w, " ") {
			return true
		}
	}
	return false
}

func TestInspectBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id": "1", "submit_s": 0, "runtime_s": -5}`+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect"}, "give one trace file"},
		{[]string{"inspect", filepath.Join(dir, "missing.jsonl")}, "no such file"},
		{[]string{"inspect", bad, "--strict"}, "bad.jsonl:1: field runtime_s"},
	} {
		_, err := execute(t, c.args...)
		if exitCode(err) != run.ExitBadInput || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v (exit %d), want exit 2 with %q", c.args, err, exitCode(err), c.want)
		}
	}
}

// TestInspectSacctCalendar inspects the walkthrough's sacct dump in
// Stockholm time: its pending jobs are named as such, not as bad records;
// the partition tag the slurm.conf puts on nodes is neither a request
// nor a figure; hours and days are local.
func TestInspectSacctCalendar(t *testing.T) {
	out := filepath.Join(t.TempDir(), "inspect")
	stdout, err := execute(t, "inspect", "../../testdata/walkthrough/kth-sp2.sacct.gz",
		"--cluster", "../../testdata/walkthrough/slurm.conf", "--time-zone", "Europe/Stockholm", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pending at dump time", "(Europe/Stockholm)", "hour of day   % of jobs by the local hour",
		"day of week"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, bad := range []string{"bad records", "partition:"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("summary says %q:\n%s", bad, stdout)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "request_*"))
	for _, f := range files {
		if strings.Contains(f, "partition") {
			t.Errorf("figure of the partition tag: %s", f)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "arrivals_by_weekday.png")); err != nil {
		t.Error(err)
	}
}
