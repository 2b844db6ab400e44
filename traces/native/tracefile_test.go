package native

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// The name picks the encoding; a gzipped Parquet file or another
// extension is none.
func TestEncodingOf(t *testing.T) {
	for path, want := range map[string]Encoding{
		"t.parquet": {Format: "parquet"}, "T.PARQUET": {Format: "parquet"},
		"d/t.jsonl": {Format: "jsonl"}, "t.ndjson.gz": {Format: "jsonl", Gzip: true},
		"t.csv": {Format: "csv"}, "t.csv.GZ": {Format: "csv", Gzip: true},
	} {
		if got, ok := EncodingOf(path); !ok || got != want {
			t.Errorf("%s: %+v %v, want %+v", path, got, ok, want)
		}
	}
	for _, path := range []string{"t.parquet.gz", "t.swf", "t.gz", "csv"} {
		if got, ok := EncodingOf(path); ok {
			t.Errorf("%s: %+v, want none", path, got)
		}
	}
}

// A gzipped text trace starts with its calendar line and reads back.
func TestWriteTraceGzipCalendar(t *testing.T) {
	var buf bytes.Buffer
	meta := &Embedded{TimeZone: "Europe/Stockholm"}
	jobs := []*sim.Job{{ID: "1", Submit: 0, Runtime: sim.Second, Tasks: 1, Walltime: sim.NoWalltime}}
	err := WriteTrace(&buf, Encoding{Format: "jsonl", Gzip: true}, Columns{}, meta, func(emit func(*sim.Job) error) error {
		for _, j := range jobs {
			if err := emit(j); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	want := "# schedsim.time_zone=Europe/Stockholm\n"
	if !bytes.HasPrefix(text, []byte(want)) || bytes.Count(text, []byte("\n")) != 2 {
		t.Errorf("trace:\n%s\nwant the line %q then one job", text, want)
	}
}
