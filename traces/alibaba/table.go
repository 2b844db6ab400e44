package alibaba

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/schedsim/schedsim/traces"
)

// table reads one headerless CSV table of the trace row by row, with the
// line of each row. It holds one row at a time.
type table struct {
	name   string // file name in errors
	width  int    // columns the schema gives the table
	r      *traces.CSVReader
	closer io.Closer
	offset int64 // input offset after the last bad row
}

// openTable opens a table file, gzip-compressed or not (told by content).
func openTable(path string, width int) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	src, err := traces.Decompressed(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	t := newTable(src, path, width)
	t.closer = f
	return t, nil
}

// newTable reads a table from r; name is used in errors.
func newTable(r io.Reader, name string, width int) *table {
	cr := traces.NewCSVReader(r)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	return &table{name: name, width: width, r: cr, offset: -1}
}

// next returns the next row and its line, io.EOF after the last one, or a
// *traces.ParseError for a malformed row, which a lenient caller may skip:
// the next call reads on. Other errors (I/O, a broken gzip stream) end the
// table. The row is valid until the next call.
func (t *table) next() ([]string, int, error) {
	row, err := t.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return nil, 0, &traces.ParseError{File: t.name, Err: err}
		}
		// Make sure the CSV reader moved, so a lenient caller never loops.
		off := t.r.InputOffset()
		if off == t.offset {
			return nil, 0, &traces.ParseError{File: t.name, Line: pe.Line, Err: fmt.Errorf("%w (%w)", pe.Err, errStuck)}
		}
		t.offset = off
		return nil, pe.Line, &traces.ParseError{File: t.name, Line: pe.Line, Err: pe.Err}
	}
	line, _ := t.r.FieldPos(0)
	if len(row) != t.width {
		return nil, line, &traces.ParseError{File: t.name, Line: line, Err: errColumns(t.width)}
	}
	return row, line, nil
}

// recoverable says whether a lenient reader may skip err and read on.
func recoverable(err error) bool {
	var pe *traces.ParseError
	return errors.As(err, &pe) && pe.Line > 0 && !errors.Is(err, errStuck)
}

// errStuck marks a CSV error the reader cannot move past.
var errStuck = errors.New("cannot read on")

func errColumns(want int) error { return fmt.Errorf("want %d columns", want) }

func (t *table) close() error {
	if t == nil || t.closer == nil {
		return nil
	}
	err := t.closer.Close()
	t.closer = nil
	return err
}
