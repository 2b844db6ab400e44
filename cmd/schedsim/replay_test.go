package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

const shared = "../../../shared/traces"

func needShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(shared); err != nil {
		t.Skip("../shared/traces not present")
	}
}

// execute runs the CLI in-process and returns stdout and the error.
func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCommand()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func exitCode(err error) int {
	var ee *run.ExitError
	if err == nil {
		return run.ExitOK
	}
	if errors.As(err, &ee) {
		return ee.Code
	}
	return run.ExitBadInput
}

// TestDefaultReplay is the README's first command.
func TestDefaultReplay(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	stdout, err := execute(t, "replay", "--check", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"KTH-SP2", "28475 (completed 28000, killed at walltime 475", "files in " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"jobs.parquet", "timeseries.parquet", "nodes.parquet", "summary.parquet", "summary.csv", "run.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

// wallColumns are the only summary columns that may differ between two
// identical runs: they measure the machine, not the schedule.
var wallColumns = map[string]bool{"wall_s": true, "events_per_s": true, "jobs_per_s": true}

// TestDeterminism: same inputs, same bytes, for every table and format.
func TestDeterminism(t *testing.T) {
	for _, format := range []string{"parquet", "arrow", "csv"} {
		for _, bf := range []string{"easy", "conservative"} {
			t.Run(format+"/"+bf, func(t *testing.T) {
				dirs := [2]string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
				for _, d := range dirs {
					if _, err := execute(t, "replay", "--quiet", "--backfill", bf, "--format", format, "--out", d); err != nil {
						t.Fatal(err)
					}
				}
				for _, table := range []string{"jobs", "timeseries", "nodes"} {
					name := table + "." + format
					a, _ := os.ReadFile(filepath.Join(dirs[0], name))
					b, _ := os.ReadFile(filepath.Join(dirs[1], name))
					if len(a) == 0 || !bytes.Equal(a, b) {
						t.Errorf("%s differs between two runs (or is empty)", name)
					}
				}
				a, b := maskedSummary(t, dirs[0]), maskedSummary(t, dirs[1])
				if a != b {
					t.Errorf("summary.csv differs beyond wall-clock columns:\n%s\n%s", a, b)
				}
			})
		}
	}
}

func maskedSummary(t *testing.T, dir string) string {
	f, err := os.Open(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("summary.csv: %v", err)
	}
	for i, name := range rows[0] {
		if wallColumns[name] {
			rows[1][i] = "-"
		}
	}
	return strings.Join(rows[0], ",") + "\n" + strings.Join(rows[1], ",")
}

// TestBatsimMediumLate replays the Batsim medium_late workload on its
// platform under every backfill, with invariants checked.
func TestBatsimMediumLate(t *testing.T) {
	needShared(t)
	dir := filepath.Join(shared, "batsim", "medium_late")
	for _, bf := range []string{"none", "easy", "conservative"} {
		out := filepath.Join(t.TempDir(), bf)
		_, err := execute(t, "replay", "--quiet", "--check", "--trace", filepath.Join(dir, "medium_late.json"),
			"--platform", filepath.Join(dir, "platform.xml"), "--backfill", bf, "--out", out)
		if err != nil {
			t.Fatal(err)
		}
		row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if row["jobs"] != "801" || row["jobs_unfinished"] != "0" || row["energy_j"] == "0" {
			t.Errorf("%s: jobs %s unfinished %s energy %s", bf, row["jobs"], row["jobs_unfinished"], row["energy_j"])
		}
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "run.yaml")
	os.WriteFile(cfg, []byte("backfill: none\nformat: csv\nout: out\n"), 0o644)
	if _, err := execute(t, "replay", "--quiet", "--config", cfg, "--backfill", "conservative"); err != nil {
		t.Fatal(err)
	}
	// The file's out and format hold; the flag's backfill wins.
	row, err := metrics.ReadSummaryCSV(filepath.Join(dir, "out", "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if row["backfill"] != "conservative" {
		t.Errorf("backfill %q, want the flag's conservative", row["backfill"])
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "jobs.csv")); err != nil {
		t.Error(err)
	}
	os.WriteFile(cfg, []byte("backfill: none\nbackfil: easy\n"), 0o644)
	_, err = execute(t, "replay", "--config", cfg)
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), `run.yaml:2: unknown key "backfil" (did you mean "backfill"?)`) {
		t.Errorf("unknown key: got %v", err)
	}
}

// TestBadInput: every problem at once, exit status 2, nothing written.
func TestBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, err := execute(t, "replay", "--backfill", "bogus", "--queue", "lifo", "--out", out)
	if exitCode(err) != run.ExitBadInput {
		t.Fatalf("exit %d, want 2: %v", exitCode(err), err)
	}
	for _, want := range []string{`--backfill: unknown backfill "bogus"`, `--queue: unknown queue order "lifo"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: 4\n1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 x 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644)
	_, err = execute(t, "replay", "--strict", "--trace", bad, "--out", out)
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "bad.swf:3: field 4 (run_time) = \"x\": not a number") {
		t.Errorf("strict: got %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); !os.IsNotExist(err) {
		t.Errorf("a failed run left summary.csv behind")
	}
	// Lenient: the same file replays, the bad record is counted.
	if _, err := execute(t, "replay", "--quiet", "--trace", bad, "--out", out); err != nil {
		t.Fatal(err)
	}
	row, _ := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if row["jobs"] != "1" || row["jobs_skipped"] != "1" {
		t.Errorf("lenient: jobs %s skipped %s", row["jobs"], row["jobs_skipped"])
	}
}
