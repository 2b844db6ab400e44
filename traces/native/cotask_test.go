package native

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
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
	jobs, err := readAll(t, NewJSONLReader(strings.NewReader(jsonl), "in.jsonl", traces.Options{Strict: true}))
	if err != nil {
		t.Fatal(err)
	}
	var csv, pq bytes.Buffer
	if err := WriteCSV(&csv, jobs); err != nil {
		t.Fatal(err)
	}
	fromCSV, err := readAll(t, NewCSVReader(bytes.NewReader(csv.Bytes()), "in.csv", traces.Options{Strict: true}))
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
	fromParquet, err := readAll(t, r)
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
