package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

const compareData = "../../metrics/compare/testdata"

// The CI gate's exit statuses: 1 on the synthetic regression (mean_bsld
// +8 % on every seed, tolerance 5 %), 0 on noise within the tolerance
// (+0.5 %), 2 on bad input. The arithmetic is in compare/compare_test.go.
func TestCompareExitStatus(t *testing.T) {
	base := filepath.Join(compareData, "base")
	out, err := execute(t, "compare", base, filepath.Join(compareData, "regression"))
	if exitCode(err) != run.ExitFailed || !strings.Contains(out, "mean_bsld on hpc-batch (+8.00%, tolerance 5%)") {
		t.Errorf("regression: status %d (%v)\n%s", exitCode(err), err, out)
	}
	out, err = execute(t, "compare", base, filepath.Join(compareData, "noise"))
	if exitCode(err) != run.ExitOK || !strings.Contains(out, "verdict: no regression") {
		t.Errorf("noise: status %d (%v)\n%s", exitCode(err), err, out)
	}
	// A looser tolerance from a flag lets the regression through.
	if _, err = execute(t, "compare", base, filepath.Join(compareData, "regression"), "--tolerance", "mean_bsld=10%"); exitCode(err) != run.ExitOK {
		t.Errorf("--tolerance mean_bsld=10%%: status %d (%v)", exitCode(err), err)
	}
	// Markdown is the golden file of the compare package.
	out, _ = execute(t, "compare", "--format", "markdown", "testdata/../"+base, filepath.Join(compareData, "regression"))
	want, err := os.ReadFile(filepath.Join(compareData, "regression.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Replace(out, "testdata/../", "", 1); strings.Replace(got, "`"+compareData+"/", "`testdata/", 2) != string(want) {
		t.Errorf("markdown differs from %s:\n%s", filepath.Join(compareData, "regression.md"), out)
	}
}

func TestCompareBadInput(t *testing.T) {
	base := filepath.Join(compareData, "base")
	tol := filepath.Join(t.TempDir(), "tol.yaml")
	os.WriteFile(tol, []byte("mean_bsld: 5%\nmean_wait_s: soon\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{base}, "want BASE and CANDIDATE"},
		{[]string{base, t.TempDir()}, "no summary.csv"},
		{[]string{base, base, "--tolerances", tol}, "tol.yaml:2: mean_wait_s: want a percentage"},
		{[]string{base, base, "--tolerance", "nosuch=1%"}, `no known direction for "nosuch"`},
		{[]string{base, base, "--tolerance", "jobs_killed=0"}, "jobs_killed (not in the base and candidate summary)"},
		{[]string{base, base, "--format", "html"}, "--format"},
	} {
		_, err := execute(t, append([]string{"compare"}, c.args...)...)
		if exitCode(err) != run.ExitBadInput || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: status %d, %v; want 2 and %q", c.args, exitCode(err), err, c.want)
		}
	}
}

// Two real replays of the embedded log: dropping EASY backfilling makes
// waits longer, which the gate reports as a regression; a run against
// itself passes.
func TestCompareReplays(t *testing.T) {
	tmp := t.TempDir()
	easy, none := filepath.Join(tmp, "easy"), filepath.Join(tmp, "none")
	for _, r := range []struct{ dir, bf string }{{easy, "easy"}, {none, "none"}} {
		if _, err := execute(t, "replay", "--quiet", "--format", "csv", "--backfill", r.bf, "--out", r.dir); err != nil {
			t.Fatal(err)
		}
	}
	out, err := execute(t, "compare", easy, none)
	if exitCode(err) != run.ExitFailed || !strings.Contains(out, "1 group matched (all KTH-SP2-1996-2.1-cln__fcfs)") ||
		!strings.Contains(out, "mean_wait_s on easy vs none") {
		t.Errorf("easy → none: status %d (%v)\n%s", exitCode(err), err, out)
	}
	if !strings.Contains(out, "comparing: policies on the same workload and cluster (KTH-SP2-1996-2.1-cln.swf.gz (embedded), sha256 ") ||
		!strings.Contains(out, "  differs: backfill: easy → none\n") {
		t.Errorf("easy → none does not say what it compares:\n%s", out)
	}
	if out, err := execute(t, "compare", easy, easy); err != nil || !strings.Contains(out, "comparing: the same setup") {
		t.Errorf("a run against itself: %v\n%s", err, out)
	}
	// A replay of another trace is another workload: refused (exit 2)
	// unless asked, then labelled.
	small := filepath.Join(tmp, "small")
	if _, err := execute(t, "replay", "--quiet", "--format", "csv", "../../testdata/native/placement.jsonl",
		"--cluster", "../../testdata/clusters/racks.yaml", "--out", small); err != nil {
		t.Fatal(err)
	}
	_, err = execute(t, "compare", easy, small)
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "the two sides replay different workloads (trace: KTH-SP2-1996-2.1-cln.swf.gz (embedded), sha256 ") ||
		!strings.Contains(err.Error(), "--allow-different-workloads") {
		t.Errorf("different workloads: status %d, %v", exitCode(err), err)
	}
	out, err = execute(t, "compare", easy, small, "--allow-different-workloads")
	if !strings.Contains(out, "comparing: DIFFERENT WORKLOADS") {
		t.Errorf("allowed: %v\n%s", err, out)
	}
}

// The CI gate's tolerances file (deploy/ci-gate.yml reads it) loads, and
// gates a sweep compared with itself: exit 0.
func TestCompareCIGateTolerances(t *testing.T) {
	base := filepath.Join(compareData, "base")
	out, err := execute(t, "compare", base, base, "--tolerances", "../../deploy/ci-tolerances.yaml", "--metrics", "mean_wait_s,mean_bsld,jain_bsld")
	if err != nil || !strings.Contains(out, "verdict: no regression") {
		t.Errorf("%v\n%s", err, out)
	}
}
