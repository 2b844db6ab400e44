package native

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/schedsim/schedsim/traces"
)

// reqPrefix starts the name of a CSV column holding a requirement.
const reqPrefix = "req_"

// NewCSVReader reads CSV with a header row from r; name is the file name
// used in errors. The calendar line, when the file starts with one, is
// read at once (a bad one is the error of the first Next); the header is
// read by the first call to Next.
func NewCSVReader(r io.Reader, name string, opt traces.Options) *Reader {
	br := bufio.NewReaderSize(r, textBuffer)
	cal, lines, err := readCalendarLine(br, name)
	cr := traces.NewCSVReader(br)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	d := &csvDecoder{name: name, r: cr, offset: -1, skipped: lines}
	return &Reader{name: name, opt: opt, decode: d.next, epoch: cal.Epoch, zone: cal.TimeZone, err: err}
}

type csvDecoder struct {
	name   string
	r      *traces.CSVReader
	header bool    // the header has been read
	cols   []field // column → field, for non-request columns
	res    []string
	width  int
	offset int64       // input offset after the last bad row
	s      jsonScanner // reads the cells of structured trait fields
	cell   []byte
	// skipped is the lines before the CSV proper (the calendar line),
	// which the CSV reader's line numbers do not count.
	skipped int
	interner
}

// pos is the file line of cell i of the last row read.
func (d *csvDecoder) pos(i int) int {
	l, _ := d.r.FieldPos(i)
	return l + d.skipped
}

// column kinds beyond the schema's fields.
const (
	colRequest = fRequest // cols[i] == fRequest: res[i] names the resource
)

func (d *csvDecoder) fatal(line int, f string, err error) error {
	return fatalError{&traces.ParseError{File: d.name, Line: line, Field: f, Err: err}}
}

func (d *csvDecoder) readHeader() error {
	row, err := d.r.Read()
	if err == io.EOF {
		return d.fatal(1+d.skipped, "", errors.New("no header row"))
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return d.fatal(pe.Line+d.skipped, "", fmt.Errorf("header: %w", pe.Err))
		}
		return fmt.Errorf("%s: %w", d.name, err)
	}
	line := d.pos(0)
	d.width = len(row)
	d.cols = make([]field, len(row))
	d.res = make([]string, len(row))
	seen := map[string]bool{}
	for i, name := range row {
		if i == 0 {
			name = strings.TrimPrefix(name, string(bom))
		}
		name = strings.TrimSpace(name)
		res, isReq := strings.CutPrefix(name, reqPrefix)
		if isReq {
			res = strings.TrimSpace(res)
			name = reqPrefix + res
		}
		switch {
		case name == "":
			return d.fatal(line, "", fmt.Errorf("header: column %d has no name", i+1))
		case seen[name]:
			return d.fatal(line, name, errors.New("column given twice"))
		}
		seen[name] = true
		if isReq && res != "" {
			d.cols[i], d.res[i] = colRequest, res
			continue
		}
		f, ok := lookupField(name)
		if !ok || f == fRequest {
			return d.fatal(line, name, errors.New("unknown column"))
		}
		d.cols[i] = f
	}
	for _, f := range [...]field{fID, fSubmit, fRuntime} {
		if !seen[f.String()] {
			return d.fatal(line, f.String(), errors.New("required column missing"))
		}
	}
	d.header = true
	return nil
}

func (d *csvDecoder) next(rec *record) (int, error) {
	if !d.header {
		if err := d.readHeader(); err != nil {
			return 0, err
		}
	}
	row, err := d.r.Read()
	if err == io.EOF {
		return 0, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return 0, fmt.Errorf("%s: %w", d.name, err)
		}
		// A lenient reader skips the row and goes on; make sure the CSV
		// reader moved, so that it never skips forever.
		off := d.r.InputOffset()
		line := pe.Line + d.skipped
		if off == d.offset {
			return line, d.fatal(line, "", pe.Err)
		}
		d.offset = off
		return line, &traces.ParseError{File: d.name, Line: line, Err: pe.Err}
	}
	line := d.pos(0)
	if len(row) != d.width {
		return line, &traces.ParseError{File: d.name, Line: line,
			Err: fmt.Errorf("row has %d cells, the header has %d", len(row), d.width)}
	}
	for i, cell := range row {
		f := d.cols[i]
		if f.kind() != kString {
			cell = strings.TrimSpace(cell)
		}
		if cell == "" {
			continue // absent
		}
		var err error
		name := f.String()
		if f == colRequest {
			name = reqPrefix + d.res[i]
			err = rec.addRequest(d.res[i], cell)
		} else if f.structured() {
			err = d.trait(rec, f, cell)
			rec.seen[f] = true
		} else {
			err = rec.setText(f, cell)
			rec.seen[f] = true
		}
		if err != nil {
			l := d.pos(i)
			pe := &traces.ParseError{File: d.name, Line: l, Field: name, Err: err}
			if te, ok := err.(*traitError); ok {
				pe.Field, pe.Err = te.path, te.err
				if te.fatal {
					return l, fatalError{pe}
				}
			}
			return l, pe
		}
	}
	if f, err := rec.finish(); err != nil {
		return line, &traces.ParseError{File: d.name, Line: line, Field: f.String(), Err: err}
	}
	return line, nil
}

// trait reads a cell of compact JSON holding the structured field f. It
// returns a *traitError, or a JSON syntax error (named by the caller after
// the column).
func (d *csvDecoder) trait(rec *record, f field, cell string) error {
	d.cell = append(d.cell[:0], cell...)
	d.s.reset(d.cell)
	if err := rec.decodeTrait(&d.s, f, d.str); err != nil {
		return err
	}
	if err := d.s.end(); err != nil {
		if err == errTrailing {
			err = errTrailingCSV
		}
		return err
	}
	return nil
}
