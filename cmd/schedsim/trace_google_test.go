package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/run"
)

// TestGoogleReplay replays both Google samples on the clusters they carry,
// under --check, with first fit and with least-allocated, and checks the
// parts of the run that come from the trace: 9 jobs (2011) and 6 (2019)
// as in testdata/google/*.golden, the machines as nodes, and the machine
// failures as node downtime (2011: m1004 is down from 0 to 900 s and
// m1003 from 1200 to 1250 s; 2019: m12 from 1000 to 1500 s).
func TestGoogleReplay(t *testing.T) {
	cases := []struct {
		dir, format string
		jobs, nodes int
		downtime    map[string]string
		forceFormat bool // give --trace-format instead of sniffing
	}{
		{"../../testdata/google/2011", "google2011", 9, 4, map[string]string{"m1003": "50", "m1004": "900"}, false},
		{"../../testdata/google/2019", "google2019", 6, 3, map[string]string{"m12": "500"}, true},
	}
	for _, c := range cases {
		for _, placement := range []string{"first-fit", "least-allocated"} {
			t.Run(c.format+"/"+placement, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "run")
				args := []string{"replay", "--quiet", "--check", "--trace", c.dir, "--placement", placement, "--format", "csv", "--out", out}
				if c.forceFormat {
					args = append(args, "--trace-format", c.format)
				}
				if _, err := execute(t, args...); err != nil {
					t.Fatal(err)
				}
				jobs := runcmp.ReadCSV(t, filepath.Join(out, "jobs.csv"))
				if len(jobs)-1 != c.jobs {
					t.Errorf("%d jobs, want %d", len(jobs)-1, c.jobs)
				}
				nodes := runcmp.ReadCSV(t, filepath.Join(out, "nodes.csv"))
				if len(nodes)-1 != c.nodes {
					t.Errorf("%d nodes, want %d", len(nodes)-1, c.nodes)
				}
				col := map[string]int{}
				for i, h := range nodes[0] {
					col[h] = i
				}
				for _, row := range nodes[1:] {
					want, ok := c.downtime[row[col["node"]]]
					if !ok {
						want = "0"
					}
					if got := row[col["downtime_s"]]; got != want {
						t.Errorf("node %s: downtime %s s, want %s", row[col["node"]], got, want)
					}
				}
				runYAML, err := os.ReadFile(filepath.Join(out, "run.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(runYAML), "format: "+c.format) || !strings.Contains(string(runYAML), "machine_events") {
					t.Errorf("run.yaml does not name the format and the cluster's source:\n%s", runYAML)
				}
			})
		}
	}
}

// TestGoogleReplayDeterminism: replaying a sample twice gives the same
// bytes (jobs, timeseries, nodes; the summary but its wall-clock columns).
func TestGoogleReplayDeterminism(t *testing.T) {
	for _, dir := range []string{"../../testdata/google/2011", "../../testdata/google/2019"} {
		outs := [2]string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
		for _, out := range outs {
			if _, err := execute(t, "replay", "--quiet", "--trace", dir, "--placement", "least-allocated", "--format", "csv", "--out", out); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range []string{"jobs.csv", "timeseries.csv", "nodes.csv"} {
			a, _ := os.ReadFile(filepath.Join(outs[0], name))
			b, _ := os.ReadFile(filepath.Join(outs[1], name))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs between two runs (or is empty)", dir, name)
			}
		}
		if a, b := maskedSummary(t, outs[0]), maskedSummary(t, outs[1]); a != b {
			t.Errorf("%s: summary differs:\n%s\n%s", dir, a, b)
		}
	}
}

// TestGoogleStrictError: a bad record is exit status 2 with file, line
// and field.
func TestGoogleStrictError(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/google/2011"
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if strings.HasPrefix(rel, "job_events") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "job_events", "part-00000-of-00001.csv")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	if err := os.WriteFile(bad, []byte("0,,100,0,u1,1,jn,ln\n0,,100,12,u1,1,jn,ln\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = execute(t, "replay", "--quiet", "--strict", "--trace", dir, "--out", filepath.Join(dir, "run"))
	want := bad + ":2: field 4 (event type): 12 out of range 0–8"
	if exitCode(err) != run.ExitBadInput || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v (exit %d), want exit 2 with %q", err, exitCode(err), want)
	}
}
