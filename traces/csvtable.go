package traces

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
)

// CSVTable reads one headerless CSV table of a trace row by row (Alibaba's
// tables, Azure's vmtable), with the line of each row, and checks that
// every row has the table's width. It holds one row at a time.
type CSVTable struct {
	Name   string // file name in errors
	width  int    // columns the schema gives the table
	r      *CSVReader
	closer io.Closer
	offset int64 // input offset after the last bad row
}

// OpenCSVTable opens a table file, gzip-compressed or not (told by
// content).
func OpenCSVTable(path string, width int) (*CSVTable, error) {
	src, f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	t := NewCSVTable(src, path, width)
	t.closer = f
	return t, nil
}

// NewCSVTable reads a table from r; name is used in errors.
func NewCSVTable(r io.Reader, name string, width int) *CSVTable {
	cr := NewCSVReader(r)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	return &CSVTable{Name: name, width: width, r: cr, offset: -1}
}

// Next returns the next row and its line, or io.EOF after the last one.
// A malformed row (one the CSV reader cannot split, or of another width)
// is a *ParseError; a lenient reader (strict false) counts it in skips
// and reads on, unless the CSV reader cannot move past it. Other errors
// (I/O, a broken gzip stream, a row longer than MaxRecord) end the table.
// The row is valid until the next call.
func (t *CSVTable) Next(strict bool, skips *Skips) ([]string, int, error) {
	for {
		row, line, err := t.next()
		if err == nil || err == io.EOF {
			return row, line, err
		}
		var pe *ParseError
		if strict || !errors.As(err, &pe) || pe.Line == 0 || errors.Is(err, errStuck) {
			return nil, 0, err
		}
		skips.Add(pe)
	}
}

// next reads one row; its errors are those Next describes, none skipped.
func (t *CSVTable) next() ([]string, int, error) {
	row, err := t.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return nil, 0, &ParseError{File: t.Name, Err: err}
		}
		// Make sure the CSV reader moved, so a lenient caller never loops.
		off := t.r.InputOffset()
		if off == t.offset {
			return nil, 0, &ParseError{File: t.Name, Line: pe.Line, Err: fmt.Errorf("%w (%w)", pe.Err, errStuck)}
		}
		t.offset = off
		return nil, pe.Line, &ParseError{File: t.Name, Line: pe.Line, Err: pe.Err}
	}
	line, _ := t.r.FieldPos(0)
	if len(row) != t.width {
		return nil, line, &ParseError{File: t.Name, Line: line, Err: fmt.Errorf("want %d columns", t.width)}
	}
	return row, line, nil
}

// errStuck marks a CSV error the reader cannot move past.
var errStuck = errors.New("cannot read on")

// Close releases the file, if the table has one; it may be called again.
func (t *CSVTable) Close() error {
	if t == nil {
		return nil
	}
	return CloseOnce(&t.closer)
}
