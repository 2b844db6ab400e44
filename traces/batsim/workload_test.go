package batsim

import (
	"encoding/json"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

func TestMediumLate(t *testing.T) {
	path := filepath.Join(sharedDir(t), "medium_late", "medium_late.json")
	r, err := OpenWorkload(path, traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	jobs := tracetest.All(t, r)
	if len(jobs) != 801 || r.Len() != 801 {
		t.Fatalf("got %d jobs (Len %d), want 801", len(jobs), r.Len())
	}
	if r.NbRes() != 32 {
		t.Errorf("NbRes = %d, want 32", r.NbRes())
	}
	if s := r.Skips(); s.Total != 0 {
		t.Errorf("skips = %+v, want none", s)
	}

	// The file's first object is job 424242 submitted at 16000 s, after
	// every other job; sorted by subtime, job 0 (subtime 0.0, profile
	// delay_ft.B.1 with delay 88.51) comes first and 424242 last.
	first := sim.Job{ID: "0", Submit: 0, Runtime: 88_510_000, Walltime: 149 * sim.Second, Tasks: 1,
		Request: []sim.Quantity{{Resource: "host", Amount: sim.Units(1)}}, Gang: true}
	if got, want := formatJob(jobs[0]), formatJob(&first); got != want {
		t.Errorf("first job\n got %s\nwant %s", got, want)
	}
	last := first
	last.ID, last.Submit = "424242", 16000*sim.Second
	if got, want := formatJob(jobs[800]), formatJob(&last); got != want {
		t.Errorf("last job\n got %s\nwant %s", got, want)
	}
	// Job 1: subtime 4.709164021244639 rounds to 4.709164 s; profile
	// delay_ft.C.2, res 2, walltime 399.
	if got := formatJob(jobs[1]); !strings.HasPrefix(got, "id=1 submit=4.709164 runtime=") ||
		!strings.Contains(got, "walltime=399 tasks=2 ") {
		t.Errorf("second job = %s", got)
	}
	for i := 1; i < len(jobs); i++ {
		if jobs[i].Submit < jobs[i-1].Submit {
			t.Fatalf("job %d (%s) submitted before job %d", i, jobs[i].ID, i-1)
		}
	}

	// Independent check: total runtime and hosts from a separate decode,
	// summed exactly as rationals.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Jobs []struct {
			Profile string `json:"profile"`
			Res     int    `json:"res"`
		} `json:"jobs"`
		Profiles map[string]struct {
			Delay json.Number `json:"delay"`
		} `json:"profiles"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	wantSum, wantRes := new(big.Rat), 0
	for _, j := range raw.Jobs {
		d, ok := new(big.Rat).SetString(string(raw.Profiles[j.Profile].Delay))
		if !ok {
			t.Fatalf("bad delay %q", raw.Profiles[j.Profile].Delay)
		}
		wantSum.Add(wantSum, d)
		wantRes += j.Res
	}
	var gotMicros int64
	gotRes := 0
	for _, j := range jobs {
		gotMicros += int64(j.Runtime)
		gotRes += j.Tasks
	}
	gotSum := big.NewRat(gotMicros, int64(sim.Second))
	if gotSum.Cmp(wantSum) != 0 {
		t.Errorf("sum of runtimes = %s s, want %s s", gotSum.FloatString(6), wantSum.FloatString(6))
	}
	if gotRes != wantRes || gotRes != 2180 {
		t.Errorf("sum of res = %d, want %d (2180)", gotRes, wantRes)
	}
}

// TestSharedWorkloads reads every workload of ../shared in both modes.
func TestSharedWorkloads(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "workloads")
	cases := []struct {
		file        string
		jobs, skips int
		strictErr   string // substring of the strict-mode error; "" when strict succeeds
	}{
		{"example_workload_hpc_seed1_jobs250.json", 250, 0, ""},
		{"test_batsim_paper_workload_seed1.json", 800, 0, ""},
		{"test_delays.json", 10, 0, ""},
		// Jobs 1001–1022 use a ptask_homogeneous profile, whose run time
		// depends on the platform's speed: they cannot be replayed.
		{"test_walltime.json", 22, 22, `test_walltime.json:27: field profile: job 1001: profile "compute_only_10s" has type "ptask_homogeneous"`},
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(cases) {
		t.Errorf("%d files in %s, %d cases: add the new file to the table", len(entries), dir, len(cases))
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			r, err := OpenWorkload(path, traces.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(tracetest.All(t, r)); n != c.jobs {
				t.Errorf("lenient: %d jobs, want %d", n, c.jobs)
			}
			if s := r.Skips(); s.Total != c.skips {
				t.Errorf("lenient: %d skipped, want %d (%+v)", s.Total, c.skips, s)
			}
			_, err = OpenWorkload(path, traces.Options{Strict: true})
			switch {
			case c.strictErr == "" && err != nil:
				t.Errorf("strict: %v", err)
			case c.strictErr != "" && (err == nil || !strings.Contains(err.Error(), c.strictErr)):
				t.Errorf("strict: error %v, want one containing %q", err, c.strictErr)
			}
		})
	}
}

func TestLenientSkipsGroupByReason(t *testing.T) {
	r, err := OpenWorkload(filepath.Join(testdata, "test_walltime.json"), traces.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Skips()
	reason := `profile: profile "compute_only_10s" has type "ptask_homogeneous": only delay profiles can be replayed`
	if s.Total != 22 || len(s.ByReason) != 1 || s.ByReason[reason] != 22 {
		t.Errorf("skips = %d %v, want 22 under %q", s.Total, s.ByReason, reason)
	}
	// The example names the first skipped job and its line.
	if s.First == nil || s.First.Line != 27 || s.First.Field != "profile" || !strings.Contains(s.First.Error(), "job 1001:") {
		t.Errorf("first skip = %v", s.First)
	}
}

func TestGoldenWorkloads(t *testing.T) {
	for _, name := range []string{"test_walltime.json", "test_delays.json", "medium_late_head.json"} {
		t.Run(name, func(t *testing.T) {
			r, err := OpenWorkload(filepath.Join(testdata, name), traces.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, j := range tracetest.All(t, r) {
				b.WriteString(formatJob(j) + "\n")
			}
			golden(t, strings.TrimSuffix(name, ".json")+".jobs", b.String())
		})
	}
}

// workload wraps jobs and profiles into a workload document.
func workload(jobs string) string {
	return `{"nb_res": 4,
"profiles": {"d10": {"type": "delay", "delay": 10},
             "d5": {"type": "DelayProfile", "delay": 5.25},
             "par": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0},
             "neg": {"type": "delay", "delay": -1},
             "nodelay": {"type": "delay"}},
"jobs": [
` + jobs + `
]}`
}

// TestBadRecords checks each kind of bad job in strict mode (error with
// line and field) and lenient mode (skipped, the good job kept). The bad
// job is on line 9, after a good one on line 8.
func TestBadRecords(t *testing.T) {
	good := `{"id": "ok", "subtime": 1, "res": 1, "profile": "d10"},`
	cases := []struct {
		name, job, field, msg string
	}{
		{"negative res", `{"id": 7, "subtime": 1, "res": -2, "profile": "d10"}`, "res", "job 7: negative"},
		{"zero res", `{"id": 7, "subtime": 1, "res": 0, "profile": "d10"}`, "res", "zero hosts"},
		{"fractional res", `{"id": 7, "subtime": 1, "res": 1.5, "profile": "d10"}`, "res", "not an integer"},
		{"string res", `{"id": 7, "subtime": 1, "res": "2", "profile": "d10"}`, "res", "not an integer"},
		{"no res", `{"id": 7, "subtime": 1, "profile": "d10"}`, "res", "missing"},
		{"no profile", `{"id": 7, "subtime": 1, "res": 1}`, "profile", "job 7: missing"},
		{"undefined profile", `{"id": 7, "subtime": 1, "res": 1, "profile": "nope"}`, "profile", `profile "nope" is not defined`},
		{"parallel profile", `{"id": 7, "subtime": 1, "res": 1, "profile": "par"}`, "profile", `job 7: profile "par" has type "parallel_homogeneous": only delay profiles`},
		{"negative delay", `{"id": 7, "subtime": 1, "res": 1, "profile": "neg"}`, "profile", "negative delay"},
		{"no delay", `{"id": 7, "subtime": 1, "res": 1, "profile": "nodelay"}`, "profile", "has no delay"},
		{"profile not a string", `{"id": 7, "subtime": 1, "res": 1, "profile": 3}`, "profile", "not a string"},
		{"negative subtime", `{"id": 7, "subtime": -0.5, "res": 1, "profile": "d10"}`, "subtime", "job 7: negative"},
		{"no subtime", `{"id": 7, "res": 1, "profile": "d10"}`, "subtime", "missing"},
		{"string subtime", `{"id": 7, "subtime": "3", "res": 1, "profile": "d10"}`, "subtime", "not a number"},
		{"zero walltime", `{"id": 7, "subtime": 1, "walltime": 0, "res": 1, "profile": "d10"}`, "walltime", "zero"},
		{"string walltime", `{"id": 7, "subtime": 1, "walltime": "1h", "res": 1, "profile": "d10"}`, "walltime", "not a number"},
		{"no id", `{"subtime": 1, "res": 1, "profile": "d10"}`, "id", "missing"},
		{"null id", `{"id": null, "subtime": 1, "res": 1, "profile": "d10"}`, "id", "neither a string nor a number"},
		{"empty id", `{"id": "", "subtime": 1, "res": 1, "profile": "d10"}`, "id", "empty"},
		{"duplicate id", `{"id": "ok", "subtime": 2, "res": 1, "profile": "d10"}`, "id", "job ok: id already used by the job on line 8"},
		{"not an object", `[1, 2]`, "", "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := workload(good + "\n" + c.job)
			_, err := ParseWorkload("w.json", []byte(doc), traces.Options{Strict: true})
			if err == nil {
				t.Fatal("strict: no error")
			}
			pe := tracetest.ParseErr(t, err)
			if pe.File != "w.json" || pe.Line != 9 || pe.Field != c.field || !strings.Contains(pe.Err.Error(), c.msg) {
				t.Errorf("strict: got %q (line %d, field %q), want line 9, field %q, message with %q",
					err, pe.Line, pe.Field, c.field, c.msg)
			}

			r, err := ParseWorkload("w.json", []byte(doc), traces.Options{})
			if err != nil {
				t.Fatalf("lenient: %v", err)
			}
			jobs := tracetest.All(t, r)
			if len(jobs) != 1 || jobs[0].ID != "ok" {
				t.Errorf("lenient: kept %d jobs, want the good one", len(jobs))
			}
			if s := r.Skips(); s.Total != 1 || s.First == nil || s.First.Line != 9 {
				t.Errorf("lenient: skips %+v", s)
			}
		})
	}
}

// TestBadFiles checks whole-file errors, fatal in both modes.
func TestBadFiles(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
		field     string
		msg       string
	}{
		{"syntax error", "{\n\"jobs\": [\n{\"id\": 1,, \"subtime\": 0}\n]}", 3, "", "bad JSON"},
		{"truncated", "{\n\"jobs\": [\n{\"id\": 1", 3, "", "bad JSON"},
		{"empty", "", 1, "", "bad JSON"},
		{"top-level array", "[]", 0, "", "not a Batsim workload"},
		{"no jobs", `{"nb_res": 1, "profiles": {}}`, 0, "jobs", "missing"},
		{"jobs not an array", "{\n\"jobs\": {}}", 2, "jobs", "not an array"},
		{"profiles not an object", "{\"jobs\": [],\n\"profiles\": [1]}", 2, "profiles", "not an object"},
		{"bad nb_res", "{\"jobs\": [],\n\"nb_res\": -3}", 2, "nb_res", "not a count"},
		{"trailing data", "{\"jobs\": []}\n{}", 2, "", "data after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, strict := range []bool{true, false} {
				_, err := ParseWorkload("w.json", []byte(c.doc), traces.Options{Strict: strict})
				if err == nil {
					t.Fatalf("strict=%t: no error", strict)
				}
				pe := tracetest.ParseErr(t, err)
				if pe.Line != c.line || pe.Field != c.field || !strings.Contains(err.Error(), c.msg) {
					t.Errorf("strict=%t: got %q (line %d, field %q), want line %d, field %q, %q",
						strict, err, pe.Line, pe.Field, c.line, c.field, c.msg)
				}
			}
		})
	}
}

func TestJobFields(t *testing.T) {
	doc := workload(`{"id": "w0!1", "subtime": 88.51, "res": 2, "profile": "d5"},
{"id": 12345678901234567890, "subtime": 3, "walltime": -1, "res": 4.0, "profile": "d10"},
{"id": 1.50, "subtime": 3, "walltime": null, "res": 1, "profile": "d10"},
{"id": "\u00e9t\u00e9", "subtime": 3, "walltime": 7200.000001, "res": 1, "profile": "d10"},
{"id": 5, "subtime": 1e1, "walltime": -7, "res": 1, "profile": "d5"},
{"id": 6, "subtime": 0.0000004, "res": 1, "profile": "d5"}`)
	r, err := ParseWorkload("w.json", []byte(doc), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range tracetest.All(t, r) {
		got = append(got, formatJob(j))
	}
	// Sorted by subtime; the three jobs at 3 s keep their file order.
	// 0.0000004 s rounds to 0; -1, -7 and null walltimes mean none.
	want := []string{
		"id=6 submit=0 runtime=5.25 walltime=none tasks=1 request=host:1 gang=true",
		"id=12345678901234567890 submit=3 runtime=10 walltime=none tasks=4 request=host:1 gang=true",
		"id=1.50 submit=3 runtime=10 walltime=none tasks=1 request=host:1 gang=true",
		"id=été submit=3 runtime=10 walltime=7200.000001 tasks=1 request=host:1 gang=true",
		"id=5 submit=10 runtime=5.25 walltime=none tasks=1 request=host:1 gang=true",
		"id=w0!1 submit=88.51 runtime=5.25 walltime=none tasks=2 request=host:1 gang=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after the end = %v, want io.EOF", err)
	}
}

// TestProfilesBeforeJobs: key order does not matter, and a BOM is accepted.
func TestProfilesBeforeJobs(t *testing.T) {
	doc := "\xef\xbb\xbf" + `{"profiles": {"p": {"type": "delay", "delay": 1}}, "jobs": [{"id": 1, "subtime": 0, "res": 1, "profile": "p"}]}`
	r, err := ParseWorkload("w.json", []byte(doc), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if jobs := tracetest.All(t, r); len(jobs) != 1 || jobs[0].Runtime != sim.Second {
		t.Errorf("jobs = %v", jobs)
	}
}

func TestOpenWorkloadMissingFile(t *testing.T) {
	if _, err := OpenWorkload(filepath.Join(t.TempDir(), "none.json"), traces.Options{}); err == nil {
		t.Error("no error for a missing file")
	}
}

// TestSyntaxErrorLine: the line of a JSON syntax error deep in the file.
func TestSyntaxErrorLine(t *testing.T) {
	doc := workload(`{"id": 1, "subtime": 0, "res": 1, "profile": "d10"},
{"id": 2, "subtime": 0, "res": 1, "profile": "d10"},
{"id": 3, "subtime": 0, "res": 1, "profile": "d10"},
{"id": 4, "subtime": 0, "res": 1,, "profile": "d10"}`)
	_, err := ParseWorkload("w.json", []byte(doc), traces.Options{})
	if pe := tracetest.ParseErr(t, err); pe.Line != 11 || !strings.Contains(err.Error(), "invalid character ','") {
		t.Errorf("got %v (line %d), want line 11", err, pe.Line)
	}
}
