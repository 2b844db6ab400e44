package native

import (
	"bytes"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// TestNativeDAGSample: testdata/native/dag.{jsonl,csv} hold the same
// jobs, with every form of a depends_on item.
func TestNativeDAGSample(t *testing.T) {
	want := map[string][]sim.Dependency{
		"train-a": {{ID: "prep"}},
		"train-b": {{ID: "prep"}},
		"eval":    {{ID: "train-a"}, {ID: "train-b", AfterAny: true}},
		"report":  {{ID: "eval", Think: 120 * sim.Second}},
		"publish": {{ID: "train-b"}},
		"typo":    {{ID: "trian-a"}},
	}
	var first []*sim.Job
	for _, name := range []string{"dag.jsonl", "dag.csv"} {
		jobs := openAll(t, filepath.Join(testdata, name), traces.Options{Strict: true})
		if len(jobs) != 8 {
			t.Fatalf("%s: %d jobs", name, len(jobs))
		}
		for _, j := range jobs {
			if !reflect.DeepEqual(j.DependsOn, want[j.ID]) {
				t.Errorf("%s: job %s depends on %+v, want %+v", name, j.ID, j.DependsOn, want[j.ID])
			}
		}
		if first == nil {
			first = jobs
		} else if a, b := dumpAll(first), dumpAll(jobs); a != b {
			t.Errorf("dag.jsonl and dag.csv differ:\n%s\n%s", a, b)
		}
	}
}

// depJobs has every shape of dependency the writer has a form for.
func depJobs() []*sim.Job {
	return []*sim.Job{
		{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Gang: true},
		{ID: "b", Submit: 1, Walltime: sim.NoWalltime, Tasks: 1, Gang: true, DependsOn: []sim.Dependency{{ID: "a"}}},
		{ID: "c,\"d\"", Submit: 2, Walltime: sim.NoWalltime, Tasks: 1, Gang: true, DependsOn: []sim.Dependency{
			{ID: "a", AfterAny: true}, {ID: "b", Think: 1_500_000 * sim.Microsecond}, {ID: "a", AfterAny: true, Think: 88_510_000 * sim.Microsecond},
		}, Traits: &sim.Traits{Project: "p"}},
		{ID: "e", Submit: 3, Walltime: sim.NoWalltime, Tasks: 1, Gang: true},
	}
}

// TestNativeDepsRoundTrip: reader(writer(jobs)) == jobs in every
// encoding, and the writer's shape.
func TestNativeDepsRoundTrip(t *testing.T) {
	jobs := depJobs()
	roundTrip(t, jobs, func(name string, back []*sim.Job) {
		if !reflect.DeepEqual(back, jobs) {
			t.Errorf("%s:\n got %s\nwant %s", name, dumpAll(back), dumpAll(jobs))
		}
	})
	got, err := AppendJSONL(nil, jobs[2])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"c,\"d\"","submit_s":0.000002,"runtime_s":0,"tasks":1,"project":"p","depends_on":[{"job":"a","condition":"any"},` +
		`{"job":"b","think_s":1.5},{"job":"a","condition":"any","think_s":88.51}]}` + "\n"
	if string(got) != want {
		t.Errorf("jsonl:\n got %s\nwant %s", got, want)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, jobs[:2]); err != nil {
		t.Fatal(err)
	}
	wantCSV := "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang,depends_on\n" +
		"a,0,0,,1,,,,,0,true,\nb,0.000001,0,,1,,,,,0,true,\"[\"\"a\"\"]\"\n"
	if b.String() != wantCSV {
		t.Errorf("csv:\n got %s\nwant %s", b.String(), wantCSV)
	}
	// A trace without dependencies has no depends_on column.
	b.Reset()
	if err := WriteCSV(&b, jobs[:1]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "depends_on") {
		t.Errorf("depends_on column without dependencies:\n%s", b.String())
	}
}

// TestNativeDepsEmpty: an empty list and null are an absent field.
func TestNativeDepsEmpty(t *testing.T) {
	in := `{"id":"a","submit_s":0,"runtime_s":1,"depends_on":[]}` + "\n" + `{"id":"b","submit_s":0,"runtime_s":1,"depends_on":null}` + "\n"
	jobs, err := tracetest.Drain(NewJSONLReader(strings.NewReader(in), "t.jsonl", traces.Options{Strict: true}))
	if err != nil || len(jobs) != 2 || jobs[0].DependsOn != nil || jobs[1].DependsOn != nil {
		t.Errorf("got %v, %s", err, dumpAll(jobs))
	}
}

func TestNativeWriterRejectsDeps(t *testing.T) {
	for _, c := range []struct {
		deps []sim.Dependency
		want string
	}{
		{[]sim.Dependency{{ID: ""}}, "depends_on[0].job: must not be empty"},
		{[]sim.Dependency{{ID: "a"}, {ID: "b", Think: -1}}, "depends_on[1].think_s: must be in [0, 1e12] s"},
	} {
		_, err := AppendJSONL(nil, &sim.Job{ID: "x", Walltime: sim.NoWalltime, Tasks: 1, DependsOn: c.deps})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.deps, err, c.want)
		}
	}
}

// depErrors are bad depends_on values, in both encodings, with the strict
// message and whether they stop a lenient reader too.
var depErrors = []errCase{
	{"deps not a list", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":"a"}`,
		"t.jsonl:1: field depends_on: must be a list of job ids or {job, condition, think_s} objects", false,
		"must be a list of job ids or {job, condition, think_s} objects"},
	{"deps number item", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[12]}`,
		"t.jsonl:1: field depends_on[0]: must be a job id (a string) or an object", false, "must be a job id (a string) or an object"},
	{"deps empty id", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":["a",""]}`,
		"t.jsonl:1: field depends_on[1]: must not be empty", false, "must not be empty"},
	{"deps no job", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"think_s":5}]}`,
		"t.jsonl:1: field depends_on[0].job: missing", false, "missing"},
	{"deps condition", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"job":"a","condition":"ok"}]}`,
		"t.jsonl:1: field depends_on[0].condition: must be success or any", false, "must be success or any"},
	{"deps think", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"job":"a","think_s":-1}]}`,
		"t.jsonl:1: field depends_on[0].think_s: must be ≥ 0", false, "must be ≥ 0"},
	{"deps think string", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"job":"a","think_s":"5"}]}`,
		"t.jsonl:1: field depends_on[0].think_s: must be a number", false, "must be a number"},
	{"deps twice", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"job":"a","job":"b"}]}`,
		"t.jsonl:1: field depends_on[0].job: given twice", false, "given twice"},
	{"deps unknown key", `{"id":"1","submit_s":0,"runtime_s":1,"depends_on":[{"job":"a","after":"b"}]}`,
		"t.jsonl:1: field depends_on[0].after: unknown field", true, ""},
}

// csvDep turns a JSONL error case into the same record as CSV.
func csvDep(c errCase) errCase {
	_, val, _ := strings.Cut(c.in, `"depends_on":`)
	val = strings.TrimSuffix(val, "}")
	c.in = "id,submit_s,runtime_s,depends_on\n1,0,1,\"" + strings.ReplaceAll(val, `"`, `""`) + "\"\n"
	c.strict = strings.Replace(c.strict, "t.jsonl:1:", "t.csv:2:", 1)
	return c
}

func TestNativeDepsErrors(t *testing.T) {
	for _, c := range depErrors {
		t.Run(c.name, func(t *testing.T) {
			for _, enc := range []struct {
				c    errCase
				read func(io.Reader, string, traces.Options) *Reader
				name string
			}{{c, NewJSONLReader, "t.jsonl"}, {csvDep(c), NewCSVReader, "t.csv"}} {
				_, err := tracetest.Drain(enc.read(strings.NewReader(enc.c.in), enc.name, traces.Options{Strict: true}))
				if err == nil || err.Error() != enc.c.strict {
					t.Errorf("%s: got %v, want %s", enc.name, err, enc.c.strict)
				}
				r := enc.read(strings.NewReader(enc.c.in), enc.name, traces.Options{})
				_, err = tracetest.Drain(r)
				if enc.c.fatal != (err != nil) {
					t.Errorf("%s lenient: %v", enc.name, err)
				}
				if !enc.c.fatal && r.Skips().ByReason[enc.c.reason] != 1 {
					t.Errorf("%s lenient skips: %+v", enc.name, r.Skips())
				}
			}
		})
	}
}

// depSeeds are good records with dependencies, fuzz seeds.
var depSeeds = []string{
	`{"id":"a","submit_s":0,"runtime_s":1}` + "\n" + `{"id":"b","submit_s":1,"runtime_s":1,"depends_on":["a",{"job":"a","condition":"any","think_s":2.5}]}` + "\n",
	`{"id":"b","submit_s":1,"runtime_s":1,"depends_on":[{"job":"a","condition":"success","think_s":0}]}` + "\n",
}

var depSeedsCSV = []string{
	"id,submit_s,runtime_s,depends_on\na,0,1,\nb,1,1,\"[\"\"a\"\",{\"\"job\"\":\"\"a\"\",\"\"condition\"\":\"\"any\"\",\"\"think_s\"\":2.5}]\"\n",
}

func TestNativeDepSeeds(t *testing.T) {
	for _, s := range depSeeds {
		if _, err := tracetest.Drain(NewJSONLReader(strings.NewReader(s), "t.jsonl", traces.Options{Strict: true})); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range depSeedsCSV {
		if _, err := tracetest.Drain(NewCSVReader(strings.NewReader(s), "t.csv", traces.Options{Strict: true})); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}
