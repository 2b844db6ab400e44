package native

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// recordedJobs have every combination of the recorded fields: none, all,
// a start recorded at 0 and one before time 0, and a co-task group.
func recordedJobs() []*sim.Job {
	job := func(id string) *sim.Job {
		return &sim.Job{ID: id, Walltime: sim.NoWalltime, Tasks: 1, Gang: true}
	}
	none := job("none")
	all := job("all")
	all.Tasks, all.QOS, all.RequestedProcs, all.Recorded, all.RecordedStart = 2, "normal", 64, true, 300_500_000
	atZero := job("at-zero")
	atZero.Recorded = true
	early := job("early")
	early.QOS, early.Recorded, early.RecordedStart = "high, \"urgent\"", true, -1_500_000
	procs := job("procs")
	procs.RequestedProcs = 1 << 40
	group := job("web-1")
	group.CotaskGroup = "web"
	group.Traits = &sim.Traits{Labels: []sim.Label{{Key: CotaskLabel, Value: "web"}}}
	return []*sim.Job{none, all, atZero, early, procs, group}
}

// TestRecordedRoundTrip: qos, requested_procs and recorded_start_s, and
// the co-task group, come back as written in every encoding.
func TestRecordedRoundTrip(t *testing.T) {
	jobs := recordedJobs()
	want := dumpAll(jobs)
	roundTrip(t, jobs, func(name string, back []*sim.Job) {
		if got := dumpAll(back); got != want {
			t.Errorf("%s:\n got\n%s\nwant\n%s", name, got, want)
		}
	})
}

// TestWriteRecordedShape: the fields are left out of a job that has none
// (JSON Lines), and columns are added only when some job has them (CSV;
// Parquet alike), so traces without them are written as before.
func TestWriteRecordedShape(t *testing.T) {
	jobs := recordedJobs()
	var jl bytes.Buffer
	if err := WriteJSONL(&jl, jobs[:3]); err != nil {
		t.Fatal(err)
	}
	wantJSONL := `{"id":"none","submit_s":0,"runtime_s":0,"tasks":1}
{"id":"all","submit_s":0,"runtime_s":0,"tasks":2,"qos":"normal","requested_procs":64,"recorded_start_s":300.5}
{"id":"at-zero","submit_s":0,"runtime_s":0,"tasks":1,"recorded_start_s":0}
`
	if jl.String() != wantJSONL {
		t.Errorf("JSON Lines:\n got\n%s\nwant\n%s", jl.String(), wantJSONL)
	}
	for _, c := range []struct {
		jobs   []*sim.Job
		header string
	}{
		{jobs[:1], "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang"},
		{jobs[2:3], "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang,recorded_start_s"},
		{jobs[:2], "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang,qos,requested_procs,recorded_start_s"},
	} {
		var b bytes.Buffer
		if err := WriteCSV(&b, c.jobs); err != nil {
			t.Fatal(err)
		}
		if header, _, _ := strings.Cut(b.String(), "\n"); header != c.header {
			t.Errorf("CSV header %s, want %s", header, c.header)
		}
		pf, err := file.NewParquetReader(bytes.NewReader(parquetBytes(t, c.jobs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		var cols []string // every column is flat: one leaf each
		for i := range pf.MetaData().Schema.NumColumns() {
			cols = append(cols, pf.MetaData().Schema.Column(i).Name())
		}
		wantCols := strings.ReplaceAll(strings.ReplaceAll(c.header, "_s,", "_us,"), "recorded_start_s", "recorded_start_us")
		if got := strings.Join(cols, ","); got != wantCols {
			t.Errorf("Parquet columns %s, want %s", got, wantCols)
		}
	}
}

// TestRecordedDefaults: traces written before the recorded fields read
// with their defaults: no QOS, no requested processors, no recorded
// start.
func TestRecordedDefaults(t *testing.T) {
	var all []*sim.Job
	for _, name := range []string{"jobs.jsonl", "jobs.csv"} {
		all = append(all, openAll(t, filepath.Join(testdata, name), traces.Options{Strict: true})...)
	}
	pq, _, err := readParquet(t, minimal(t, v1, []string{"a"}, []int64{0}, []int64{1}), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range append(all, pq...) {
		if j.QOS != "" || j.RequestedProcs != 0 || j.Recorded || j.RecordedStart != 0 {
			t.Errorf("%s: %s", j.ID, dump(j))
		}
	}
}

// TestParquetRecordedErrors: bad values in the recorded columns name the
// row and the column.
func TestParquetRecordedErrors(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	for _, c := range []struct {
		col  string
		vals []int64
		want string
	}{
		{"requested_procs", []int64{4, -1}, "t.parquet:2: field requested_procs: must be ≥ 0"},
		{"recorded_start_us", []int64{0, -2_000_000_000_000_000_000}, "t.parquet:2: field recorded_start_us: must be at most 1e12 s"},
	} {
		data := rawParquet(t, []arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String},
			{Name: "submit_us", Type: i64}, {Name: "runtime_us", Type: i64}, {Name: c.col, Type: i64}},
			[]arrow.Array{strs("a", "b"), ints(0, 1), ints(1, 1), ints(c.vals...)}, v1)
		jobs, _, err := readParquet(t, data, traces.Options{Strict: true})
		if err == nil || err.Error() != c.want || len(jobs) != 1 {
			t.Errorf("got %v after %d jobs, want %s after 1", err, len(jobs), c.want)
		}
	}
}
