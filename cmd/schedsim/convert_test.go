package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

// convertCase is a trace and the flags it replays with. A helper adding a
// trace format adds one line to convertCases.
type convertCase struct {
	name  string
	trace string   // the original
	read  []string // flags that say how to read it (--trace-format, --swf-model, --cluster, --platform…)
	run   []string // policy flags, the same for every replay
	// events: the trace records node events, which JSON Lines and CSV
	// carry beside them (--node-events-out, then --node-events).
	events bool
}

var convertCases = []convertCase{
	{name: "swf-pool-kth", trace: "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz"},
	{name: "swf-pool-unsorted", trace: "../../testdata/swf/unsorted.swf", run: []string{"--backfill", "conservative"}},
	{name: "swf-nodes-unsorted", trace: "../../testdata/swf/unsorted.swf", read: []string{"--swf-model", "nodes"}},
	{name: "swf-nodes-dag", trace: "../../testdata/swf/dag.swf", read: []string{"--swf-model", "nodes"}},
	{name: "batsim-nb-res", trace: "../../testdata/batsim/test_delays.json"},
	{name: "batsim-platform", trace: "../../testdata/batsim/medium_late_head.json", read: []string{"--platform", "../../testdata/batsim/platform_head.xml"}},
	{name: "native-jsonl-traits", trace: "../../testdata/native/placement.jsonl", read: []string{"--cluster", "../../testdata/clusters/racks.yaml"},
		run: []string{"--placement", "least-allocated", "--explain"}},
	{name: "native-jsonl-traits-file", trace: "../../traces/native/testdata/traits.jsonl", read: []string{"--cluster", "../../testdata/clusters/racks.yaml"}},
	{name: "native-csv-deps", trace: "../../testdata/native/dag.csv", read: []string{"--cluster", "../../testdata/clusters/small.yaml"}},
	{name: "native-jsonl", trace: "../../testdata/native/jobs.jsonl", read: []string{"--cluster", "../../testdata/clusters/hetero.yaml"}},
	{name: "alibaba2018", trace: "../../testdata/alibaba", events: true},
	{name: "azure", trace: "../../testdata/azure/vmtable.csv", read: []string{"--cluster", "../../testdata/azure/cluster.yaml"}},
	{name: "google2011", trace: "../../testdata/google/2011", run: []string{"--placement", "least-allocated"}, events: true},
	{name: "google2019", trace: "../../testdata/google/2019", events: true},
	{name: "sacct-zone", trace: "../../traces/sacct/testdata/allocations.txt", read: []string{"--trace-format", "sacct", "--time-zone", "Europe/Berlin", "--cluster", "../../testdata/clusters/hetero.yaml"},
		run: []string{"--queue", "multifactor"}},
}

// TestConvertReplay: for every trace format, converting to Parquet, JSON
// Lines and CSV, then replaying the converted trace, gives the same run
// directory as replaying the original. Every table file is compared byte
// for byte, except
//   - run.yaml, which records the trace's path, format and checksum and
//     where the cluster came from;
//   - the summary (summary.csv; summary.parquet holds the same row), whose
//     wall-time columns (wallColumns) measure the simulator and whose
//     jobs_skipped counts the records the reader dropped: the converted
//     trace has none, since convert dropped them (and said how many); it
//     must equal what convert reports. Every other column is compared as
//     text.
func TestConvertReplay(t *testing.T) {
	for _, c := range convertCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			// The converted traces keep the original's base name, so that
			// the summary's trace label is the same: less the extension
			// when the label drops it (.swf, .json…), with it when not
			// (allocations.txt.parquet is labelled allocations.txt).
			base := strings.TrimSuffix(filepath.Base(c.trace), ".gz")
			switch filepath.Ext(base) {
			case ".swf", ".json", ".jsonl", ".ndjson", ".csv", ".parquet":
				base = strings.TrimSuffix(base, filepath.Ext(base))
			}
			orig := filepath.Join(dir, "orig")
			replay(t, c, orig, append([]string{"--trace", c.trace}, c.read...))
			for _, ext := range []string{".parquet", ".jsonl", ".csv"} {
				conv := filepath.Join(dir, ext[1:])
				if err := os.Mkdir(conv, 0o755); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(conv, base+ext)
				args := append([]string{"convert", c.trace, "--to", out, "--cluster-out", filepath.Join(conv, "cluster.yaml")}, c.read...)
				if c.events {
					args = append(args, "--node-events-out", filepath.Join(conv, "events.csv"))
				}
				stdout, err := execute(t, args...)
				if err != nil {
					t.Fatalf("convert: %v", err)
				}
				skipped := convertSkipped(t, stdout)
				// Parquet carries the cluster and the node events; the text
				// encodings replay with the files convert wrote beside them.
				flags := []string{"--trace", out}
				if ext == ".csv" {
					// Named after the original, vmtable.csv would be taken
					// for Azure's table.
					flags = append(flags, "--trace-format", "native")
				}
				if ext != ".parquet" {
					flags = append(flags, "--cluster", filepath.Join(conv, "cluster.yaml"))
					if c.events {
						flags = append(flags, "--node-events", filepath.Join(conv, "events.csv"))
					}
				}
				runOut := filepath.Join(conv, "run")
				replay(t, c, runOut, flags)
				sameRuns(t, orig, runOut, skipped)
			}
		})
	}
}

// replay runs one replay with the case's policy flags into out.
func replay(t *testing.T, c convertCase, out string, flags []string) {
	t.Helper()
	args := append([]string{"replay", "--quiet", "--check", "--out", out}, flags...)
	if _, err := execute(t, append(args, c.run...)...); err != nil {
		t.Fatalf("replay %v: %v", flags, err)
	}
}

// convertSkipped reads the skipped count from convert's summary line.
func convertSkipped(t *testing.T, stdout string) string {
	t.Helper()
	_, rest, ok := strings.Cut(stdout, " written, ")
	n, _, ok2 := strings.Cut(rest, " record")
	if !ok || !ok2 {
		t.Fatalf("convert printed %q", stdout)
	}
	return n
}

// sameRuns compares two run directories as TestConvertReplay says.
func sameRuns(t *testing.T, want, got string, skipped string) {
	t.Helper()
	files, err := os.ReadDir(want)
	if err != nil {
		t.Fatal(err)
	}
	gotFiles, _ := os.ReadDir(got)
	if len(files) != len(gotFiles) {
		t.Errorf("%s has %d files, %s %d", want, len(files), got, len(gotFiles))
	}
	for _, f := range files {
		switch f.Name() {
		case "run.yaml", "summary.parquet":
			continue
		case "summary.csv":
			sameSummary(t, filepath.Join(want, f.Name()), filepath.Join(got, f.Name()), skipped)
			continue
		}
		a, err := os.ReadFile(filepath.Join(want, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(got, f.Name()))
		if err != nil {
			t.Errorf("%s: %v", got, err)
			continue
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the original's (%d bytes, want %d)", filepath.Join(got, f.Name()), len(b), len(a))
		}
	}
}

func sameSummary(t *testing.T, want, got string, skipped string) {
	t.Helper()
	a, err := metrics.ReadSummaryCSV(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := metrics.ReadSummaryCSV(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Errorf("summary: %d columns, want %d", len(b), len(a))
	}
	for col, v := range a {
		switch {
		case wallColumns[col]:
		case col == "jobs_skipped":
			if v != skipped || b[col] != "0" {
				t.Errorf("jobs_skipped: original %s, convert skipped %s, converted %s (want 0)", v, skipped, b[col])
			}
		case b[col] != v:
			t.Errorf("summary %s: %q, want %q", col, b[col], v)
		}
	}
}

// TestConvertDeterministic: converting twice gives the same bytes, in
// every encoding.
func TestConvertDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".parquet", ".jsonl.gz", ".csv"} {
		var outs [2][]byte
		for i := range outs {
			out := filepath.Join(dir, strconv.Itoa(i)+ext)
			if _, err := execute(t, "convert", "../../testdata/swf/dag.swf", "--to", out, "--quiet"); err != nil {
				t.Fatal(err)
			}
			var err error
			if outs[i], err = os.ReadFile(out); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(outs[0], outs[1]) || len(outs[0]) == 0 {
			t.Errorf("%s: two conversions differ", ext)
		}
	}
}

// TestConvertErrors: bad output names, a bad trace and a cluster that is
// not there are bad input, and leave no output file behind.
func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id":"a","submit_s":0,"runtime_s":1}`+"\n"+`{"id":"b","submit_s":-1,"runtime_s":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"../../testdata/swf/dag.swf", "--to", filepath.Join(dir, "x.txt")}, "want a .parquet, .jsonl, .ndjson or .csv file"},
		{[]string{"../../testdata/swf/dag.swf"}, "--to: give the output file"},
		{[]string{bad, "--to", filepath.Join(dir, "x.parquet"), "--strict"}, "bad.jsonl:2: field submit_s: must be ≥ 0"},
		{[]string{bad, "--to", bad}, "is the trace itself"},
		{[]string{bad, "--to", filepath.Join(dir, "y.parquet"), "--cluster-out", filepath.Join(dir, "c.yaml")}, "carries no cluster"},
		{[]string{filepath.Join(dir, "missing.swf"), "--to", filepath.Join(dir, "x.parquet")}, "no such file"},
	} {
		_, err := execute(t, append([]string{"convert"}, c.args...)...)
		if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, exitCode(err), c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.parquet")); err == nil {
		t.Error("a failed conversion left x.parquet")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// TestConvertLenient: a lenient conversion skips the bad record, says so,
// and writes the others.
func TestConvertLenient(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("id,submit_s,runtime_s,req_cpu\na,0,1,2\nb,1,x,2\nc,2,1,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	stdout, err := execute(t, "convert", in, "--to", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "→ "+out+": 2 jobs written, 1 record skipped (first: "+in+":3: field runtime_s: not a number of seconds)") {
		t.Errorf("summary: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","submit_s":0,"runtime_s":1,"tasks":1,"request":{"cpu":2}}
{"id":"c","submit_s":2,"runtime_s":1,"tasks":1,"request":{"cpu":0.5}}
`
	if string(data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", data, want)
	}
}
