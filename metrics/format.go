package metrics

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// tableWriter encodes records of one schema into one file format. close
// writes the footer but leaves the underlying io.Writer open: the caller
// owns the file and must flush, sync and rename it.
type tableWriter interface {
	write(rec arrow.Record) error
	close() error
}

func newTableWriter(format string, schema *arrow.Schema, w io.WriteSeeker, mem memory.Allocator) (tableWriter, error) {
	switch format {
	case FormatParquet:
		return newParquetWriter(schema, w, mem)
	case FormatArrow:
		fw, err := ipc.NewFileWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err != nil {
			return nil, err
		}
		return ipcWriter{fw}, nil
	case FormatCSV:
		return newCSVWriter(schema, w)
	}
	return nil, fmt.Errorf("metrics: unknown format %q", format)
}

// newParquetWriter writes Parquet with the direct writer
// (parquetwriter.go) when it handles the schema's column types, and
// through the Arrow library otherwise; both write the same bytes.
func newParquetWriter(schema *arrow.Schema, w io.Writer, mem memory.Allocator) (tableWriter, error) {
	if cols, ok := directColumns(schema); ok && !libraryParquetOnly {
		return newDirectParquetWriter(schema, cols, w)
	}
	return newLibraryParquetWriter(schema, w, mem)
}

// libraryParquetOnly makes every Parquet file go through the library, for
// the tests that compare both writers' files.
var libraryParquetOnly = false

// parquetWriter writes one row group per record (64k rows), which keeps
// the writer's memory bounded while staying readable by pandas, polars and
// DuckDB. The properties are fixed so the bytes are too: the created_by
// string is the library's constant version, and nothing time- or
// host-dependent is written (there is no such field in the Parquet footer
// the library fills).
type parquetWriter struct{ fw *pqarrow.FileWriter }

func newLibraryParquetWriter(schema *arrow.Schema, w io.Writer, mem memory.Allocator) (tableWriter, error) {
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(rowsPerRecord),
		// No dictionaries: ids and node lists are unique, and for the
		// repetitive columns (user, state) Snappy gets most of the gain
		// (5% bigger jobs files) without a hash per value.
		parquet.WithDictionaryDefault(false),
		// The library marks the root REPEATED by default (a legacy of
		// parquet-cpp); some readers (hyparquet) then misread every
		// column. REQUIRED is what pyarrow writes.
		parquet.WithRootRepetition(parquet.Repetitions.Required),
	)
	fw, err := pqarrow.NewFileWriter(schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, err
	}
	return parquetWriter{fw}, nil
}

func (p parquetWriter) write(rec arrow.Record) error { return p.fw.Write(rec) }
func (p parquetWriter) close() error                 { return p.fw.Close() }

type ipcWriter struct{ fw *ipc.FileWriter }

func (p ipcWriter) write(rec arrow.Record) error { return p.fw.Write(rec) }
func (p ipcWriter) close() error                 { return p.fw.Close() }

// csvWriter prints records as RFC 4180 CSV with a header line. It formats
// values itself instead of going through encoding/csv's []string rows, so
// a row costs no allocation. Floats use strconv 'g' −1 (the shortest
// string that reads back to the same float64), integers are decimal, nulls
// are empty fields. Quoting is RFC 4180's, so encoding/csv, pandas and
// DuckDB read the files back.
type csvWriter struct {
	w   io.Writer
	buf []byte
}

func newCSVWriter(schema *arrow.Schema, w io.Writer) (*csvWriter, error) {
	c := &csvWriter{w: w}
	for i, f := range schema.Fields() {
		switch f.Type.ID() {
		case arrow.FLOAT64, arrow.INT64, arrow.STRING, arrow.BOOL:
		case arrow.TIMESTAMP:
			if ts := f.Type.(*arrow.TimestampType); ts.Unit != arrow.Microsecond || ts.TimeZone != "UTC" {
				return nil, fmt.Errorf("metrics: csv: column %s: only UTC microsecond timestamps are written, not %s", f.Name, f.Type)
			}
		default:
			return nil, fmt.Errorf("metrics: csv: column %s has unsupported type %s", f.Name, f.Type)
		}
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = appendCSVString(c.buf, f.Name)
	}
	c.buf = append(c.buf, '\n')
	return c, nil
}

func (c *csvWriter) write(rec arrow.Record) error {
	cols := rec.Columns()
	for row := 0; row < int(rec.NumRows()); row++ {
		for i, col := range cols {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			if col.IsNull(row) {
				continue
			}
			switch a := col.(type) {
			case *array.Float64:
				c.buf = appendFloat(c.buf, a.Value(row))
			case *array.Int64:
				c.buf = strconv.AppendInt(c.buf, a.Value(row), 10)
			case *array.String:
				c.buf = appendCSVString(c.buf, a.Value(row))
			case *array.Timestamp:
				c.buf = appendTimestamp(c.buf, int64(a.Value(row)))
			case *array.Boolean:
				c.buf = strconv.AppendBool(c.buf, a.Value(row))
			}
		}
		c.buf = append(c.buf, '\n')
		if len(c.buf) >= 64<<10 {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *csvWriter) flush() error {
	_, err := c.w.Write(c.buf)
	c.buf = c.buf[:0]
	return err
}

func (c *csvWriter) close() error { return c.flush() }

// appendFloat is the one float format of every CSV this package writes.
func appendFloat(dst []byte, f float64) []byte { return strconv.AppendFloat(dst, f, 'g', -1, 64) }

// appendTimestamp prints microseconds since the Unix epoch as RFC 3339 in
// UTC with the fewest fraction digits that keep it exact
// ("1996-09-23T12:00:31Z", "…:31.5Z"), which DuckDB, pandas and
// encoding/csv readers parse as a UTC instant.
func appendTimestamp(dst []byte, us int64) []byte {
	return time.UnixMicro(us).UTC().AppendFormat(dst, time.RFC3339Nano)
}

// appendCSVString quotes s when it holds a comma, a quote or a line break,
// or starts with a space or a tab (which some readers would trim).
func appendCSVString(dst []byte, s string) []byte {
	quote := len(s) > 0 && (s[0] == ' ' || s[0] == '\t')
	for i := 0; i < len(s) && !quote; i++ {
		switch s[i] {
		case ',', '"', '\n', '\r':
			quote = true
		}
	}
	if !quote {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}
