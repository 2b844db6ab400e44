package native

import (
	"compress/gzip"
	"io"
	"path/filepath"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Encoding is how a native trace file is written.
type Encoding struct {
	Format string // "parquet", "jsonl" or "csv"
	Gzip   bool   // jsonl and csv only
}

// EncodingOf is the encoding a trace file's name asks for: .parquet,
// .jsonl or .ndjson, .csv, the last three optionally gzipped (.gz), in any
// case; false for any other name.
func EncodingOf(path string) (Encoding, bool) {
	name := strings.ToLower(filepath.Base(path))
	gz := strings.HasSuffix(name, ".gz")
	name = strings.TrimSuffix(name, ".gz")
	switch ext := filepath.Ext(name); {
	case ext == ".parquet" && !gz:
		return Encoding{Format: "parquet"}, true
	case ext == ".jsonl", ext == ".ndjson":
		return Encoding{Format: "jsonl", Gzip: gz}, true
	case ext == ".csv":
		return Encoding{Format: "csv", Gzip: gz}, true
	}
	return Encoding{}, false
}

// WriteTrace writes a trace to w in encoding e: every job that each hands
// to emit, in order. cols are the columns of the jobs (Parquet and CSV
// declare them before the first row; JSON Lines needs none). A Parquet
// file carries meta in its metadata; a text file carries meta's epoch and
// time zone in its first line (none when both are unknown). A gzip
// header holds no name and no time, so the same trace gives the same
// bytes.
func WriteTrace(w io.Writer, e Encoding, cols Columns, meta *Embedded, each func(emit func(*sim.Job) error) error) error {
	var z *gzip.Writer
	if e.Gzip {
		z = gzip.NewWriter(w)
		w = z
	}
	if e.Format != "parquet" {
		var epochLine []byte
		var err error
		if meta != nil {
			epochLine, err = AppendCalendarLine(nil, meta.Epoch, meta.TimeZone)
		}
		if err != nil {
			return err
		}
		if _, err := w.Write(epochLine); err != nil {
			return err
		}
	}
	var emit func(*sim.Job) error
	var finish func() error
	switch e.Format {
	case "parquet":
		pw, err := NewParquetWriter(w, cols, meta)
		if err != nil {
			return err
		}
		emit, finish = pw.Write, pw.Close
	case "csv":
		cw, err := NewCSVWriter(w, cols)
		if err != nil {
			return err
		}
		emit, finish = cw.Write, cw.Flush
	default:
		var buf []byte
		emit = func(j *sim.Job) (err error) {
			if buf, err = AppendJSONL(buf[:0], j); err == nil {
				_, err = w.Write(buf)
			}
			return err
		}
		finish = func() error { return nil }
	}
	if err := each(emit); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	if z != nil {
		return z.Close()
	}
	return nil
}
