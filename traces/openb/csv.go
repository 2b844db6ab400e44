package openb

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/traces"
)

// table is a CSV file read by header name.
type table struct {
	file string
	cr   *traces.CSVReader
	col  map[string]int
	row  []string
	line int
}

func newTable(file string, r io.Reader, required []string) (*table, error) {
	cr := traces.NewCSVReader(r)
	cr.FieldsPerRecord = -1 // checked per record, with a better message
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, &traces.ParseError{File: file, Line: 1, Err: errors.New("empty file: no header")}
	}
	if err != nil {
		return nil, traces.CSVError(file, err)
	}
	t := &table{file: file, cr: cr, col: map[string]int{}, line: 1}
	for i, h := range head {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if _, dup := t.col[h]; dup {
			return nil, &traces.ParseError{File: file, Line: 1, Field: h, Err: errors.New("column listed twice")}
		}
		t.col[h] = i
	}
	for _, name := range required {
		if _, ok := t.col[name]; !ok {
			return nil, &traces.ParseError{File: file, Line: 1, Field: name, Err: errors.New("required column missing from the header")}
		}
	}
	return t, nil
}

// next reads a record; io.EOF at the end.
func (t *table) next() error {
	row, err := t.cr.Read()
	if err != nil && err != io.EOF {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			t.line = pe.Line
		}
		return traces.CSVError(t.file, err)
	}
	if err == io.EOF {
		return io.EOF
	}
	t.line, _ = t.cr.FieldPos(0)
	t.row = row
	return nil
}

// str returns column name of the current record ("" when the file lacks it
// or the record is short).
func (t *table) str(name string) string {
	i, ok := t.col[name]
	if !ok || i >= len(t.row) {
		return ""
	}
	return strings.TrimSpace(t.row[i])
}

func (t *table) fail(field string, err error) *traces.ParseError {
	return &traces.ParseError{File: t.file, Line: t.line, Field: field, Err: err}
}

// int reads a required integer in [lo, hi].
func (t *table) int(name string, lo, hi int64) (int64, *traces.ParseError) {
	s := t.str(name)
	if s == "" {
		return 0, t.fail(name, errors.New("empty"))
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, t.fail(name, fmt.Errorf("not an integer: %q", s))
	}
	if v < lo || v > hi {
		return 0, t.fail(name, fmt.Errorf("%d out of range [%d, %d]", v, lo, hi))
	}
	return v, nil
}

// optTime reads an optional time in seconds; Unknown when empty.
func (t *table) optTime(name string) (int64, *traces.ParseError) {
	if t.str(name) == "" {
		return Unknown, nil
	}
	return t.int(name, 0, maxSeconds)
}

// maxSeconds bounds times: about 31,700 years, far beyond any trace and
// safe to turn into microseconds.
const maxSeconds = 1e12

// open reads a whole file by path.
func open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// collect runs parse over each record, handling strict and lenient modes.
func collect(t *table, opt traces.Options, parse func() *traces.ParseError) (traces.Skips, error) {
	var skips traces.Skips
	for {
		err := t.next()
		if err == io.EOF {
			return skips, nil
		}
		if err != nil {
			return skips, err // a broken CSV stream cannot be resynchronised
		}
		if len(t.row) == 1 && strings.TrimSpace(t.row[0]) == "" {
			continue
		}
		if pe := parse(); pe != nil {
			if opt.Strict {
				return skips, pe
			}
			skips.Add(pe)
		}
	}
}
