package google

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// copyTrace copies the sample of version v into a temporary directory and
// replaces the tables given with one plain part file holding their text.
// It returns the directory and the path of each replaced table's part.
func copyTrace(t *testing.T, v string, replace map[string]string) (string, map[string]string) {
	t.Helper()
	src := filepath.Join(testdata, v)
	dst := t.TempDir()
	table := func(rel string) string { // the table a sample file belongs to
		name := strings.Split(rel, string(filepath.Separator))[0]
		if i := strings.Index(name, "-0"); i >= 0 {
			name = name[:i]
		}
		return name
	}
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if _, ok := replace[table(rel)]; ok {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for name, text := range replace {
		p := filepath.Join(dst, name+"-000000000000.json")
		if v == "2011" {
			p = filepath.Join(dst, name, "part-00000-of-00001.csv")
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return dst, paths
}

// readTrace opens dir and reads it to the end: the jobs' count and the
// first error (nil at a clean end).
func readTrace(dir string, opt Options) (*Reader, int, error) {
	r, err := Open(dir, opt)
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return r, n, nil
		}
		if err != nil {
			return r, n, err
		}
		n++
	}
}

type errCase struct {
	table string
	line  string // the bad record, written as line 2 after a good one
	field string
	want  string
}

// Good first lines of each table, so that the bad record is line 2.
var good = map[string]string{
	"task_events":        "0,,100,0,1001,0,u1,1,0,0.03125,0.01553,0.0001,0",
	"job_events":         "0,,100,0,u1,1,jn100,ln100",
	"task_constraints":   "700000000,300,0,3,Xa,4",
	"machine_events":     "0,1001,0,P1hash,0.5,0.2493",
	"machine_attributes": "0,1001,Xa,3,0",
	"instance_events":    `{"time":"0","type":0,"collection_id":"1","instance_index":"0","priority":"200"}`,
	"collection_events":  `{"time":"0","type":0,"collection_id":"1","priority":"200","user":"alice"}`,
}

// good2019 are the 2019 tables' good first lines where names clash.
var good2019 = map[string]string{
	"machine_events":     `{"time":"0","machine_id":"11","type":1,"capacity":{"cpus":0.5,"memory":0.5}}`,
	"machine_attributes": `{"time":"0","machine_id":"11","name":"kernel","value":"4"}`,
}

var errors2011 = []errCase{
	{"task_events", "0,,100,0,1001,0,u1,1,0,0.03,0.01,0", "", "12 fields, want 13"},
	{"task_events", "x,,100,0,1001,0,u1,1,0,0.03,0.01,0,0", "1 (time)", `not an integer: "x"`},
	{"task_events", "-5,,100,0,1001,0,u1,1,0,0.03,0.01,0,0", "1 (time)", "-5 out of range 0–9223372036854775807"},
	{"task_events", "0,9,100,0,1001,0,u1,1,0,0.03,0.01,0,0", "2 (missing info)", "9 out of range 0–3"},
	{"task_events", "0,,,0,1001,0,u1,1,0,0.03,0.01,0,0", "3 (job ID)", "empty (mandatory)"},
	{"task_events", "0,,100,-1,1001,0,u1,1,0,0.03,0.01,0,0", "4 (task index)", "-1 out of range 0–2147483647"},
	{"task_events", "0,,100,0,m1,0,u1,1,0,0.03,0.01,0,0", "5 (machine ID)", `not an integer: "m1"`},
	{"task_events", "0,,100,0,1001,9,u1,1,0,0.03,0.01,0,0", "6 (event type)", "9 out of range 0–8"},
	{"task_events", "0,,100,0,1001,0,u1,4,0,0.03,0.01,0,0", "8 (scheduling class)", "4 out of range 0–3"},
	{"task_events", "0,,100,0,1001,0,u1,1,12,0.03,0.01,0,0", "9 (priority)", "12 out of range 0–11"},
	{"task_events", "0,,100,0,1001,0,u1,1,,0.03,0.01,0,0", "9 (priority)", "empty (mandatory)"},
	{"task_events", "0,,100,0,1001,0,u1,1,0,abc,0.01,0,0", "10 (CPU request)", `not a number: "abc"`},
	{"task_events", "0,,100,0,1001,0,u1,1,0,0.03,-0.01,0,0", "11 (memory request)", "negative"},
	{"task_events", "0,,100,0,1001,0,u1,1,0,0.03,0.01,NaN,0", "12 (disk space request)", "not a finite number"},
	{"task_events", "0,,100,0,1001,0,u1,1,0,0.03,0.01,0,2", "13 (different machines restriction)", `not a boolean (0 or 1): "2"`},
	{"job_events", "0,,100,0,u1,1,jn100", "", "7 fields, want 8"},
	{"job_events", "0,,100,10,u1,1,jn100,ln100", "4 (event type)", "10 out of range 0–8"},
	{"job_events", "0,,100,0,u1,x,jn100,ln100", "6 (scheduling class)", `not an integer: "x"`},
	{"task_constraints", "700000000,300,0,4,Xa,4", "4 (comparison operator)", "4 out of range 0–3"},
	{"task_constraints", "700000000,300,0,0,,4", "5 (attribute name)", "empty attribute name"},
	{"task_constraints", "700000000,300,0,2,Xa,abc", "6 (attribute value)", `LESS_THAN compares numbers, got "abc"`},
	{"machine_events", "0,1002,3,P1hash,0.5,0.5", "3 (event type)", "3 out of range 0–2"},
	{"machine_events", "0,1002,0,P1hash,x,0.5", "5 (CPUs)", `not a number: "x"`},
	{"machine_events", "0,1002,0,P1hash,0.5,2000", "6 (Memory)", "2000 is above 1000 (normalised: the largest machine is 1)"},
	{"machine_attributes", "0,1002,,3,0", "3 (attribute name)", "empty (mandatory)"},
	{"machine_attributes", "0,1002,Xa,3,yes", "5 (attribute deleted)", `not a boolean (0 or 1): "yes"`},
}

var errors2019 = []errCase{
	{"instance_events", `{"time":"0","type":0,`, "", "bad JSON: unexpected end of JSON input"},
	{"instance_events", `[1]`, "", "bad JSON: json: cannot unmarshal array into Go value of type google.jsonObject"},
	{"instance_events", `{"type":0,"collection_id":"1","instance_index":"0"}`, "time", "missing (mandatory)"},
	{"instance_events", `{"time":"abc","type":0,"collection_id":"1","instance_index":"0"}`, "time", `not an integer: "abc"`},
	{"instance_events", `{"time":"0","type":11,"collection_id":"1","instance_index":"0"}`, "type", "11 out of range 0–10"},
	{"instance_events", `{"time":"0","type":0,"instance_index":"0"}`, "collection_id", "missing (mandatory)"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":-1}`, "instance_index", "-1 out of range 0–2147483647"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","priority":"x"}`, "priority", `not an integer: "x"`},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","scheduling_class":5}`, "scheduling_class", "5 out of range 0–3"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","collection_type":2}`, "collection_type", "2 out of range 0–1"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","resource_request":{"cpus":"x"}}`, "resource_request.cpus", `not a number: "x"`},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","resource_request":{"memory":-1}}`, "resource_request.memory", "negative"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","resource_request":7}`, "resource_request", "not an object: 7"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","constraint":{}}`, "constraint", "not a list: {}"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","constraint":[{"name":"k","value":"1","relation":8}]}`, "constraint[0].relation", "8 out of range 0–7"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","constraint":[{"name":"k","value":"a","relation":2}]}`, "constraint[0].value", `LESS_THAN compares numbers, got "a"`},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","constraint":[{"name":"k","relation":6},{"value":"1"}]}`, "constraint[1].name", "empty attribute name"},
	{"instance_events", `{"time":"0","type":0,"collection_id":"1","instance_index":"0","constraint":[3]}`, "constraint[0]", "not an object: 3"},
	{"collection_events", `{"time":"0","type":0,"collection_id":"2","max_per_machine":-1}`, "max_per_machine", "-1 out of range 0–2147483647"},
	{"collection_events", `{"time":"0","type":0,"collection_id":"2","user":{}}`, "user", "not a string: {}"},
	{"machine_events", `{"time":"0","machine_id":"14","type":0}`, "type", "0 out of range 1–3"},
	{"machine_events", `{"time":"0","machine_id":"14","type":1,"capacity":{"cpus":0.5,"memory":-1}}`, "capacity.memory", "negative"},
	{"machine_attributes", `{"time":"0","machine_id":"11","value":"4"}`, "name", "missing (mandatory)"},
	{"machine_attributes", `{"time":"0","machine_id":"11","name":"k","deleted":"maybe"}`, "deleted", `not a boolean: "maybe"`},
}

// TestStrictErrors: one malformed field per case, in strict mode, names
// the part file, line 2 and the field, with the reason.
func TestStrictErrors(t *testing.T) {
	for v, cases := range map[string][]errCase{"2011": errors2011, "2019": errors2019} {
		for _, c := range cases {
			first := good[c.table]
			if g, ok := good2019[c.table]; ok && v == "2019" {
				first = g
			}
			dir, paths := copyTrace(t, v, map[string]string{c.table: first + "\n" + c.line + "\n"})
			_, _, err := readTrace(dir, Options{Options: traces.Options{Strict: true}})
			var pe *traces.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("%s %s %q: want a ParseError, got %v", v, c.table, c.line, err)
				continue
			}
			if pe.File != paths[c.table] || pe.Line != 2 || pe.Field != c.field || pe.Err.Error() != c.want {
				t.Errorf("%s %s %q:\n got %s\nwant %s:2: field %s: %s", v, c.table, c.line, pe, paths[c.table], c.field, c.want)
			}
		}
	}
}

// TestTimeGoesBack: a record earlier than the one before it in the same
// part file is bad (line 3 here).
func TestTimeGoesBack(t *testing.T) {
	text := good["task_events"] + "\n" + "700000000,,100,0,1001,4,u1,1,0,,,,\n" + "600000000,,100,1,1001,0,u1,1,0,0.1,0.1,0,0\n"
	dir, paths := copyTrace(t, "2011", map[string]string{"task_events": text})
	_, _, err := readTrace(dir, Options{Options: traces.Options{Strict: true}})
	want := paths["task_events"] + ":3: field 1 (time): time 600000000 goes back (the previous record is at 700000000): each part file must be in time order"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestLenient: in lenient mode every bad record of a table is skipped and
// counted, and the good ones are read. Task events: the good SUBMIT, then
// four bad records, then a SCHEDULE and a FINISH: one job, 4 skips (each
// skip is counted once although the task tables are read twice).
func TestLenient(t *testing.T) {
	lines := []string{good["task_events"],
		"x,,100,0,1001,1,u1,1,0,,,,",
		"0,,100,0,1001,1,u1,1,99,,,,",
		"0,,100,0,1001,1,u1,1,0,,,",
		"0,,100,0,1001,1,u1,1,0,-1,,,",
		"0,,100,0,1001,1,u1,1,0,,,,",
		"5000000,,100,0,1001,4,u1,1,0,,,,",
	}
	dir, _ := copyTrace(t, "2011", map[string]string{"task_events": strings.Join(lines, "\n") + "\n"})
	r, n, err := readTrace(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Skips(); n != 1 || s.Total != 4 {
		t.Errorf("got %d jobs, %d skipped (%v), want 1 and 4", n, s.Total, s.ByReason)
	}
	// The same with the bad records in the machine tables, which are read
	// once: 2 skipped, every job of the sample read (9, see 2011.golden).
	machines := "0,1001,0,P1hash,0.5,0.2493\n0,1002,x,P1hash,0.5,0.4995\n0,1002,0,P1hash,0.5,0.4995\n0,1003,0,P2hash,1,1\n0,1003,0,P2hash,1\n"
	dir, _ = copyTrace(t, "2011", map[string]string{"machine_events": machines})
	r, n, err = readTrace(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Skips(); n != 9 || s.Total != 2 || len(r.Nodes()) != 3 {
		t.Errorf("got %d jobs, %d skipped (%v), %d nodes, want 9, 2, 3", n, s.Total, s.ByReason, len(r.Nodes()))
	}
}
