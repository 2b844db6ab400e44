package native

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// parquetBytes writes jobs as a Parquet trace in memory.
func parquetBytes(t testing.TB, jobs []*sim.Job, meta *Embedded) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteParquet(&b, jobs, meta); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readParquet(t testing.TB, data []byte, opt traces.Options) ([]*sim.Job, *Reader, error) {
	t.Helper()
	r, err := NewParquetReader(bytes.NewReader(data), "t.parquet", opt)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := tracetest.Drain(r)
	return jobs, r, err
}

// sampleJobs are every sample of the text encodings: the job fields, the
// traits and the dependencies.
func sampleJobs(t *testing.T) map[string][]*sim.Job {
	return map[string][]*sim.Job{
		"jobs":   openAll(t, filepath.Join(testdata, "jobs.jsonl"), traces.Options{Strict: true}),
		"traits": openAll(t, filepath.Join("testdata", "traits.jsonl"), traces.Options{Strict: true}),
		"dag":    openAll(t, filepath.Join(testdata, "dag.jsonl"), traces.Options{Strict: true}),
		"deps":   depJobs(),
	}
}

// TestParquetRoundTrip: reading what the writer wrote gives the same jobs,
// for every sample.
func TestParquetRoundTrip(t *testing.T) {
	for name, jobs := range sampleJobs(t) {
		t.Run(name, func(t *testing.T) {
			back, r, err := readParquet(t, parquetBytes(t, jobs, nil), traces.Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := dumpAll(back), dumpAll(jobs); got != want {
				t.Errorf("round trip:\n got:\n%s\nwant:\n%s", got, want)
			}
			if r.Embedded() == nil || r.Embedded().Cluster != nil {
				t.Errorf("embedded: %+v, want empty", r.Embedded())
			}
			hasTraits := false
			for _, j := range jobs {
				hasTraits = hasTraits || j.Traits != nil
			}
			if r.Traitless() == hasTraits {
				t.Errorf("Traitless() = %t for a trace with traits %t", r.Traitless(), hasTraits)
			}
			hasDeps := false
			for _, j := range jobs {
				hasDeps = hasDeps || len(j.DependsOn) > 0
			}
			if r.NoDependencies() == hasDeps {
				t.Errorf("NoDependencies() = %t for a trace with dependencies %t", r.NoDependencies(), hasDeps)
			}
		})
	}
}

// TestParquetJSONLParquet: Parquet → JSON Lines → Parquet gives the same
// jobs and the same bytes (the writer is deterministic).
func TestParquetJSONLParquet(t *testing.T) {
	for name, jobs := range sampleJobs(t) {
		t.Run(name, func(t *testing.T) {
			first := parquetBytes(t, jobs, &Embedded{Source: "sample"})
			fromParquet, _, err := readParquet(t, first, traces.Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			var jl bytes.Buffer
			if err := WriteJSONL(&jl, fromParquet); err != nil {
				t.Fatal(err)
			}
			fromJSONL, err := tracetest.Drain(NewJSONLReader(&jl, "t.jsonl", traces.Options{Strict: true}))
			if err != nil {
				t.Fatal(err)
			}
			second := parquetBytes(t, fromJSONL, &Embedded{Source: "sample"})
			if !bytes.Equal(first, second) {
				t.Errorf("Parquet → JSONL → Parquet: %d bytes, then %d, not the same", len(first), len(second))
			}
			if got, want := dumpAll(fromJSONL), dumpAll(jobs); got != want {
				t.Errorf("jobs differ:\n got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestParquetEmbedded: the cluster and node events ride in the metadata
// and come back the same.
func TestParquetEmbedded(t *testing.T) {
	nodes := []sim.NodeSpec{
		{Name: "n0", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}}, Power: sim.PowerModel{IdleW: 100, MaxW: 250}},
		{Name: "n1", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}}, Power: sim.PowerModel{IdleW: 100, MaxW: 250}},
		{Name: "big,1", Capacity: []sim.Quantity{{Resource: "cpu", Amount: 1500}}, Attributes: map[string]string{"zone": "b"}},
	}
	events := []sim.NodeEvent{{At: 5 * sim.Second, Node: "n1", Kind: sim.NodeFail}, {At: 7_500_000, Node: "big,1", Kind: sim.NodeDrain, Deadline: 9 * sim.Second}}
	defaults := []sim.Quantity{{Resource: "avoid", Amount: 1000}}
	meta := &Embedded{Cluster: nodes, Defaults: defaults, ClusterSource: "SWF header", NodeEvents: events, Source: "x.swf"}
	_, r, err := readParquet(t, parquetBytes(t, depJobs(), meta), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Embedded()
	if e.Source != "x.swf" || e.ClusterSource != "SWF header" || len(e.Cluster) != 3 || e.Cluster[2].Name != "big,1" ||
		e.Cluster[2].Capacity[0].Amount != 1500 || e.Cluster[0].Power.MaxW != 250 {
		t.Errorf("embedded: %+v", e)
	}
	if len(e.Defaults) != 1 || e.Defaults[0] != defaults[0] {
		t.Errorf("defaults: %v, want %v", e.Defaults, defaults)
	}
	if len(e.NodeEvents) != 2 || e.NodeEvents[1] != events[1] || e.NodeEvents[0] != events[0] {
		t.Errorf("node events: %+v, want %+v", e.NodeEvents, events)
	}
}

// rawParquet writes columns as they are, with the given metadata, to
// make files the writer would never write.
func rawParquet(t *testing.T, fields []arrow.Field, cols []arrow.Array, kv map[string]string) []byte {
	t.Helper()
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecord(schema, cols, -1)
	defer rec.Release()
	var b bytes.Buffer
	fw, err := pqarrow.NewFileWriter(schema, &b, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		fw.AppendKeyValueMetadata(k, kv[k])
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var mem = memory.DefaultAllocator

func strs(vals ...string) arrow.Array {
	b := array.NewStringBuilder(mem)
	for _, v := range vals {
		if v == "<null>" {
			b.AppendNull()
		} else {
			b.Append(v)
		}
	}
	return b.NewArray()
}

func ints(vals ...int64) arrow.Array {
	b := array.NewInt64Builder(mem)
	b.AppendValues(vals, nil)
	return b.NewArray()
}

// minimal is a two-row trace with only the required columns, submit and
// runtime as given.
func minimal(t *testing.T, kv map[string]string, ids []string, submit, runtime []int64) []byte {
	i64 := arrow.PrimitiveTypes.Int64
	return rawParquet(t, []arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "submit_us", Type: i64}, {Name: "runtime_us", Type: i64}},
		[]arrow.Array{strs(ids...), ints(submit...), ints(runtime...)}, kv)
}

var v1 = map[string]string{schemaKey: schemaName}

// TestParquetMinimal: a file with only the required columns reads with
// every default (tasks 1, gang, no walltime).
func TestParquetMinimal(t *testing.T) {
	jobs, _, err := readParquet(t, minimal(t, v1, []string{"a", "b"}, []int64{0, 1_500_000}, []int64{60_000_000, 1}), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `id="a" submit=0 runtime=60000000 walltime=-1 tasks=1 request=[] user="" group="" queue="" partition="" priority=0 gang=true
id="b" submit=1500000 runtime=1 walltime=-1 tasks=1 request=[] user="" group="" queue="" partition="" priority=0 gang=true
`
	if got := dumpAll(jobs); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestParquetVersion: a file without the schema key, or with another
// version, is refused with a message naming the key and both versions.
func TestParquetVersion(t *testing.T) {
	for _, c := range []struct {
		kv   map[string]string
		want string
	}{
		{map[string]string{schemaKey: "schedsim-native v2"}, `t.parquet: schema "schedsim-native v2" (metadata key schedsim.schema): this schedsim reads "schedsim-native v1" only`},
		{map[string]string{"other": "x"}, `t.parquet: not a schedsim native trace: the Parquet key-value metadata has no schedsim.schema key (want "schedsim-native v1"`},
	} {
		_, _, err := readParquet(t, minimal(t, c.kv, []string{"a"}, []int64{0}, []int64{1}), traces.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// TestParquetRowErrors: a bad value names the file, the row (1-based)
// and the column; strict mode stops there, lenient mode skips the row
// and counts it.
func TestParquetRowErrors(t *testing.T) {
	for _, c := range []struct {
		ids             []string
		submit, runtime []int64
		want            string
	}{
		{[]string{"a", ""}, []int64{0, 1}, []int64{1, 1}, "t.parquet:2: field id: must not be empty"},
		{[]string{"a", "<null>"}, []int64{0, 1}, []int64{1, 1}, "t.parquet:2: field id: missing"},
		{[]string{"a", "b"}, []int64{0, -1}, []int64{1, 1}, "t.parquet:2: field submit_us: must be ≥ 0"},
		{[]string{"a", "b"}, []int64{0, 1}, []int64{1, 2_000_000_000_000_000_000}, "t.parquet:2: field runtime_us: must be at most 1e12 s"},
	} {
		data := minimal(t, v1, c.ids, c.submit, c.runtime)
		jobs, _, err := readParquet(t, data, traces.Options{Strict: true})
		if err == nil || err.Error() != c.want || len(jobs) != 1 {
			t.Errorf("strict: got %v after %d jobs, want %s after 1", err, len(jobs), c.want)
		}
		var pe *traces.ParseError
		if !errors.As(err, &pe) || pe.Line != 2 {
			t.Errorf("want a ParseError on line (row) 2, got %#v", err)
		}
		jobs, r, err := readParquet(t, data, traces.Options{})
		if err != nil || len(jobs) != 1 || r.Skips().Total != 1 || r.Skips().First.Error() != c.want {
			t.Errorf("lenient: %v, %d jobs, skips %+v", err, len(jobs), r.Skips())
		}
	}
}

// TestParquetTraitErrors: errors inside structured columns name the
// place as the text encodings do.
func TestParquetTraitErrors(t *testing.T) {
	base := func() *sim.Job {
		return &sim.Job{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Gang: true, Traits: &sim.Traits{}}
	}
	for _, c := range []struct {
		mod  func(*sim.Job)
		want string
	}{
		{func(j *sim.Job) { j.Traits.Constraints = []sim.Constraint{{Kind: "x"}} }, "t.parquet:1: field constraints[0].kind: unknown constraint"},
		{func(j *sim.Job) { j.Traits.Tolerations = []sim.Toleration{{Key: "k", Effect: "Never"}} }, "t.parquet:1: field tolerations[0].effect: must be NoSchedule or PreferNoSchedule"},
		{func(j *sim.Job) { j.Traits.Selector = []sim.Label{{Key: "z", Value: "a"}, {Key: "z", Value: "b"}} }, "t.parquet:1: field selector.z: given twice"},
		{func(j *sim.Job) { j.Traits.Immunities = []string{"gpu", ""} }, "t.parquet:1: field immunities[1]: must not be empty"},
		{func(j *sim.Job) { j.DependsOn = []sim.Dependency{{ID: "b", Think: -1}} }, "t.parquet:1: field depends_on[0].think_us: must be ≥ 0"},
	} {
		j := base()
		c.mod(j)
		// Write around the writer's own check, which would refuse j.
		var cols Columns
		cols.has[fConstraints], cols.has[fTolerations], cols.has[fSelector], cols.has[fImmunities], cols.has[fDependsOn] = true, true, true, true, true
		var b bytes.Buffer
		pw, err := NewParquetWriter(&b, cols, nil)
		if err != nil {
			t.Fatal(err)
		}
		pw.appendRow(j)
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		_, _, err = readParquet(t, b.Bytes(), traces.Options{Strict: true})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// TestParquetSchemaErrors: an unknown column, a mistyped one or a missing
// required one stops the reader at open, naming the column.
func TestParquetSchemaErrors(t *testing.T) {
	i64, s := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	req := []arrow.Field{{Name: "id", Type: s}, {Name: "submit_us", Type: i64}, {Name: "runtime_us", Type: i64}}
	reqCols := func() []arrow.Array { return []arrow.Array{strs("a"), ints(0), ints(1)} }
	f64 := array.NewFloat64Builder(mem)
	f64.Append(1)
	for _, c := range []struct {
		fields []arrow.Field
		cols   []arrow.Array
		want   string
	}{
		{append(req, arrow.Field{Name: "usr", Type: s}), append(reqCols(), strs("x")), "t.parquet: field usr: unknown column"},
		{append(req, arrow.Field{Name: "tasks", Type: arrow.PrimitiveTypes.Float64}), append(reqCols(), f64.NewArray()), "t.parquet: field tasks: want int64, got float64"},
		{append(req, arrow.Field{Name: "req_cpu", Type: i64}), append(reqCols(), ints(1)), "t.parquet: field req_cpu: want DECIMAL(18, 3)"},
		{req[:2], reqCols()[:2], "t.parquet: field runtime_us: required column missing"},
	} {
		_, _, err := readParquet(t, rawParquet(t, c.fields, c.cols, v1), traces.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// TestParquetCorrupt: a file that is not Parquet, or is cut short, is an
// error naming it, never a panic.
func TestParquetCorrupt(t *testing.T) {
	good := parquetBytes(t, depJobs(), nil)
	for name, data := range map[string][]byte{
		"not parquet": []byte("id,submit_s,runtime_s\n1,0,1\n"),
		"cut short":   good[:len(good)/2],
		"empty":       nil,
	} {
		_, _, err := readParquet(t, data, traces.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "t.parquet: ") {
			t.Errorf("%s: got %v", name, err)
		}
	}
	// A flipped byte in the middle of the data pages: an error or other
	// jobs, never a panic.
	bad := bytes.Clone(good)
	bad[len(bad)/3] ^= 0xff
	readParquet(t, bad, traces.Options{})
}

// TestParquetOpen: Open picks Parquet by the extension and closes the
// file.
func TestParquetOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, parquetBytes(t, depJobs(), nil), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := tracetest.Drain(r)
	if err != nil || len(jobs) != len(depJobs()) {
		t.Fatalf("%v, %d jobs", err, len(jobs))
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
}

// TestParquetManyRowGroups: more jobs than a row group and a batch, with
// the row numbers of errors counted across them.
func TestParquetManyRowGroups(t *testing.T) {
	jobs := benchJobs(rowGroupRows + batchRows + 10)
	back, _, err := readParquet(t, parquetBytes(t, jobs, nil), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpAll(back), dumpAll(jobs); got != want {
		t.Error("round trip of many rows differs")
	}
}

// TestParquetWriterRejects: the writer checks jobs as the text writers
// do, and a job that does not fit the columns it was made with.
func TestParquetWriterRejects(t *testing.T) {
	if err := WriteParquet(io.Discard, []*sim.Job{{ID: "", Tasks: 1}}, nil); err == nil || err.Error() != `job "": id: must not be empty` {
		t.Errorf("got %v", err)
	}
	pw, err := NewParquetWriter(io.Discard, Columns{Resources: []string{"cpu"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = pw.Write(&sim.Job{ID: "a", Tasks: 1, Walltime: sim.NoWalltime, Request: []sim.Quantity{{Resource: "gpu", Amount: 1}}})
	if err == nil || !strings.Contains(err.Error(), "resource gpu has no column") {
		t.Errorf("got %v", err)
	}
}
