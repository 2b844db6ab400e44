package native

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

const testdata = "../../testdata/native"

// dump prints a job on one line, times in µs and amounts in thousandths, so
// that a golden file shows exactly what was parsed.
func dump(j *sim.Job) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id=%q submit=%d runtime=%d walltime=%d tasks=%d request=[", j.ID, j.Submit, j.Runtime, j.Walltime, j.Tasks)
	for i, q := range j.Request {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", q.Resource, q.Amount)
	}
	fmt.Fprintf(&b, "] user=%q group=%q queue=%q partition=%q priority=%d gang=%t",
		j.User, j.Group, j.Queue, j.Partition, j.Priority, j.Gang)
	if t := j.Traits; t != nil { // strings quoted, so that nothing is ambiguous
		fmt.Fprintf(&b, " traits={immunities=%q aversion=%q selector=%q tolerations=%q constraints=[",
			t.Immunities, t.AversionGroups, t.Selector, t.Tolerations)
		for i, c := range t.Constraints {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "{%q %q %q %d %t}", c.Kind, c.Attribute, c.Value, c.Groups, c.Soft)
		}
		fmt.Fprintf(&b, "] arch=%q member=%q project=%q labels=%q}", t.Architecture, t.MemberGroup, t.Project, t.Labels)
	}
	// The recorded fields only when set, so that the golden files of
	// traces without them stay as they were.
	if j.QOS != "" || j.RequestedProcs != 0 || j.Recorded || j.RecordedStart != 0 {
		fmt.Fprintf(&b, " qos=%q procs=%d recorded=%t recorded_start=%d", j.QOS, j.RequestedProcs, j.Recorded, j.RecordedStart)
	}
	if j.IndependentTasks {
		b.WriteString(" independent")
	}
	if j.CotaskGroup != "" {
		fmt.Fprintf(&b, " cotask_group=%q", j.CotaskGroup)
	}
	if len(j.DependsOn) > 0 {
		b.WriteString(" depends_on=[")
		for i, d := range j.DependsOn {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "{%q any=%t think=%d}", d.ID, d.AfterAny, d.Think)
		}
		b.WriteByte(']')
	}
	return b.String()
}

func openAll(t *testing.T, path string, opt traces.Options) []*sim.Job {
	t.Helper()
	r, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jobs, err := tracetest.Drain(r)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Skips(); s.Total != 0 {
		t.Fatalf("%s: %d records skipped, first: %v", path, s.Total, s.First)
	}
	return jobs
}

func dumpAll(jobs []*sim.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString(dump(j))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestGolden parses both sample files, which hold the same jobs, and
// compares them with jobs.golden (go test -update rewrites it).
func TestGolden(t *testing.T) {
	golden := filepath.Join(testdata, "jobs.golden")
	for _, name := range []string{"jobs.jsonl", "jobs.csv"} {
		t.Run(name, func(t *testing.T) {
			got := dumpAll(openAll(t, filepath.Join(testdata, name), traces.Options{Strict: true}))
			if tracetest.Updating() && name == "jobs.jsonl" {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s parsed differently from jobs.golden:\n got:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

// TestSampleByHand checks a few jobs of the sample against literals, so the
// golden file is not its own only witness.
func TestSampleByHand(t *testing.T) {
	jobs := openAll(t, filepath.Join(testdata, "jobs.jsonl"), traces.Options{Strict: true})
	if len(jobs) != 6 {
		t.Fatalf("got %d jobs, want 6", len(jobs))
	}
	want := []sim.Job{
		{ID: "1", Submit: 0, Runtime: 3600 * sim.Second, Walltime: 7200 * sim.Second, Tasks: 2,
			Request: []sim.Quantity{{Resource: "cpu", Amount: 4000}, {Resource: "mem", Amount: 2048000}},
			User:    "alice", Group: "physics", Queue: "batch", Partition: "main", Priority: 10, Gang: true},
		// 88.51 s is exactly 88 510 000 µs; 12.5 cpu-less seconds; half a cpu.
		{ID: "2", Submit: 88_510_000, Runtime: 12_500_000, Walltime: sim.NoWalltime, Tasks: 1,
			Request: []sim.Quantity{{Resource: "cpu", Amount: 500}}},
	}
	for i, w := range want {
		if !reflect.DeepEqual(*jobs[i], w) {
			t.Errorf("job %d:\n got %s\nwant %s", i, dump(jobs[i]), dump(&w))
		}
	}
	// 100.000001 s keeps its last microsecond; 1e3 s; 0.0000005 s rounds
	// half up to 1 µs; 65536.25 MiB is 65 536 250 thousandths.
	if got := jobs[3].Submit; got != 100_000_001 {
		t.Errorf("submit 100.000001 = %d µs", got)
	}
	if got := jobs[3].Runtime; got != 1000*sim.Second {
		t.Errorf("runtime 1e3 = %d µs", got)
	}
	if got := jobs[4].Runtime; got != 1 {
		t.Errorf("runtime 0.0000005 = %d µs, want 1", got)
	}
	if a, _ := sim.Get(jobs[2].Request, "mem"); a != 65_536_250 {
		t.Errorf("mem 65536.25 = %d", a)
	}
}

func TestExactTimes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want sim.Time
	}{
		{"88.51", 88_510_000},
		{"0.1", 100_000},
		{"1234567.123456", 1_234_567_123_456},
		{"0.0000004", 0}, // rounds down
		{"2.5e1", 25 * sim.Second},
		{"1e12", 1_000_000_000_000 * sim.Second},
	} {
		line := fmt.Sprintf(`{"id":"a","submit_s":%s,"runtime_s":%s}`, c.in, c.in)
		r := NewJSONLReader(strings.NewReader(line), "t.jsonl", traces.Options{Strict: true})
		j, err := r.Next()
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if j.Submit != c.want || j.Runtime != c.want {
			t.Errorf("%s: submit %d runtime %d, want %d", c.in, j.Submit, j.Runtime, c.want)
		}
		csvText := "id,submit_s,runtime_s\na," + c.in + "," + c.in + "\n"
		r = NewCSVReader(strings.NewReader(csvText), "t.csv", traces.Options{Strict: true})
		if j, err = r.Next(); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if j.Submit != c.want || j.Runtime != c.want {
			t.Errorf("csv %s: submit %d runtime %d, want %d", c.in, j.Submit, j.Runtime, c.want)
		}
	}
}

// TestRequestOrder: a JSON request keeps the order its keys are written in,
// and a CSV request the order of the header.
func TestRequestOrder(t *testing.T) {
	r := NewJSONLReader(strings.NewReader(`{"id":"a","submit_s":0,"runtime_s":1,"request":{"mem":1,"gpu":2,"cpu":3}}`), "t.jsonl", traces.Options{})
	j, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(j.Request); got != "[{mem 1} {gpu 2} {cpu 3}]" {
		t.Errorf("jsonl request %s", got)
	}
	r = NewCSVReader(strings.NewReader("req_mem,id,req_gpu,submit_s,runtime_s,req_cpu\n1,a,,0,1,3\n"), "t.csv", traces.Options{})
	if j, err = r.Next(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(j.Request); got != "[{mem 1} {cpu 3}]" {
		t.Errorf("csv request %s", got)
	}
}

// errCase is one bad input: the error in strict mode, and in lenient mode
// either the same error (fatal) or a skip counted under reason.
type errCase struct {
	name   string
	in     string
	strict string // exact error message in strict mode
	fatal  bool   // lenient mode stops with the same error
	reason string // lenient: the Skips reason (when not fatal)
}

// A valid record to follow the bad one: lenient mode must reach it.
const (
	goodJSONL = `{"id":"ok","submit_s":1000,"runtime_s":1}` + "\n"
	goodCSV   = "ok,1000,1\n"
)

var jsonlErrors = []errCase{
	{"unknown field", `{"id":"1","submit_s":0,"runtime_s":1,"walltme_s":5}`,
		"t.jsonl:1: field walltme_s: unknown field", true, ""},
	{"unknown field after comments", "# c\n\n" + `{"id":"1","submit_s":0,"runtime_s":1,"requests":{}}`,
		"t.jsonl:3: field requests: unknown field", true, ""},
	{"missing id", `{"submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field id: missing", false, "missing"},
	{"missing submit", `{"id":"1","runtime_s":1}`,
		"t.jsonl:1: field submit_s: missing", false, "missing"},
	{"null is absent", `{"id":"1","submit_s":null,"runtime_s":1}`,
		"t.jsonl:1: field submit_s: missing", false, "missing"},
	{"missing runtime", `{"id":"1","submit_s":0}`,
		"t.jsonl:1: field runtime_s: missing", false, "missing"},
	{"empty id", `{"id":"","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field id: must not be empty", false, "must not be empty"},
	{"numeric id", `{"id":1,"submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field id: must be a string", false, "must be a string"},
	{"string time", `{"id":"1","submit_s":"0","runtime_s":1}`,
		"t.jsonl:1: field submit_s: must be a number", false, "must be a number"},
	{"negative submit", `{"id":"1","submit_s":-0.5,"runtime_s":1}`,
		"t.jsonl:1: field submit_s: must be ≥ 0", false, "must be ≥ 0"},
	{"negative runtime", `{"id":"1","submit_s":0,"runtime_s":-1}`,
		"t.jsonl:1: field runtime_s: must be ≥ 0", false, "must be ≥ 0"},
	{"huge runtime", `{"id":"1","submit_s":0,"runtime_s":5e12}`,
		"t.jsonl:1: field runtime_s: must be at most 1e12 s", false, "must be at most 1e12 s"},
	{"overflowing time", `{"id":"1","submit_s":0,"runtime_s":1e400}`,
		"t.jsonl:1: field runtime_s: not a number of seconds", false, "not a number of seconds"},
	{"bad walltime", `{"id":"1","submit_s":0,"runtime_s":1,"walltime_s":-2}`,
		"t.jsonl:1: field walltime_s: must be ≥ 0, or -1 for unknown", false, "must be ≥ 0, or -1 for unknown"},
	{"zero tasks", `{"id":"1","submit_s":0,"runtime_s":1,"tasks":0}`,
		"t.jsonl:1: field tasks: must be ≥ 1", false, "must be ≥ 1"},
	{"fractional tasks", `{"id":"1","submit_s":0,"runtime_s":1,"tasks":1.5}`,
		"t.jsonl:1: field tasks: not an integer", false, "not an integer"},
	{"huge tasks", `{"id":"1","submit_s":0,"runtime_s":1,"tasks":99999999999999999999}`,
		"t.jsonl:1: field tasks: not an integer", false, "not an integer"},
	{"priority bool", `{"id":"1","submit_s":0,"runtime_s":1,"priority":true}`,
		"t.jsonl:1: field priority: must be a number", false, "must be a number"},
	{"gang string", `{"id":"1","submit_s":0,"runtime_s":1,"gang":"yes"}`,
		"t.jsonl:1: field gang: must be true or false", false, "must be true or false"},
	{"user number", `{"id":"1","submit_s":0,"runtime_s":1,"user":7}`,
		"t.jsonl:1: field user: must be a string", false, "must be a string"},
	{"user object", `{"id":"1","submit_s":0,"runtime_s":1,"user":{}}`,
		"t.jsonl:1: field user: must be a string", false, "must be a string"},
	{"field twice", `{"id":"1","submit_s":0,"runtime_s":1,"submit_s":2}`,
		"t.jsonl:1: field submit_s: given twice", false, "given twice"},
	{"request array", `{"id":"1","submit_s":0,"runtime_s":1,"request":[4]}`,
		"t.jsonl:1: field request: must be an object of resource → number", false, "must be an object of resource → number"},
	{"request string", `{"id":"1","submit_s":0,"runtime_s":1,"request":{"cpu":"4"}}`,
		"t.jsonl:1: field request.cpu: must be a number", false, "must be a number"},
	{"request twice", `{"id":"1","submit_s":0,"runtime_s":1,"request":{"cpu":4,"cpu":2}}`,
		"t.jsonl:1: field request.cpu: given twice", false, "given twice"},
	{"request empty name", `{"id":"1","submit_s":0,"runtime_s":1,"request":{"":4}}`,
		"t.jsonl:1: field request.: resource name must not be empty", false, "resource name must not be empty"},
	{"request huge", `{"id":"1","submit_s":0,"runtime_s":1,"request":{"mem":2e12}}`,
		"t.jsonl:1: field request.mem: must be within ±1e12", false, "must be within ±1e12"},
	{"not an object", `[1,2]`,
		"t.jsonl:1: a record must be a JSON object", false, "a record must be a JSON object"},
	{"syntax", `{"id":"1",}`,
		"t.jsonl:1: bad JSON: invalid character '}' looking for beginning of object key string", false,
		"bad JSON: invalid character '}' looking for beginning of object key string"},
	{"truncated", `{"id":"1"`,
		"t.jsonl:1: bad JSON: unexpected end of line", false, "bad JSON: unexpected end of line"},
	{"two objects", `{"id":"1","submit_s":0,"runtime_s":1}{}`,
		"t.jsonl:1: unexpected data after the JSON object", false, "unexpected data after the JSON object"},
	{"back in time", `{"id":"1","submit_s":2000,"runtime_s":1}` + "\n" + `{"id":"2","submit_s":1999.5,"runtime_s":1}`,
		"t.jsonl:2: field submit_s: submit_s goes back in time: 1999.5 after 2000; sort the trace", true, ""},

	// Placement traits.
	{"immunities string", `{"id":"1","submit_s":0,"runtime_s":1,"immunities":"gpu"}`,
		"t.jsonl:1: field immunities: must be a list of strings", false, "must be a list of strings"},
	{"immunities number", `{"id":"1","submit_s":0,"runtime_s":1,"immunities":["gpu",3]}`,
		"t.jsonl:1: field immunities[1]: must be a string", false, "must be a string"},
	{"aversion empty", `{"id":"1","submit_s":0,"runtime_s":1,"aversion_groups":[""]}`,
		"t.jsonl:1: field aversion_groups[0]: must not be empty", false, "must not be empty"},
	{"selector list", `{"id":"1","submit_s":0,"runtime_s":1,"selector":["a"]}`,
		"t.jsonl:1: field selector: must be an object of string → string", false, "must be an object of string → string"},
	{"selector number", `{"id":"1","submit_s":0,"runtime_s":1,"selector":{"zone":1}}`,
		"t.jsonl:1: field selector.zone: must be a string", false, "must be a string"},
	{"selector twice", `{"id":"1","submit_s":0,"runtime_s":1,"selector":{"zone":"a","zone":"b"}}`,
		"t.jsonl:1: field selector.zone: given twice", false, "given twice"},
	{"labels empty key", `{"id":"1","submit_s":0,"runtime_s":1,"labels":{"":"x"}}`,
		"t.jsonl:1: field labels.: key must not be empty", false, "key must not be empty"},
	{"tolerations object", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":{"key":"k"}}`,
		"t.jsonl:1: field tolerations: must be a list of objects", false, "must be a list of objects"},
	{"toleration string", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":["k"]}`,
		"t.jsonl:1: field tolerations[0]: must be an object", false, "must be an object"},
	{"toleration no key", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":[{"key":"a"},{"value":"v"}]}`,
		"t.jsonl:1: field tolerations[1].key: missing", false, "missing"},
	{"toleration empty key", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":[{"key":""}]}`,
		"t.jsonl:1: field tolerations[0].key: must not be empty", false, "must not be empty"},
	{"toleration effect", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":[{"key":"k","effect":"NoExecute"}]}`,
		"t.jsonl:1: field tolerations[0].effect: must be NoSchedule or PreferNoSchedule", false, "must be NoSchedule or PreferNoSchedule"},
	{"toleration twice", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":[{"key":"k","key":"l"}]}`,
		"t.jsonl:1: field tolerations[0].key: given twice", false, "given twice"},
	{"toleration unknown", `{"id":"1","submit_s":0,"runtime_s":1,"tolerations":[{"key":"k","operator":"Exists"}]}`,
		"t.jsonl:1: field tolerations[0].operator: unknown field", true, ""},
	{"constraint kind", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"x"}]}`,
		`t.jsonl:1: field constraints[0].kind: unknown constraint "x" (known: exclusive-host, host-attribute, unique-attribute, balanced-attribute)`,
		false, `unknown constraint "x" (known: exclusive-host, host-attribute, unique-attribute, balanced-attribute)`},
	{"constraint no kind", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"attribute":"zone"}]}`,
		"t.jsonl:1: field constraints[0].kind: missing", false, "missing"},
	{"constraint no attribute", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"exclusive-host"},{"kind":"host-attribute","value":"v"}]}`,
		"t.jsonl:1: field constraints[1].attribute: host-attribute needs an attribute", false, "host-attribute needs an attribute"},
	{"constraint groups", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"balanced-attribute","attribute":"z","groups":-2}]}`,
		"t.jsonl:1: field constraints[0].groups: balanced-attribute: groups must be ≥ 0", false, "balanced-attribute: groups must be ≥ 0"},
	{"constraint groups fraction", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"balanced-attribute","attribute":"z","groups":1.5}]}`,
		"t.jsonl:1: field constraints[0].groups: not an integer", false, "not an integer"},
	{"constraint soft string", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"exclusive-host","soft":"yes"}]}`,
		"t.jsonl:1: field constraints[0].soft: must be true or false", false, "must be true or false"},
	{"constraint unknown", `{"id":"1","submit_s":0,"runtime_s":1,"constraints":[{"kind":"exclusive-host","hard":true}]}`,
		"t.jsonl:1: field constraints[0].hard: unknown field", true, ""},
	{"architecture list", `{"id":"1","submit_s":0,"runtime_s":1,"architecture":["x86_64"]}`,
		"t.jsonl:1: field architecture: must be a string", false, "must be a string"},
	{"traits twice", `{"id":"1","submit_s":0,"runtime_s":1,"labels":{},"labels":{}}`,
		"t.jsonl:1: field labels: given twice", false, "given twice"},
	{"traits syntax", `{"id":"1","submit_s":0,"runtime_s":1,"immunities":["a" "b"]}`,
		"t.jsonl:1: bad JSON: invalid character '\"' after array element", false, "bad JSON: invalid character '\"' after array element"},

	// Recorded fields.
	{"negative procs", `{"id":"1","submit_s":0,"runtime_s":1,"requested_procs":-4}`,
		"t.jsonl:1: field requested_procs: must be ≥ 0", false, "must be ≥ 0"},
	{"fractional procs", `{"id":"1","submit_s":0,"runtime_s":1,"requested_procs":1.5}`,
		"t.jsonl:1: field requested_procs: not an integer", false, "not an integer"},
	{"qos number", `{"id":"1","submit_s":0,"runtime_s":1,"qos":3}`,
		"t.jsonl:1: field qos: must be a string", false, "must be a string"},
	{"recorded start string", `{"id":"1","submit_s":0,"runtime_s":1,"recorded_start_s":"300"}`,
		"t.jsonl:1: field recorded_start_s: must be a number", false, "must be a number"},
	{"recorded start huge", `{"id":"1","submit_s":0,"runtime_s":1,"recorded_start_s":2e12}`,
		"t.jsonl:1: field recorded_start_s: must be at most 1e12 s", false, "must be at most 1e12 s"},

	// The calendar line: a bad one stops the reader, and line numbers
	// count it.
	{"calendar epoch", "# schedsim.epoch=yesterday\n" + `{"id":"1","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field schedsim.epoch: must be an RFC 3339 time (1996-09-23T12:00:31Z)", true, ""},
	{"calendar key", "# schedsim.zone=UTC\n" + `{"id":"1","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field schedsim.zone: unknown key (known: schedsim.epoch, schedsim.time_zone)", true, ""},
	{"calendar word", "# schedsim.time_zone=UTC extra\n" + `{"id":"1","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: want key=value", true, ""},
	{"calendar twice", "# schedsim.time_zone=UTC schedsim.time_zone=CET\n" + `{"id":"1","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field schedsim.time_zone: given twice", true, ""},
	{"calendar empty zone", "# schedsim.time_zone=\n" + `{"id":"1","submit_s":0,"runtime_s":1}`,
		"t.jsonl:1: field schedsim.time_zone: empty value", true, ""},
	{"after the calendar", "# schedsim.time_zone=UTC\n" + `{"id":"1","submit_s":0,"runtime_s":"x"}`,
		"t.jsonl:2: field runtime_s: must be a number", false, "must be a number"},
}

var csvErrors = []errCase{
	{"empty file", ``, "t.csv:1: no header row", true, ""},
	{"only a calendar line", "# schedsim.time_zone=UTC\n", "t.csv:2: no header row", true, ""},
	{"calendar epoch", "# schedsim.epoch=1996-09-23\nid,submit_s,runtime_s\n1,0,1\n",
		"t.csv:1: field schedsim.epoch: must be an RFC 3339 time (1996-09-23T12:00:31Z)", true, ""},
	{"row after the calendar", "\ufeff# schedsim.epoch=1996-09-23T12:00:31Z\nid,submit_s,runtime_s\n1,0,1\n2,0,x\n",
		"t.csv:4: field runtime_s: not a number of seconds", false, "not a number of seconds"},
	{"header after the calendar", "# schedsim.time_zone=UTC\nid,submit_s,runtime_s,qos,qos\n",
		"t.csv:2: field qos: column given twice", true, ""},
	{"negative procs", "id,submit_s,runtime_s,requested_procs\n1,0,1,-1\n",
		"t.csv:2: field requested_procs: must be ≥ 0", false, "must be ≥ 0"},
	{"recorded start text", "id,submit_s,runtime_s,recorded_start_s\n1,0,1,noon\n",
		"t.csv:2: field recorded_start_s: not a number of seconds", false, "not a number of seconds"},
	{"unknown column", "id,submit_s,runtime_s,walltme_s\n",
		"t.csv:1: field walltme_s: unknown column", true, ""},
	{"request column", "id,submit_s,runtime_s,request\n",
		"t.csv:1: field request: unknown column", true, ""},
	{"bare req_", "id,submit_s,runtime_s,req_\n",
		"t.csv:1: field req_: unknown column", true, ""},
	{"column twice", "id,submit_s,runtime_s,req_cpu,req_cpu\n",
		"t.csv:1: field req_cpu: column given twice", true, ""},
	{"empty column name", "id,submit_s,,runtime_s\n",
		"t.csv:1: header: column 3 has no name", true, ""},
	{"missing column", "id,runtime_s\n",
		"t.csv:1: field submit_s: required column missing", true, ""},
	{"header quote", "id,\"submit_s\n",
		`t.csv:1: header: extraneous or missing " in quoted-field`, true, ""},
	{"missing id", "id,submit_s,runtime_s\n,0,1\n",
		"t.csv:2: field id: missing", false, "missing"},
	{"bad time", "id,submit_s,runtime_s\n1,12:00,1\n",
		"t.csv:2: field submit_s: not a number of seconds", false, "not a number of seconds"},
	{"hex time", "id,submit_s,runtime_s\n1,0x1ep3,1\n",
		"t.csv:2: field submit_s: not a number of seconds", false, "not a number of seconds"},
	{"negative runtime", "id,submit_s,runtime_s\n1,0,-3\n",
		"t.csv:2: field runtime_s: must be ≥ 0", false, "must be ≥ 0"},
	{"bad walltime", "id,submit_s,runtime_s,walltime_s\n1,0,1,-60\n",
		"t.csv:2: field walltime_s: must be ≥ 0, or -1 for unknown", false, "must be ≥ 0, or -1 for unknown"},
	{"bad tasks", "id,submit_s,runtime_s,tasks\n1,0,1,two\n",
		"t.csv:2: field tasks: not an integer", false, "not an integer"},
	{"zero tasks", "id,submit_s,runtime_s,tasks\n1,0,1,0\n",
		"t.csv:2: field tasks: must be ≥ 1", false, "must be ≥ 1"},
	{"bad priority", "id,submit_s,runtime_s,priority\n1,0,1,1_000\n",
		"t.csv:2: field priority: not an integer", false, "not an integer"},
	{"bad gang", "id,submit_s,runtime_s,gang\n1,0,1,yes\n",
		"t.csv:2: field gang: must be true or false", false, "must be true or false"},
	{"bad amount", "id,submit_s,runtime_s,req_cpu\n1,0,1,four\n",
		"t.csv:2: field req_cpu: not a number", false, "not a number"},
	{"infinite amount", "id,submit_s,runtime_s,req_cpu\n1,0,1,inf\n",
		"t.csv:2: field req_cpu: not a number", false, "not a number"},
	{"short row", "id,submit_s,runtime_s\n1,0\n",
		"t.csv:2: row has 2 cells, the header has 3", false, "row has 2 cells, the header has 3"},
	{"bare quote", "id,submit_s,runtime_s\n1\"x,0,1\n",
		`t.csv:2: bare " in non-quoted-field`, false, `bare " in non-quoted-field`},
	{"multi-line cell", "id,submit_s,runtime_s,user\n1,0,1,\"two\nlines\"\n2,0,x,\n",
		"t.csv:4: field runtime_s: not a number of seconds", false, "not a number of seconds"},
	{"back in time", "id,submit_s,runtime_s\n1,2000,1\n2,1999.5,1\n",
		"t.csv:3: field submit_s: submit_s goes back in time: 1999.5 after 2000; sort the trace", true, ""},

	// Placement traits: compact JSON in a cell.
	{"immunities not JSON", "id,submit_s,runtime_s,immunities\n1,0,1,gpu\n",
		"t.csv:2: field immunities: bad JSON: invalid character 'g' looking for beginning of value", false,
		"bad JSON: invalid character 'g' looking for beginning of value"},
	{"immunities trailing", "id,submit_s,runtime_s,immunities\n1,0,1,[] []\n",
		"t.csv:2: field immunities: unexpected data after the JSON value", false, "unexpected data after the JSON value"},
	{"selector truncated", "id,submit_s,runtime_s,selector\n1,0,1,\"{\"\"a\"\":\"\"b\"\"\"\n",
		"t.csv:2: field selector: bad JSON: unexpected end of line", false, "bad JSON: unexpected end of line"},
	{"constraint kind", "id,submit_s,runtime_s,constraints\n1,0,1,\"[{\"\"kind\"\":\"\"x\"\"}]\"\n",
		`t.csv:2: field constraints[0].kind: unknown constraint "x" (known: exclusive-host, host-attribute, unique-attribute, balanced-attribute)`,
		false, `unknown constraint "x" (known: exclusive-host, host-attribute, unique-attribute, balanced-attribute)`},
	{"toleration unknown", "id,submit_s,runtime_s,tolerations\n1,0,1,\"[{\"\"key\"\":\"\"k\"\",\"\"op\"\":1}]\"\n",
		"t.csv:2: field tolerations[0].op: unknown field", true, ""},
	{"labels number", "id,submit_s,runtime_s,labels\n1,0,1,\"{\"\"a\"\":1}\"\n",
		"t.csv:2: field labels.a: must be a string", false, "must be a string"},
}

func TestErrors(t *testing.T) {
	run := func(t *testing.T, c errCase, newReader func(io.Reader, string, traces.Options) *Reader, name, good string) {
		// Strict: the exact message, as a *traces.ParseError.
		r := newReader(strings.NewReader(c.in), name, traces.Options{Strict: true})
		_, err := tracetest.Drain(r)
		if err == nil {
			t.Fatalf("strict: no error")
		}
		if err.Error() != c.strict {
			t.Errorf("strict:\n got %s\nwant %s", err, c.strict)
		}
		var pe *traces.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("strict: %T is not a *traces.ParseError", err)
		}
		if _, again := r.Next(); again != err {
			t.Errorf("error not sticky: then %v", again)
		}
		// Lenient: the same error when fatal, else a skip and the good
		// record after it.
		in := c.in
		if !c.fatal {
			if name == "t.csv" { // pad the good row to the header's width
				header, rest, _ := strings.Cut(in, "\n")
				if strings.HasPrefix(strings.TrimPrefix(header, "\ufeff"), "#") { // the calendar line
					header, _, _ = strings.Cut(rest, "\n")
				}
				good = strings.TrimSuffix(good, "\n") + strings.Repeat(",", strings.Count(header, ",")-2) + "\n"
			}
			in = strings.TrimSuffix(in, "\n") + "\n" + good
		}
		r = newReader(strings.NewReader(in), name, traces.Options{})
		jobs, err := tracetest.Drain(r)
		if c.fatal {
			if err == nil || err.Error() != c.strict {
				t.Errorf("lenient: got %v, want the strict error", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("lenient: %v", err)
		}
		if len(jobs) == 0 || jobs[len(jobs)-1].ID != "ok" {
			t.Errorf("lenient: did not reach the next record: %d jobs", len(jobs))
		}
		s := r.Skips()
		if s.Total != 1 || s.ByReason[c.reason] != 1 || s.First == nil || s.First.Error() != c.strict {
			t.Errorf("lenient skips: %+v (first %v), want 1 × %q", s, s.First, c.reason)
		}
	}
	for _, c := range jsonlErrors {
		t.Run("jsonl/"+c.name, func(t *testing.T) { run(t, c, NewJSONLReader, "t.jsonl", goodJSONL) })
	}
	for _, c := range csvErrors {
		t.Run("csv/"+c.name, func(t *testing.T) { run(t, c, NewCSVReader, "t.csv", goodCSV) })
	}
}

// TestLenientCounts mixes good and bad records.
func TestLenientCounts(t *testing.T) {
	in := `{"id":"1","submit_s":0,"runtime_s":1}
{"id":"2","submit_s":-1,"runtime_s":1}
{"id":"3","submit_s":1,"runtime_s":-1}
not json
{"id":"4","submit_s":2,"runtime_s":1,"tasks":0}
{"id":"5","submit_s":3,"runtime_s":1}
`
	r := NewJSONLReader(strings.NewReader(in), "t.jsonl", traces.Options{})
	jobs, err := tracetest.Drain(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].ID != "1" || jobs[1].ID != "5" {
		t.Fatalf("jobs: %v", dumpAll(jobs))
	}
	s := r.Skips()
	want := map[string]int{"must be ≥ 0": 2, "bad JSON: invalid character 'o' in literal null (expecting 'u')": 1, "must be ≥ 1": 1}
	if s.Total != 4 || !reflect.DeepEqual(s.ByReason, want) {
		t.Errorf("skips %d %v, want 4 %v", s.Total, s.ByReason, want)
	}
	if s.First.Error() != "t.jsonl:2: field submit_s: must be ≥ 0" {
		t.Errorf("first skip: %v", s.First)
	}
	// A skipped record does not set the clock: record 5 may follow record 1.
}

// TestStrictStopsAtFirst: strict mode returns the jobs before the bad record.
func TestStrictStopsAtFirst(t *testing.T) {
	in := "id,submit_s,runtime_s\na,0,1\nb,1,x\nc,2,1\n"
	r := NewCSVReader(strings.NewReader(in), "t.csv", traces.Options{Strict: true})
	jobs, err := tracetest.Drain(r)
	if len(jobs) != 1 || err == nil || err.Error() != "t.csv:3: field runtime_s: not a number of seconds" {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
}

func TestLongLine(t *testing.T) {
	in := `{"id":"` + strings.Repeat("x", maxLine) + `"}` + "\n"
	r := NewJSONLReader(strings.NewReader(goodJSONL+in), "t.jsonl", traces.Options{})
	jobs, err := tracetest.Drain(r)
	if len(jobs) != 1 || err == nil || err.Error() != "t.jsonl:2: line longer than 16 MiB" {
		t.Fatalf("%d jobs, %v", len(jobs), err)
	}
}

func TestBOM(t *testing.T) {
	r := NewCSVReader(strings.NewReader("\ufeffid,submit_s,runtime_s\na,0,1\n"), "t.csv", traces.Options{Strict: true})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	r = NewJSONLReader(strings.NewReader("\ufeff"+goodJSONL), "t.jsonl", traces.Options{Strict: true})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
}

// TestOpen reads the samples through every name Open understands.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	want, err := os.ReadFile(filepath.Join(testdata, "jobs.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, name string }{
		{"jobs.jsonl", "a.ndjson"},
		{"jobs.jsonl", "a.JSONL.gz"},
		{"jobs.jsonl", "a.ndjson.gz"},
		{"jobs.csv", "a.csv.gz"},
	} {
		data, err := os.ReadFile(filepath.Join(testdata, c.src))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.name)
		if strings.HasSuffix(c.name, ".gz") {
			tracetest.WriteGzip(t, path, data)
		} else if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := dumpAll(openAll(t, path, traces.Options{Strict: true})); got != string(want) {
			t.Errorf("%s:\n%s", c.name, got)
		}
	}
	if _, err := Open(filepath.Join(dir, "a.swf"), traces.Options{}); err == nil ||
		!strings.Contains(err.Error(), "not a native trace: want a .jsonl, .ndjson or .csv file (optionally .gz)") {
		t.Errorf("a.swf: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "missing.csv"), traces.Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	notGzip := filepath.Join(dir, "plain.csv.gz")
	os.WriteFile(notGzip, []byte("id,submit_s,runtime_s\n"), 0o644)
	if _, err := Open(notGzip, traces.Options{}); err == nil || !strings.Contains(err.Error(), "gzip: invalid header") {
		t.Errorf("not gzip: %v", err)
	}
}

// TestRoundTrip writes the sample in every encoding and reads it back.
func TestRoundTrip(t *testing.T) {
	jobs := openAll(t, filepath.Join(testdata, "jobs.jsonl"), traces.Options{Strict: true})
	want := dumpAll(jobs)
	roundTrip(t, jobs, func(name string, back []*sim.Job) {
		if got := dumpAll(back); got != want {
			t.Errorf("%s round trip:\n got:\n%s\nwant:\n%s", name, got, want)
		}
	})
}

func TestWriteJSONLShape(t *testing.T) {
	j := &sim.Job{ID: "a\"b\n\x01\xff", Submit: 88_510_000, Runtime: 1, Walltime: sim.NoWalltime, Tasks: 1,
		Request: []sim.Quantity{{Resource: "cpu", Amount: 500}, {Resource: "mem", Amount: -2000}}, Gang: true}
	got, err := AppendJSONL(nil, j)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a\"b\n\u0001\ufffd","submit_s":88.51,"runtime_s":0.000001,"tasks":1,"request":{"cpu":0.5,"mem":-2}}` + "\n"
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestWriterRejects(t *testing.T) {
	ok := sim.Job{ID: "a", Walltime: sim.NoWalltime, Tasks: 1}
	for _, c := range []struct {
		mod  func(*sim.Job)
		want string
	}{
		{func(j *sim.Job) { j.ID = "" }, `job "": id: must not be empty`},
		{func(j *sim.Job) { j.Tasks = 0 }, `job "a": tasks: must be ≥ 1, got 0`},
		{func(j *sim.Job) { j.Submit = -1 }, `job "a": submit_s: must be in [0, 1e12] s, got -0.000001`},
		{func(j *sim.Job) { j.Walltime = -2 }, `job "a": walltime_s: must be in [0, 1e12] s or unknown, got -0.000002`},
		{func(j *sim.Job) {
			j.Request = []sim.Quantity{{Resource: "cpu", Amount: 1}, {Resource: "cpu", Amount: 2}}
		}, `job "a": request.cpu: given twice`},
		{func(j *sim.Job) { j.Request = []sim.Quantity{{Resource: " cpu", Amount: 1}} }, `job "a": resource " cpu": a CSV column name cannot start or end with a space`},
		{func(j *sim.Job) { j.RequestedProcs = -1 }, `job "a": requested_procs: must be ≥ 0, got -1`},
		{func(j *sim.Job) { j.RecordedStart = 5 * sim.Second }, `job "a": recorded_start_s: 5, but the job says its start was not recorded`},
		{func(j *sim.Job) { j.Recorded, j.RecordedStart = true, -2_000_000_000_000*sim.Second }, `job "a": recorded_start_s: must be within ±1e12 s, got -2000000000000`},
		{func(j *sim.Job) { j.CotaskGroup = "web" }, `job "a": labels.cotask_group: "", but the job's co-task group is "web" (the format carries the group as that label)`},
		{func(j *sim.Job) {
			j.CotaskGroup = "web"
			j.Traits = &sim.Traits{Labels: []sim.Label{{Key: CotaskLabel, Value: "db"}}}
		}, `job "a": labels.cotask_group: "db", but the job's co-task group is "web" (the format carries the group as that label)`},
	} {
		j := ok
		c.mod(&j)
		err := WriteCSV(io.Discard, []*sim.Job{&j})
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
