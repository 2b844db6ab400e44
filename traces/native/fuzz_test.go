package native

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// fuzzRead reads everything a reader yields in both modes, checks each job
// against the schema's promises, and returns the lenient jobs.
func fuzzRead(t *testing.T, data []byte, newReader func(io.Reader, string, traces.Options) *Reader) []*sim.Job {
	var lenient []*sim.Job
	for _, strict := range []bool{true, false} {
		r := newReader(bytes.NewReader(data), "fuzz", traces.Options{Strict: strict})
		var jobs []*sim.Job
		var last sim.Time
		for {
			j, err := r.Next()
			if err != nil {
				if err != io.EOF && err.Error() == "" {
					t.Fatal("empty error message")
				}
				break
			}
			switch {
			case j.ID == "", j.Submit < last, j.Submit > maxTime, j.Runtime < 0, j.Runtime > maxTime,
				j.Walltime < 0 && j.Walltime != sim.NoWalltime, j.Walltime > maxTime, j.Tasks < 1:
				t.Fatalf("reader let through %s", dump(j))
			}
			if tr := j.Traits; tr != nil {
				if reflect.DeepEqual(*tr, sim.Traits{}) {
					t.Fatalf("empty Traits are not nil: %s", dump(j))
				}
				if err := checkTraits(tr); err != nil {
					t.Fatalf("reader let through %s: %v", dump(j), err)
				}
			}
			last = j.Submit
			jobs = append(jobs, j)
		}
		if strict {
			if s := r.Skips(); s.Total != 0 {
				t.Fatalf("strict reader skipped %d records", s.Total)
			}
		} else {
			lenient = jobs
		}
	}
	return lenient
}

// sameJobs compares two job lists; requests are compared as sets, since a
// CSV writer orders them by column.
func sameJobs(t *testing.T, a, b []*sim.Job, file []byte) {
	norm := func(js []*sim.Job) string {
		var out strings.Builder
		for _, j := range js {
			c := *j
			c.Request = slices.Clone(c.Request)
			slices.SortFunc(c.Request, func(x, y sim.Quantity) int { return strings.Compare(x.Resource, y.Resource) })
			out.WriteString(dump(&c) + "\n")
		}
		return out.String()
	}
	if x, y := norm(a), norm(b); x != y {
		t.Fatalf("round trip changed the jobs:\nbefore:\n%s\nafter:\n%s\nfile:\n%q", x, y, file)
	}
}

func addSeeds(f *testing.F, file string, cases []errCase) {
	data, err := os.ReadFile(filepath.Join(testdata, file))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, c := range cases {
		f.Add([]byte(c.in))
	}
}

// addTraitSeeds adds this package's sample with traits and a few records.
func addTraitSeeds(f *testing.F, file string, seeds []string) {
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

// addDepSeeds adds the dependency sample, good records and bad ones.
func addDepSeeds(f *testing.F, file string, seeds []string, bad []errCase) {
	addSeeds(f, file, bad)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzJSONL(f *testing.F) {
	addSeeds(f, "jobs.jsonl", jsonlErrors)
	addTraitSeeds(f, "traits.jsonl", traitSeeds)
	addDepSeeds(f, "dag.jsonl", depSeeds, depErrors)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzWriteBack(t, data, NewJSONLReader, WriteJSONL) })
}

func FuzzCSV(f *testing.F) {
	addSeeds(f, "jobs.csv", csvErrors)
	addTraitSeeds(f, "traits.csv", traitSeedsCSV)
	var csvErrs []errCase
	for _, c := range depErrors {
		csvErrs = append(csvErrs, csvDep(c))
	}
	addDepSeeds(f, "dag.csv", depSeedsCSV, csvErrs)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzWriteBack(t, data, NewCSVReader, WriteCSV) })
}

// fuzzWriteBack reads data as fuzzRead does, writes the jobs read with
// write and reads them back: the writer must take whatever the reader
// let through, and give the same jobs again.
func fuzzWriteBack(t *testing.T, data []byte, newReader func(io.Reader, string, traces.Options) *Reader, write func(io.Writer, []*sim.Job) error) {
	jobs := fuzzRead(t, data, newReader)
	var b bytes.Buffer
	if err := write(&b, jobs); err != nil {
		t.Fatalf("cannot write what was read: %v", err)
	}
	text := b.Bytes()
	back, err := tracetest.Drain(newReader(&b, "back", traces.Options{Strict: true}))
	if err != nil {
		t.Fatalf("cannot read what was written: %v\n%q", err, text)
	}
	sameJobs(t, jobs, back, data)
}

// FuzzJSONLScanner checks the hand-written JSON scanner against the
// encoding/json reference decoder (reference_test.go): the same job, or
// both a syntax error, or the same error.
func FuzzJSONLScanner(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(testdata, "jobs.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		f.Add(line)
	}
	for _, c := range jsonlErrors {
		f.Add([]byte(c.in))
	}
	sample, err := os.ReadFile(filepath.Join("testdata", "traits.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range bytes.Split(sample, []byte("\n")) {
		f.Add(line)
	}
	for _, s := range traitSeeds {
		f.Add([]byte(s))
	}
	for _, s := range depSeeds {
		for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
			f.Add([]byte(line))
		}
	}
	for _, c := range depErrors {
		f.Add([]byte(c.in))
	}
	for _, s := range []string{`{"id":"\ud83d\ude00\ud800x\udc00","submit_s":0,"runtime_s":1,"user":"\u00e9\/\b\f\n\r\t\"\\"}`,
		"{\"id\":\"a\xff\xfe\",\"submit_s\":0,\"runtime_s\":1}", `{"id":"\ud800\u0041","submit_s":-0,"runtime_s":1E-2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return // the reader splits lines first
		}
		d := &jsonlDecoder{name: "f", line: 1}
		var got, want record
		got.reset()
		want.reset()
		errGot := d.record(&got, line)
		errWant := d.refRecord(&want, line)
		switch {
		case errGot == nil && errWant == nil:
			if dump(&got.job) != dump(&want.job) {
				t.Fatalf("%q:\n got %s\nwant %s", line, dump(&got.job), dump(&want.job))
			}
		case errGot == nil || errWant == nil:
			t.Fatalf("%q: got %v, want %v", line, errGot, errWant)
		default:
			gs, ws := errGot.Error(), errWant.Error()
			if strings.HasPrefix(ws, "f:1: bad JSON") && strings.HasPrefix(gs, "f:1: bad JSON") {
				return
			}
			if gs != ws {
				t.Fatalf("%q:\n got %s\nwant %s", line, gs, ws)
			}
		}
	})
}
