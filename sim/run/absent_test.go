package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// replayPrinting replays c into a fresh directory and returns what it
// printed, its summary row and the directory.
func replayPrinting(t *testing.T, c Spec) (printed string, row map[string]string, dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "run")
	c.Out = dir
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	if _, err := Replay(t.Context(), &c, Options{Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	row, err := metrics.ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), row, dir
}

// A cluster without a power model has no energy: null in every table
// format (empty in CSV), "n/a" in the printed summary, "none" in run.yaml
// — never 0.
func TestEnergyNullWithoutPowerModel(t *testing.T) {
	for _, format := range []string{"parquet", "arrow", "csv"} {
		c := Default()
		c.Trace, c.Cluster, c.Format = "../../testdata/native/placement.jsonl", "../../testdata/clusters/hetero.yaml", format
		printed, row, out := replayPrinting(t, c)
		if !strings.Contains(printed, "energy                 n/a (the cluster has no power model)") {
			t.Errorf("%s: summary:\n%s", format, printed)
		}
		for _, k := range []string{"energy_j", "energy_kwh", "energy_cost", "carbon_kg"} {
			if row[k] != "" {
				t.Errorf("%s: summary %s = %q, want null", format, k, row[k])
			}
		}
		jobs, err := metrics.ReadJobs(out)
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs.Len() {
			if v, ok := jobs.Float("energy_j", i); ok {
				t.Fatalf("%s: job %d energy_j = %v, want null", format, i, v)
			}
		}
		yaml, _ := os.ReadFile(filepath.Join(out, "run.yaml"))
		if !strings.Contains(string(yaml), "power: none (energy not measured)") {
			t.Errorf("%s: run.yaml does not say there is no power model", format)
		}
	}
}

// After a transform of the jobs' timing, or with jitter, the calib_*
// statistics are null, calib_jobs 0, and the summary and run.yaml say why;
// a transform of the cluster keeps them.
func TestCalibrationNullAfterTimingTransforms(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*TransformSpec)
		null bool
	}{
		{"load_factor 1.3", func(t *TransformSpec) { t.LoadFactor = 1.3 }, true},
		{"runtime_factor 0.9", func(t *TransformSpec) { t.RuntimeFactor = 0.9 }, true},
		{"from 86400", func(t *TransformSpec) { t.From = "86400" }, true},
		{"until 864000", func(t *TransformSpec) { t.Until = "864000" }, true},
		{"first_jobs 500", func(t *TransformSpec) { t.FirstJobs = 500 }, true},
		{"jitter_submit_s 60", func(t *TransformSpec) { t.JitterSubmitS = 60 }, true},
		{"jitter_runtime 0.1", func(t *TransformSpec) { t.JitterRuntime = 0.1 }, true},
		{"cluster_factor 1.2", func(t *TransformSpec) { t.ClusterFactor = 1.2; t.WalltimeModel = "exact" }, false},
		{"", func(*TransformSpec) {}, false},
	} {
		c := Default()
		c.Trace, c.Format, c.SWFModel = smallTrace, "csv", "nodes"
		tc.set(&c.TransformSpec)
		printed, row, out := replayPrinting(t, c)
		yaml, _ := os.ReadFile(filepath.Join(out, "run.yaml"))
		if !tc.null {
			if row["calib_wait_ks"] == "" || row["calib_jobs"] == "0" || strings.Contains(string(yaml), "calibration: ") {
				t.Errorf("%q: calibration lost: jobs %s, KS %q", tc.name, row["calib_jobs"], row["calib_wait_ks"])
			}
			continue
		}
		for _, k := range []string{"calib_start_error_median_s", "calib_start_error_p90_s", "calib_wait_ks",
			"calib_mean_wait_ratio", "calib_p95_wait_ratio", "calib_recorded_utilization"} {
			if row[k] != "" {
				t.Errorf("%s: %s = %q, want null", tc.name, k, row[k])
			}
		}
		if row["calib_jobs"] != "0" {
			t.Errorf("%s: calib_jobs %s, want 0", tc.name, row["calib_jobs"])
		}
		why := "calibration            n/a (" + tc.name + " changed the jobs' timing: no recorded start applies)"
		if !strings.Contains(printed, why) {
			t.Errorf("%s: the summary does not say why:\n%s", tc.name, printed)
		}
		if !strings.Contains(string(yaml), tc.name+" changed the jobs") {
			t.Errorf("%s: run.yaml does not say why calibration is n/a", tc.name)
		}
	}
}

// The summary says what a number rests on: an SWF header's assumed power
// model beside the energy, and sacct times taken as UTC without
// --time-zone.
func TestSummaryNamesItsAssumptions(t *testing.T) {
	for _, tc := range []struct {
		trace, cluster, zone, want string
	}{
		{smallTrace, "", "", "(assumed 100 W idle, 250 W busy per node)"},
		{"../../testdata/walkthrough/kth-sp2.sacct.gz", "../../testdata/walkthrough/slurm.conf", "",
			"  times:   the sacct times were taken as UTC (give --time-zone for the site's zone)\n"},
	} {
		c := Default()
		c.Trace, c.Cluster, c.TimeZone, c.Format = tc.trace, tc.cluster, tc.zone, "csv"
		if printed, _, _ := replayPrinting(t, c); !strings.Contains(printed, tc.want) {
			t.Errorf("%s: summary lacks %q:\n%s", tc.trace, tc.want, printed)
		}
	}
	c := Default()
	c.Trace, c.Cluster, c.TimeZone, c.Format = "../../testdata/walkthrough/kth-sp2.sacct.gz", "../../testdata/walkthrough/slurm.conf", "Europe/Stockholm", "csv"
	if printed, _, _ := replayPrinting(t, c); strings.Contains(printed, "taken as UTC") {
		t.Errorf("with --time-zone the summary still says UTC:\n%s", printed)
	}
}

// run.yaml carries its spec_version and leaves out blocks that set
// nothing; a newer version is refused with its line, a run.yaml written
// before versions (none) still loads.
func TestRunYAMLVersion(t *testing.T) {
	c := Default()
	c.Trace, c.Format = smallTrace, "csv"
	_, _, dir := replayPrinting(t, c)
	data, err := os.ReadFile(filepath.Join(dir, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "spec_version: 1\n") || strings.Contains(text, "lattice:") {
		t.Errorf("run.yaml of an FCFS run:\n%s", text)
	}
	for _, tc := range []struct{ first, err string }{
		{"spec_version: 2\n", "run.yaml:1: spec_version: version 2 is not one this schedsim reads (it reads up to 1)"},
		{"", ""},
	} {
		path := filepath.Join(t.TempDir(), "run.yaml")
		os.WriteFile(path, []byte(tc.first+strings.TrimPrefix(text, "spec_version: 1\n")), 0o644)
		spec, err := Load(path)
		if err == nil {
			err = spec.Validate()
		}
		if tc.err == "" && err != nil {
			t.Errorf("a run.yaml without spec_version: %v", err)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("spec_version 2: %v", err)
		}
	}
}
