package swf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

const sample = "../../testdata/swf/unsorted.swf"

func describe(jobs []*sim.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "%s@%s run=%s wall=%s %dx%s %s;", j.ID, j.Submit, j.Runtime, j.Walltime, j.Tasks,
			j.Request[0].Amount, j.User)
	}
	return b.String()
}

// TestSample checks every mapping rule on the hand-written sample:
//   - out-of-order submits (4 at 5 s, 8 at 12.25 s, 9 at 25 s) come out sorted,
//     ties (3 and 5 at 30 s) in file order;
//   - processors: allocated, else requested (job 2: -1 → 8); job 6 has
//     neither and job 7 has runtime -1: both skipped and counted;
//   - walltime: requested time, else the runtime (job 2: -1 → 50 s; job 8:
//     0 → 1.5 s); fractional times are exact.
func TestSample(t *testing.T) {
	r, err := Open(sample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := describe(tracetest.All(t, r))
	want := "1@0 run=100 wall=200 1x4 u1;4@5 run=10 wall=10 1x2 u3;2@10 run=50 wall=50 1x8 u2;" +
		"8@12.25 run=1.5 wall=1.5 1x5 u1;9@25 run=30 wall=100 1x2 u1;3@30 run=20 wall=20 1x16 u1;5@30 run=0 wall=5 1x1 u1;"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	s := r.Skips()
	if s.Total != 2 {
		t.Errorf("skipped %d, want 2 (%v)", s.Total, s.ByReason)
	}
	if h := r.Header(); h.MaxNodes != 4 || h.MaxProcs != 16 || r.Records() != 9 {
		t.Errorf("header %d/%d, records %d", h.MaxNodes, h.MaxProcs, r.Records())
	}
}

// TestNodesModel: 16 procs on 4 nodes is 4 per node; 5 procs take 2 nodes.
func TestNodesModel(t *testing.T) {
	r, err := Open(sample, Options{Model: Nodes})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jobs := tracetest.All(t, r)
	for _, j := range jobs {
		if j.ID == "8" && (j.Tasks != 2 || j.Request[0].Amount != sim.Units(4)) {
			t.Errorf("job 8: %d tasks of %s cpu, want 2 of 4", j.Tasks, j.Request[0].Amount)
		}
	}
	nodes, err := r.Header().Cluster(ClusterOptions{Model: Nodes})
	if err != nil || len(nodes) != 4 || nodes[3].Name != "n3" {
		t.Fatalf("cluster %v %v", nodes, err)
	}
}

func TestStrict(t *testing.T) {
	r, err := Open(sample, Options{Options: traces.Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var perr *traces.ParseError
	for {
		_, err = r.Next()
		if err != nil {
			break
		}
	}
	if !errors.As(err, &perr) {
		t.Fatalf("want a ParseError, got %v", err)
	}
	want := sample + ":11: field 8 (requested_processors) = \"-1\": processors ≤ 0 (neither allocated nor requested)"
	if perr.Error() != want {
		t.Errorf("got  %s\nwant %s", perr, want)
	}
}

func TestBadRecords(t *testing.T) {
	cases := map[string]string{
		"1 0 -1 10 1": "x:2: 5 fields, want 18",
		"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1 9":  "x:2: more than 18 fields",
		"1 zero -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1": `x:2: field 2 (submit_time) = "zero": not a number`,
		"1 0 -1 10 1.5 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1":  `x:2: field 5 (allocated_processors) = "1.5": not an integer`,
		"1 -3 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1":   `x:2: field 2 (submit_time) = "-3": negative submit time`,
		"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 x 1 -1 -1 -1":     `x:2: field 14 (executable) = "x": not a number`,
	}
	for line, want := range cases {
		r, err := OpenBytes("x", []byte("; MaxProcs: 8\n"+line+"\n"), Options{Options: traces.Options{Strict: true}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Next()
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %s", line, err, want)
		}
	}
}

// TestGzip: .swf.gz is detected by its magic bytes.
func TestGzip(t *testing.T) {
	plain, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.swf.gz")
	tracetest.WriteGzip(t, path, plain)
	a, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Open(sample, Options{})
	if x, y := describe(tracetest.All(t, a)), describe(tracetest.All(t, b)); x != y {
		t.Errorf("gzip differs:\n%s\n%s", x, y)
	}
}

// TestRealLogsStream checks each PWA log's record count against the
// header's MaxJobs arithmetic in ../shared/traces/README.md and that the
// stream is sorted.
func TestRealLogsStream(t *testing.T) {
	want := map[string]int{
		"KTH-SP2-1996-2.1-cln.swf.gz": 28476, "NASA-iPSC-1993-3.1-cln.swf.gz": 18239,
		"LANL-CM5-1994-4.1-cln.swf.gz": 122060, "LLNL-Thunder-2007-1.1-cln.swf.gz": 121039,
		"HPC2N-2002-2.1-cln.swf.gz": 202876, "SDSC-BLUE-2000-4.2-cln.swf.gz": 243306,
		"CEA-Curie-2011-2.1-cln.swf.gz": 312826, "lublin_256.swf": 10000, "lublin_256_new2": 10000,
	}
	dir := "../../../shared/traces/swf"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/traces not present")
	}
	for name, n := range want {
		r, err := Open(filepath.Join(dir, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		jobs, last := 0, sim.Time(-1)
		for j := range tracetest.Jobs(t, r) {
			if j.Submit < last {
				t.Fatalf("%s: job %s out of order", name, j.ID)
			}
			last = j.Submit
			jobs++
		}
		r.Close()
		if r.Records() != n || jobs+r.Skips().Total != n {
			t.Errorf("%s: %d records, %d jobs + %d skipped; want %d", name, r.Records(), jobs, r.Skips().Total, n)
		}
	}
}

// TestSWFDependencies reads fields 17 and 18 of testdata/swf/dag.swf: a
// preceding job > 0 is a dependency after any end, with the think time
// (-1 = 0, fractions exact); 0 and -1 are none. TestSWFDAGReplay replays
// the file.
func TestSWFDependencies(t *testing.T) {
	r, err := Open("../../testdata/swf/dag.swf", Options{Options: traces.Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b strings.Builder
	for _, j := range tracetest.All(t, r) {
		fmt.Fprintf(&b, "%s:", j.ID)
		for _, d := range j.DependsOn {
			fmt.Fprintf(&b, " %s any=%v think=%s", d.ID, d.AfterAny, d.Think)
		}
		b.WriteString(";")
	}
	want := "1:;2: 1 any=true think=30;3: 2 any=true think=0;4: 99 any=true think=5;5:;6:;7: 6 any=true think=2.5;"
	if got := b.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSWFDependencyBad: fields 17 and 18 are read now, so a value that is
// not a number is a bad record in both modes, named by its field.
func TestSWFDependencyBad(t *testing.T) {
	for _, tc := range []struct{ prec, think, field string }{
		{"x", "-1", "17 (preceding_job)"},
		{"1.5", "-1", "17 (preceding_job)"},
		{"1", "soon", "18 (think_time)"},
	} {
		data := "; MaxProcs: 4\n1 0 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n" +
			"2 1 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 " + tc.prec + " " + tc.think + "\n"
		r, err := OpenBytes("bad.swf", []byte(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if jobs := tracetest.All(t, r); len(jobs) != 1 {
			t.Errorf("%s %s: lenient read %d jobs, want 1", tc.prec, tc.think, len(jobs))
		}
		if s := r.Skips(); s.First == nil || s.First.Field != tc.field {
			t.Errorf("%s %s: skips %+v, want field %s", tc.prec, tc.think, s, tc.field)
		}
	}
}
