package metrics

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
)

// RunSummaryKind agrees with the summary a Recorder writes on another
// cluster, column by column (labels are strings and unknown to it).
func TestRunSummaryKinds(t *testing.T) {
	r, err := NewRecorder(t.TempDir(), twoNodes(t), Options{Labels: []Label{{Name: "trace", Value: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Abort()
	for _, c := range r.summaryCols(FinalInfo{}, 0) {
		kind, known := RunSummaryKind(c.name)
		want := map[arrow.Type]ColumnKind{arrow.INT64: KindInt, arrow.FLOAT64: KindFloat, arrow.STRING: KindString}[c.kind]
		if c.name == "trace" {
			if known {
				t.Errorf("label %s taken for a summary column", c.name)
			}
			continue
		}
		if !known || kind != want {
			t.Errorf("%s: kind %d known %v, want %d", c.name, kind, known, want)
		}
	}
	for _, name := range []string{"wall_s", "events_per_s", "jobs_per_s"} {
		if !IsTimingColumn(name) {
			t.Errorf("%s is a timing column", name)
		}
	}
	if IsTimingColumn("events") {
		t.Error("events is deterministic")
	}
}

// A sweep summary keeps the text of its numbers in CSV and their types in
// Parquet; "" is null; the same columns give the same bytes.
func TestWriteSweepSummary(t *testing.T) {
	cols := []SweepColumn{
		{Name: "run", Values: []string{"a__seed=1", "b,c"}},
		{Name: "param_w", Kind: KindFloat, Values: []string{"0.5", "1e-07"}},
		{Name: "seed", Kind: KindInt, Values: []string{"9223372036854775807", "3"}},
		{Name: "mean_wait_s", Kind: KindFloat, Values: []string{"2.072145e+06", ""}},
	}
	dir := t.TempDir()
	if err := WriteSweepSummary(dir, cols); err != nil {
		t.Fatal(err)
	}
	csvBytes, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	// Floats print as strconv 'g' −1, as in every run's summary.csv; the
	// comma in "b,c" is quoted.
	want := "run,param_w,seed,mean_wait_s\na__seed=1,0.5,9223372036854775807,2.072145e+06\n\"b,c\",1e-07,3,\n"
	if string(csvBytes) != want {
		t.Errorf("summary.csv:\n%s\nwant\n%s", csvBytes, want)
	}
	got := readParquet(t, filepath.Join(dir, "summary.parquet"))
	wantPq := readTable{
		"run":         {"a__seed=1", "b,c"},
		"param_w":     {0.5, 1e-07},
		"seed":        {int64(9223372036854775807), int64(3)},
		"mean_wait_s": {2.072145e+06, nil},
	}
	if !reflect.DeepEqual(got, wantPq) {
		t.Errorf("summary.parquet: %v, want %v", got, wantPq)
	}
	pq1, _ := os.ReadFile(filepath.Join(dir, "summary.parquet"))
	dir2 := t.TempDir()
	if err := WriteSweepSummary(dir2, cols); err != nil {
		t.Fatal(err)
	}
	pq2, _ := os.ReadFile(filepath.Join(dir2, "summary.parquet"))
	if string(pq1) != string(pq2) {
		t.Error("the same columns gave other Parquet bytes")
	}
	bad := []SweepColumn{{Name: "jobs", Kind: KindInt, Values: []string{"1.5"}}}
	if err := WriteSweepSummary(t.TempDir(), bad); err == nil || !strings.Contains(err.Error(), "column jobs, row 1") {
		t.Errorf("a non-integer in an int column: %v", err)
	}
}
