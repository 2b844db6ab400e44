package azure

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

var (
	testdata = filepath.Join("..", "..", "testdata", "azure")
	sample   = filepath.Join(testdata, "vmtable.csv")
)

func formatJobs(jobs []*sim.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		var req []string
		for _, q := range j.Request {
			req = append(req, q.Resource+":"+q.Amount.String())
		}
		// Ids and subscriptions are long hashes: their first 8 characters.
		fmt.Fprintf(&b, "id=%.8s submit=%s runtime=%s tasks=%d request=%s user=%.8s group=%.8s queue=%s\n",
			j.ID, sim.FormatSeconds(j.Submit), sim.FormatSeconds(j.Runtime), j.Tasks, strings.Join(req, ","), j.User, j.Group, j.Queue)
	}
	return b.String()
}

// TestSampleGolden: the sample parses, strict and lenient alike, into the
// golden jobs, in creation order.
func TestSampleGolden(t *testing.T) {
	var outs []string
	for _, strict := range []bool{true, false} {
		r, err := Open(sample, Options{Options: traces.Options{Strict: strict}})
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := tracetest.Drain(r)
		r.Close()
		if err != nil || r.Skips().Total != 0 {
			t.Fatalf("strict %t: %v, %d skipped", strict, err, r.Skips().Total)
		}
		for i := 1; i < len(jobs); i++ {
			if jobs[i].Submit < jobs[i-1].Submit {
				t.Errorf("job %d created %v before job %d (%v)", i, jobs[i].Submit, i-1, jobs[i-1].Submit)
			}
		}
		if len(jobs) != 24 {
			t.Errorf("%d jobs, want the 24 rows", len(jobs))
		}
		outs = append(outs, formatJobs(jobs))
	}
	if outs[0] != outs[1] {
		t.Error("strict and lenient differ")
	}
	tracetest.Golden(t, filepath.Join(testdata, "golden", "vmtable.jobs"), outs[0])
}

// TestMapping works single rows out by hand.
func TestMapping(t *testing.T) {
	rows := strings.Join([]string{
		// created 600, deleted 87000: runs 86400 s; 4 cores, 8 GB.
		"vm1,s1,d1,600,87000,90.5,10.2,60.1,Delay-insensitive,4,8",
		// open buckets: 32 cores, 128 GB; runs 12000 − 4800 = 7200 s.
		"vm2,s2,d2,4800,12000,99,50,90,Interactive,>24,>64",
		// alive at the end: deleted = 2592000 (30 days), runs 2592000 − 14700 = 2577300 s.
		"vm3,s3,d3,14700,2592000,20,5,10,Unknown,2,2",
		// empty vmdeleted: runs to TraceEnd, 2592000 − 20000 = 2572000 s.
		"vm4,s3,d3,20000,,20,5,10,Unknown,2,4",
	}, "\n") + "\n"
	jobs, err := tracetest.Drain(NewReader(strings.NewReader(rows), "vmtable.csv", Options{Options: traces.Options{Strict: true}}))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id        string
		submit, r sim.Time
		cpu, mem  sim.Amount
		queue     string
	}{
		{"vm1", 600, 86400, 4000, 8000, "Delay-insensitive"},
		{"vm2", 4800, 7200, 32000, 128000, "Interactive"},
		{"vm3", 14700, 2577300, 2000, 2000, "Unknown"},
		{"vm4", 20000, 2572000, 2000, 4000, "Unknown"},
	}
	for i, w := range want {
		j := jobs[i]
		if j.ID != w.id || j.Submit != w.submit*sim.Second || j.Runtime != w.r*sim.Second || j.Queue != w.queue ||
			j.Tasks != 1 || j.Walltime != sim.NoWalltime ||
			!slices.Equal(j.Request, []sim.Quantity{{Resource: "cpu", Amount: w.cpu}, {Resource: "mem", Amount: w.mem}}) {
			t.Errorf("row %d: %s", i+1, formatJobs([]*sim.Job{j}))
		}
	}
	// Other values for the open buckets and the window's end.
	jobs, _ = tracetest.Drain(NewReader(strings.NewReader(rows), "vmtable.csv", Options{OpenCores: 40, OpenMemoryGB: 96, TraceEnd: 30000 * sim.Second}))
	if jobs[1].Request[0].Amount != 40000 || jobs[1].Request[1].Amount != 96000 || jobs[3].Runtime != 10000*sim.Second {
		t.Errorf("options not applied:\n%s", formatJobs(jobs))
	}
}

// TestSortWindow: rows late by up to the window come out in order; a row
// later than that is a bad record.
func TestSortWindow(t *testing.T) {
	// Creation times in file order: 100, 300, 200, 50.
	rows := "a,s,d,100,200,1,1,1,Unknown,2,2\nb,s,d,300,400,1,1,1,Unknown,2,2\nc,s,d,200,400,1,1,1,Unknown,2,2\ne,s,d,50,400,1,1,1,Unknown,2,2\n"
	ids := func(jobs []*sim.Job) string {
		var s []string
		for _, j := range jobs {
			s = append(s, j.ID)
		}
		return strings.Join(s, ",")
	}
	// Window 3: the reader holds up to 4 before the first leaves, so e
	// (50), read fourth, is still held with the others: e, a, c, b.
	jobs, err := tracetest.Drain(NewReader(strings.NewReader(rows), "vmtable.csv", Options{Window: 3}))
	if err != nil || ids(jobs) != "e,a,c,b" {
		t.Errorf("window 3: %s, %v", ids(jobs), err)
	}
	// Window 1: a and b held, a (100) leaves; c (200) is in time; with b
	// and c held, c (200) leaves; e (50) is late: line 4, vmcreated.
	_, err = tracetest.Drain(NewReader(strings.NewReader(rows), "vmtable.csv", Options{Window: 1, Options: traces.Options{Strict: true}}))
	if pe := tracetest.ParseErr(t, err); pe.Line != 4 || pe.Field != "vmcreated" || !errors.Is(err, errLate) {
		t.Errorf("window 1 strict: %v", err)
	}
	r := NewReader(strings.NewReader(rows), "vmtable.csv", Options{Window: 1})
	jobs, err = tracetest.Drain(r)
	if err != nil || ids(jobs) != "a,c,b" || r.Skips().Total != 1 || r.Skips().ByReason[errLate.Error()] != 1 {
		t.Errorf("window 1 lenient: %s, %d skipped, %v", ids(jobs), r.Skips().Total, err)
	}
}

// TestStrictFields: one bad field at a time, as line 2 between good rows;
// strict mode names file, line and field; lenient mode skips the row.
func TestStrictFields(t *testing.T) {
	good := "vm1,s1,d1,600,87000,90.5,10.2,60.1,Delay-insensitive,4,8"
	cases := []struct{ row, field string }{
		{",s,d,600,900,1,1,1,Unknown,2,2", "vmid"},
		{"vm2,s,d,,900,1,1,1,Unknown,2,2", "vmcreated"},
		{"vm2,s,d,-300,900,1,1,1,Unknown,2,2", "vmcreated"},
		{"vm2,s,d,x,900,1,1,1,Unknown,2,2", "vmcreated"},
		{"vm2,s,d,2592000,2592000,1,1,1,Unknown,2,2", "vmcreated"}, // at the window's end
		{"vm2,s,d,600,y,1,1,1,Unknown,2,2", "vmdeleted"},
		{"vm2,s,d,900,600,1,1,1,Unknown,2,2", "vmdeleted"},
		{"vm2,s,d,600,900,1,1,1,,2,2", "vmcategory"},
		{"vm2,s,d,600,900,1,1,1,Unknown,,2", "vmcorecountbucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,0,2", "vmcorecountbucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,<8,2", "vmcorecountbucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,>48,2", "vmcorecountbucket"}, // open bucket above 32
		{"vm2,s,d,600,900,1,1,1,Unknown,2,", "vmmemorybucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,2,-4", "vmmemorybucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,2,>256", "vmmemorybucket"},
		{"vm2,s,d,600,900,1,1,1,Unknown,2", ""},     // 10 columns
		{`vm2,s,d"x,600,900,1,1,1,Unknown,2,2`, ""}, // bare quote
	}
	for _, c := range cases {
		text := good + "\n" + c.row + "\n" + good + "\n"
		_, err := tracetest.Drain(NewReader(strings.NewReader(text), "vmtable.csv", Options{Options: traces.Options{Strict: true}}))
		pe := tracetest.ParseErr(t, err)
		if pe.File != "vmtable.csv" || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("%q: got %v, want vmtable.csv:2 field %q", c.row, err, c.field)
		}
		r := NewReader(strings.NewReader(text), "vmtable.csv", Options{})
		jobs, err := tracetest.Drain(r)
		if err != nil || len(jobs) != 2 || r.Skips().Total != 1 {
			t.Errorf("%q lenient: %d jobs, %d skipped, %v", c.row, len(jobs), r.Skips().Total, err)
		}
	}
}

// TestLenientCounts: all the bad rows of TestStrictFields' kinds in one
// file: counted by reason, good rows kept.
func TestLenientCounts(t *testing.T) {
	text := strings.Join([]string{
		"vm1,s,d,600,900,1,1,1,Unknown,2,2",     // good
		",s,d,600,900,1,1,1,Unknown,2,2",        // vmid missing
		"vm3,s,d,600,900,1,1,1,,2,2",            // vmcategory missing
		"vm4,s,d,900,600,1,1,1,Unknown,2,2",     // deleted before created
		"vm5,s,d,600,900,1,1,1,Unknown,0,2",     // bad bucket
		"vm6,s,d,600,900,1,1,1,Unknown,3,x",     // bad bucket
		"vm7,s,d,700,900,1,1,1,Unknown,>24,>64", // good
	}, "\n") + "\n"
	r := NewReader(strings.NewReader(text), "vmtable.csv", Options{})
	jobs, err := tracetest.Drain(r)
	s := r.Skips()
	// 2 good, 5 bad: missing ×2, before vmcreated ×1, bucket ×2.
	if err != nil || len(jobs) != 2 || s.Total != 5 || s.ByReason[errMissing.Error()] != 2 ||
		s.ByReason[errBeforeCreate.Error()] != 1 || s.ByReason[errBucket.Error()] != 2 {
		t.Errorf("%d jobs, skips %+v, %v", len(jobs), s, err)
	}
}

func TestGzipAndIsTrace(t *testing.T) {
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "vmtable.csv.gz")
	tracetest.WriteGzip(t, path, data)
	r, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gz, _ := tracetest.Drain(r)
	plain, _ := tracetest.Drain(NewReader(bytes.NewReader(data), "vmtable.csv", Options{}))
	if formatJobs(gz) != formatJobs(plain) || len(plain) == 0 {
		t.Error("gzip and plain differ")
	}
	for p, want := range map[string]bool{sample: true, path: true, "x/vmtable_sorted.csv": true, "x/batch_task.csv": false, "vm.csv": false} {
		if IsTrace(p) != want {
			t.Errorf("IsTrace(%s) != %t", p, want)
		}
	}
}
