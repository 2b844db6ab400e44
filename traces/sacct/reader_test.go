package sacct

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// cet is the site's zone of the fixtures (UTC+1, fixed: no tzdata needed).
var cet = time.FixedZone("CET", 3600)

func readAll(t *testing.T, path string, opt Options) (*Reader, []*sim.Job) {
	t.Helper()
	r, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r, slices.Collect(tracetest.Jobs(t, r))
}

// brief prints the fields a fixture checks, times in seconds.
func brief(j *sim.Job) string {
	var req []string
	for _, q := range j.Request {
		req = append(req, q.Resource+"="+q.Amount.String())
	}
	wall := j.Walltime.String()
	if j.Walltime == sim.NoWalltime {
		wall = "none"
	}
	return fmt.Sprintf("%s submit=%s start=%s run=%s wall=%s tasks=%d [%s] procs=%d %s/%s %s %s prio=%d",
		j.ID, j.Submit, j.RecordedStart, j.Runtime, wall, j.Tasks, strings.Join(req, " "),
		j.RequestedProcs, j.User, j.Group, j.Partition, j.QOS, j.Priority)
}

func TestAllocations(t *testing.T) {
	opt := Options{Location: cet, PartitionTimeLimit: map[string]sim.Time{"batch": 3600 * sim.Second}}
	r, jobs := readAll(t, "testdata/allocations.txt", opt)
	want := []string{
		// 2 nodes: 64 CPUs and 16G (a job total) split over them.
		"1001 submit=0 start=300 run=3600 wall=7200 tasks=2 [cpu=32 mem=8192] procs=64 alice/physics batch normal prio=4294",
		// Submitted 30 s after the first, written last (requeued): yielded in submit order.
		// ReqMem of an older release, per CPU (2000Mc × 4 CPUs); D-HH:MM:SS.
		"1010 submit=30 start=3000 run=600 wall=172800 tasks=1 [cpu=4 mem=8000] procs=4 ivy/bio batch normal prio=5",
		// An array task; GPUs from AllocTRES gres/gpu (the typed entry not added twice); D-HH:MM:SS.
		"1002_3 submit=60 start=600 run=1800 wall=86400 tasks=1 [cpu=8 mem=4000 gpu=2] procs=8 bob/chem gpu high prio=100",
		// Heterogeneous job components; UNLIMITED is no walltime.
		"1003+0 submit=120 start=150 run=600 wall=none tasks=1 [cpu=4 mem=1024] procs=4 carol/bio batch normal prio=50",
		"1003+1 submit=120 start=150 run=600 wall=none tasks=1 [cpu=2 mem=1024] procs=2 carol/bio batch normal prio=50",
		// Running at dump time: Elapsed so far; Partition_Limit from the options.
		"1009 submit=360 start=1800 run=7200 wall=3600 tasks=1 [cpu=16 mem=32000] procs=16 frank/astro batch normal prio=800",
		// 5 CPUs on 3 nodes: 2 a node, rounded up; ReqMem per node (4Gn); MM:SS.
		"1011 submit=420 start=480 run=1800 wall=2730 tasks=3 [cpu=2 mem=4096] procs=5 gina/astro long normal prio=10",
		// Cancelled as it started, with an allocation: it ran 0 s. A bare
		// Timelimit counts minutes; ReqMem 0 (all of a node's) is not requested.
		"1012 submit=540 start=540 run=0 wall=5400 tasks=1 [cpu=1] procs=1 hank/chem batch normal prio=10",
	}
	for i, j := range jobs {
		if i >= len(want) || brief(j) != want[i] {
			t.Errorf("job %d:\n got %s", i, brief(j))
			if i < len(want) {
				t.Errorf("want %s", want[i])
			}
		}
		if !j.Recorded || !j.Gang || j.DependsOn != nil {
			t.Errorf("job %s: recorded %v gang %v deps %v", j.ID, j.Recorded, j.Gang, j.DependsOn)
		}
	}
	if len(jobs) != len(want) {
		t.Errorf("%d jobs, want %d", len(jobs), len(want))
	}
	if got := r.Epoch(); !got.Equal(time.Date(2024, 3, 1, 11, 0, 0, 0, time.UTC)) || got.Location() != cet {
		t.Errorf("epoch %v, want 2024-03-01T12:00:00 CET", got)
	}
	s := r.Skips()
	wantSkips := map[string]int{errStep.Error(): 1, errCancelledBefore.Error(): 2, errPending.Error(): 1}
	if s.Total != 4 || len(s.ByReason) != len(wantSkips) {
		t.Errorf("skips %d %v, want 4 %v", s.Total, s.ByReason, wantSkips)
	}
	for k, n := range wantSkips {
		if s.ByReason[k] != n {
			t.Errorf("skips[%q] = %d, want %d", k, s.ByReason[k], n)
		}
	}
	if s.First == nil || s.First.Line != 3 || s.First.Field != "JobID" {
		t.Errorf("first skip %v, want line 3 field JobID (the step)", s.First)
	}
	if r.Records() != 12 {
		t.Errorf("%d records, want 12", r.Records())
	}
	// Strict mode skips what never ran just the same: nothing is malformed.
	opt.Strict = true
	if _, strict := readAll(t, "testdata/allocations.txt", opt); len(strict) != len(want) {
		t.Errorf("strict: %d jobs, want %d", len(strict), len(want))
	}
}

func TestDependencies(t *testing.T) {
	_, jobs := readAll(t, "testdata/dependencies.txt", Options{})
	got := map[string]string{}
	for _, j := range jobs {
		var ds []string
		for _, d := range j.DependsOn {
			kind := "ok"
			if d.AfterAny {
				kind = "any"
			}
			ds = append(ds, d.ID+":"+kind)
		}
		got[j.ID] = strings.Join(ds, ",")
		if j.ID == "11_1" && (j.Tasks != 2 || j.Request[0].Amount != sim.Milli) {
			t.Errorf("without a node count, one task per CPU: %s", brief(j))
		}
	}
	want := map[string]string{
		"10": "", "11_1": "", "11_2": "",
		// 11 is a whole array: its tasks; 9 is not in the dump: dropped.
		"12": "10:ok,11_1:ok,11_2:ok",
		// aftercorr: the task with the same index; '?' read as ',';
		// singleton and after dropped.
		"13_2": "11_2:ok,12:any",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("dependencies\n got %v\nwant %v", got, want)
	}
	// Arriving at Eligible, dependencies are not read.
	_, jobs = readAll(t, "testdata/dependencies.txt", Options{SubmitAtEligible: true})
	for _, j := range jobs {
		if j.DependsOn != nil {
			t.Errorf("SubmitAtEligible: job %s has dependencies %v", j.ID, j.DependsOn)
		}
	}
}

func TestStrictNamesFileLineAndField(t *testing.T) {
	r, err := Open("testdata/bad.txt", Options{Options: traces.Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if j, err := r.Next(); err != nil || j.ID != "1" {
		t.Fatalf("first job: %v %v", j, err)
	}
	_, err = r.Next()
	var pe *traces.ParseError
	if !errors.As(err, &pe) || pe.File != "testdata/bad.txt" || pe.Line != 3 || pe.Field != "Start" {
		t.Fatalf("strict error %v, want testdata/bad.txt:3 field Start", err)
	}
	if want := "testdata/bad.txt:3: field Start: not a calendar time"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to begin %q", err, want)
	}
}

func TestLenientCountsSkips(t *testing.T) {
	r, jobs := readAll(t, "testdata/bad.txt", Options{})
	if len(jobs) != 2 || jobs[0].ID != "1" || jobs[1].ID != "10" {
		t.Errorf("jobs %v, want 1 and 10", jobs)
	}
	s := r.Skips()
	if s.Total != 8 {
		t.Errorf("%d skips, want 8: %v", s.Total, s.ByReason)
	}
	for _, reason := range []string{
		errTime.Error(), "8 fields, want 9 as in the header", "not a Slurm time", errMemory.Error(),
		errTRES.Error(), errState.Error(), "the job ends before its Start time", errPending.Error(),
	} {
		found := false
		for k := range s.ByReason {
			found = found || strings.HasPrefix(k, reason)
		}
		if !found {
			t.Errorf("no skip reason %q in %v", reason, s.ByReason)
		}
	}
	// Each bad line, with its field, one at a time in strict mode.
	lines := strings.Split(strings.TrimSpace(mustRead(t, "testdata/bad.txt")), "\n")
	for _, c := range []struct {
		line  int
		field string
	}{{3, "Start"}, {4, ""}, {5, "Timelimit"}, {6, "ReqMem"}, {7, "AllocTRES"}, {8, "State"}, {9, "End"}} {
		data := lines[0] + "\n" + lines[c.line-1] + "\n"
		r, err := OpenBytes("one.txt", []byte(data), Options{Options: traces.Options{Strict: true}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Next()
		var pe *traces.ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("line %d: %v, want line 2 field %q", c.line, err, c.field)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestHeaderErrors(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"", "empty dump"},
		{"\n\n", "empty dump"},
		{"Submit|Start|End|NCPUS\n", "no JobID (or JobIDRaw) field"},
		{"JobID|Start|End|NCPUS\n", "no Submit field"},
		{"JobID|Submit|End|NCPUS\n", "no Start field"},
		{"JobID|Submit|Start|NCPUS\n", "no End or Elapsed field"},
		{"JobID|Submit|Start|End\n", "no NCPUS"},
	} {
		_, err := OpenBytes("h.txt", []byte(c.data), Options{})
		var pe *traces.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.data, err, c.want)
		}
	}
}

func TestEpochConfineAndEligible(t *testing.T) {
	data := "JobIDRaw|Submit|Eligible|Start|End|AllocTRES|Partition|Timelimit\n" +
		"5|2024-03-01T10:00:00Z|2024-03-01T10:10:00Z|2024-03-01T10:20:00Z|2024-03-01T10:30:00Z|cpu=2,node=1|p1|Partition_Limit\n" +
		"6|1709287500|Unknown|2024-03-01T10:05:00+00:00|2024-03-01T10:06:00Z|cpu=1,node=1||Partition_Limit\n"
	epoch := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	r, err := OpenBytes("e.txt", []byte(data), Options{Epoch: epoch, ConfinePartitions: true, DefaultPartition: "p0", SubmitAtEligible: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for j := range tracetest.Jobs(t, r) {
		got = append(got, brief(j))
	}
	want := []string{
		// Unix seconds 1709287500 = 10:05 UTC; no partition: the default;
		// Partition_Limit with no limit given: none.
		"6 submit=3900 start=3900 run=60 wall=none tasks=1 [cpu=1 partition:p0=0] procs=1 /   prio=0",
		// Arrives at Eligible (10:10), after job 6 though submitted before it.
		"5 submit=4200 start=4800 run=600 wall=none tasks=1 [cpu=2 partition:p1=0] procs=2 / p1  prio=0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !r.Epoch().Equal(epoch) {
		t.Errorf("epoch %v, want %v", r.Epoch(), epoch)
	}
	// An epoch after a submit makes that record bad.
	r, err = OpenBytes("e.txt", []byte(data), Options{Epoch: epoch.Add(2 * time.Hour), Options: traces.Options{Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "field Submit: submitted before the epoch") {
		t.Errorf("error %v, want submitted before the epoch", err)
	}
}

func TestSniff(t *testing.T) {
	for text, want := range map[string]bool{
		"JobID|JobIDRaw|Submit|Start\n1|1|…": true,
		"\njobidraw|submit|\n":               true,
		"JobID|Start|End\n":                  false,
		"; SWF header\n1 0 10 5 1\n":         false,
		"NodeName=c[1-2] CPUs=4\n":           false,
		"job_id,submit_s\n1,0\n":             false,
	} {
		if got := Sniff([]byte(text)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", text, got, want)
		}
	}
}
