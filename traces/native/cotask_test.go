package native

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// The cotask_group label names the co-task group; gang: false with several
// tasks makes them independent; gang: false with one task, gang: true and
// no gang field leave the job as before. JSON Lines, CSV and Parquet
// alike (the last two written from what the first read).
func TestCotaskGroupAndIndependentTasks(t *testing.T) {
	jsonl := `{"id": "web-1", "submit_s": 0, "runtime_s": 60, "labels": {"tier": "front", "cotask_group": "web"}}
{"id": "svc", "submit_s": 1, "runtime_s": 60, "tasks": 3, "gang": false}
{"id": "one", "submit_s": 2, "runtime_s": 60, "gang": false}
{"id": "hpc", "submit_s": 3, "runtime_s": 60, "tasks": 4, "gang": true}
{"id": "plain", "submit_s": 4, "runtime_s": 60, "tasks": 2}
`
	want := "web-1 group=web independent=false gang=true\n" +
		"svc group= independent=true gang=false\n" +
		"one group= independent=false gang=false\n" +
		"hpc group= independent=false gang=true\n" +
		"plain group= independent=false gang=true\n"
	jobs, err := tracetest.Drain(NewJSONLReader(strings.NewReader(jsonl), "in.jsonl", traces.Options{Strict: true}))
	if err != nil {
		t.Fatal(err)
	}
	var csv, pq bytes.Buffer
	if err := WriteCSV(&csv, jobs); err != nil {
		t.Fatal(err)
	}
	fromCSV, err := tracetest.Drain(NewCSVReader(bytes.NewReader(csv.Bytes()), "in.csv", traces.Options{Strict: true}))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pq, jobs, nil); err != nil {
		t.Fatal(err)
	}
	r, err := NewParquetReader(bytes.NewReader(pq.Bytes()), "in.parquet", traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	fromParquet, err := tracetest.Drain(r)
	if err != nil {
		t.Fatal(err)
	}
	for name, js := range map[string][]*sim.Job{"jsonl": jobs, "csv": fromCSV, "parquet": fromParquet} {
		var got strings.Builder
		for _, j := range js {
			fmt.Fprintf(&got, "%s group=%s independent=%t gang=%t\n", j.ID, j.CotaskGroup, j.IndependentTasks, j.Gang)
		}
		if got.String() != want {
			t.Errorf("%s:\n got\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// encodings are the three writers and their readers, for round trips.
var encodings = []struct {
	name  string
	write func(io.Writer, []*sim.Job) error
	read  func(t *testing.T, data []byte) ([]*sim.Job, error)
}{
	{"jsonl", WriteJSONL, func(t *testing.T, data []byte) ([]*sim.Job, error) {
		return tracetest.Drain(NewJSONLReader(bytes.NewReader(data), "t.jsonl", traces.Options{Strict: true}))
	}},
	{"csv", WriteCSV, func(t *testing.T, data []byte) ([]*sim.Job, error) {
		return tracetest.Drain(NewCSVReader(bytes.NewReader(data), "t.csv", traces.Options{Strict: true}))
	}},
	{"parquet", func(w io.Writer, jobs []*sim.Job) error { return WriteParquet(w, jobs, nil) }, func(t *testing.T, data []byte) ([]*sim.Job, error) {
		jobs, _, err := readParquet(t, data, traces.Options{Strict: true})
		return jobs, err
	}},
}

// roundTrip writes jobs in every encoding and calls check with what each
// reads back.
func roundTrip(t *testing.T, jobs []*sim.Job, check func(name string, back []*sim.Job)) {
	t.Helper()
	for _, enc := range encodings {
		var b bytes.Buffer
		if err := enc.write(&b, jobs); err != nil {
			t.Fatal(err)
		}
		back, err := enc.read(t, b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", enc.name, err)
		}
		check(enc.name, back)
	}
}

// TestWrittenGang: the writers write gang so that the job reads back the
// same way it replays. A job of several tasks that is not a gang but
// whose tasks are not independent either (Alibaba's instances) comes back
// as a gang, its tasks still together; one of independent tasks comes
// back independent whatever its Gang said; a one-task job keeps Gang.
func TestWrittenGang(t *testing.T) {
	job := func(id string, tasks int, gang, independent bool) *sim.Job {
		return &sim.Job{ID: id, Walltime: sim.NoWalltime, Tasks: tasks, Gang: gang, IndependentTasks: independent}
	}
	jobs := []*sim.Job{
		job("instances", 3, false, false),
		job("split", 3, false, true),
		job("split-gang", 2, true, true),
		job("hpc", 4, true, false),
		job("one", 1, false, false),
		job("one-gang", 1, true, false),
	}
	want := "instances independent=false gang=true\n" +
		"split independent=true gang=false\n" +
		"split-gang independent=true gang=false\n" +
		"hpc independent=false gang=true\n" +
		"one independent=false gang=false\n" +
		"one-gang independent=false gang=true\n"
	roundTrip(t, jobs, func(name string, back []*sim.Job) {
		var got strings.Builder
		for _, j := range back {
			fmt.Fprintf(&got, "%s independent=%t gang=%t\n", j.ID, j.IndependentTasks, j.Gang)
		}
		if got.String() != want {
			t.Errorf("%s:\n got\n%s\nwant\n%s", name, got.String(), want)
		}
	})
}
