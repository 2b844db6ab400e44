package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDuration(t *testing.T) {
	for s, want := range map[float64]string{
		0:                  "0 s",
		0.0005:             "500 µs",
		0.25:               "250 ms",
		21.821428571428573: "21.8 s",
		59.96:              "1m 0s",
		6890:               "1h 54m 50s",
		262194:             "3d 0h 49m 54s",
		28763776:           "332d 21h 56m 16s",
		-90:                "-1m 30s",
	} {
		if got := duration(s); got != want {
			t.Errorf("duration(%v) = %q, want %q", s, got, want)
		}
	}
}

// TestEnergy: 96 kJ is not "0.0 kWh"; from one kilowatt-hour on, kWh.
func TestEnergy(t *testing.T) {
	for j, want := range map[float64]string{
		12:        "12 J",
		96000:     "96 kJ",
		2.5e6:     "2.5 MJ",
		3.6e6:     "1 kWh",
		4.032e9:   "1,120 kWh",
		5.892e11:  "163,667 kWh",
		7.2e6 / 3: "2.4 MJ",
	} {
		if got := energy(j); got != want {
			t.Errorf("energy(%v) = %q, want %q", j, got, want)
		}
	}
}

func TestCountAndGrouped(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{count(1, "node"), "1 node"},
		{count(0, "node"), "0 nodes"},
		{count(5544, "node"), "5,544 nodes"},
		{grouped(94248), "94,248"},
		{grouped(-1234567), "-1,234,567"},
		{grouped(12.345), "12.3"},
		{grouped(999), "999"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestSummaryNodesModelReshaped replays an SWF log whose header's 10
// processors over 4 nodes become 4 × ⌈10/4⌉ = 12 in the nodes model: the
// warning says so even under --quiet, the skipped record takes one line,
// and without --quiet the summary lists every file of the run directory.
func TestSummaryNodesModelReshaped(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "odd.swf")
	log := "; MaxNodes: 4\n; MaxProcs: 10\n" +
		"1 0 -1 100 3 -1 -1 3 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 5 -1 50 0 -1 -1 -1 100 -1 1 1 1 -1 1 -1 -1 -1\n" // no processors: skipped
	if err := os.WriteFile(trace, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{true, false} {
		cfg := Default()
		cfg.Trace, cfg.SWFModel, cfg.Quiet, cfg.Format = trace, "nodes", quiet, "csv"
		cfg.Out = filepath.Join(dir, "runs", map[bool]string{true: "quiet", false: "loud"}[quiet])
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if _, err := Replay(context.Background(), &cfg, Options{Stdout: &stdout, Stderr: &stderr}); err != nil {
			t.Fatal(err)
		}
		warn := "the SWF header's machine is 10 processors on 4 nodes; the nodes model (⌈10 / 4⌉ = 3 processors per node) replays 4 × 3 = 12 processors, 2 more"
		if !strings.Contains(stderr.String(), warn) {
			t.Errorf("quiet %v: stderr lacks the reshaping warning:\n%s", quiet, stderr.String())
		}
		skipLine := "schedsim: 1 record of " + trace + " skipped (first: " + trace + ":4: "
		if got := strings.Contains(stderr.String(), skipLine); got != quiet {
			t.Errorf("quiet %v: skipped-record line on stderr %v:\n%s", quiet, got, stderr.String())
		}
		if quiet {
			if stdout.Len() > 0 {
				t.Errorf("--quiet printed %q", stdout.String())
			}
			continue
		}
		for _, want := range []string{
			"cluster: 4 nodes, cpu 12 — SWF header, nodes model",
			"skipped records        1 (first: " + trace + ":4: ",
			"makespan               1m 40s",
			"energy                 ",
			"files in " + cfg.Out + "/: jobs.csv timeseries.csv nodes.csv tenants.csv summary.csv run.yaml\n",
		} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("summary lacks %q:\n%s", want, stdout.String())
			}
		}
	}
}

// TestEnergyWithoutPowerModel: a Batsim workload without a platform has
// no power model, and the summary says n/a rather than 0 J.
func TestEnergyWithoutPowerModel(t *testing.T) {
	cfg := Default()
	cfg.Trace, cfg.Format = "../../testdata/batsim/test_delays.json", "csv"
	cfg.Out = filepath.Join(t.TempDir(), "run")
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	if _, err := Replay(context.Background(), &cfg, Options{Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	if want := "energy                 n/a (the cluster has no power model)"; !strings.Contains(stdout.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, stdout.String())
	}
}
