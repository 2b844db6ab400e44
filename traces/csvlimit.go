package traces

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
)

// MaxRecord is the longest record a reader accepts, in bytes: a CSV row
// (its quoted newlines included) or a JSON line. encoding/csv has no
// limit of its own and holds a whole row in memory, so a 200 MB field
// would be read whole (and held several times over).
const MaxRecord = 16 << 20

// ErrRecordTooLong is the error of a record longer than MaxRecord.
var ErrRecordTooLong = errors.New("record too long")

// CSVReader is a csv.Reader whose rows may not pass MaxRecord bytes: once
// the row being read does, Read fails with ErrRecordTooLong and the byte
// offset where the row starts, instead of reading on; the error sticks.
// The csv.Reader's settings (FieldsPerRecord, ReuseRecord, Comment, …)
// are set on it as usual.
type CSVReader struct {
	*csv.Reader
	l *csvLimiter
}

// NewCSVReader reads CSV from r, a row at most MaxRecord bytes long.
func NewCSVReader(r io.Reader) *CSVReader {
	l := &csvLimiter{r: r}
	return &CSVReader{Reader: csv.NewReader(l), l: l}
}

// Read reads one row, as csv.Reader.Read does.
func (c *CSVReader) Read() ([]string, error) {
	if c.l.err != nil {
		return nil, c.l.err
	}
	start := c.InputOffset()
	c.l.start = start
	row, err := c.Reader.Read()
	if err == nil && c.InputOffset()-start > MaxRecord {
		c.l.err = tooLong(start) // read whole, since it ended within a read
		return nil, c.l.err
	}
	return row, err
}

// ReadAll reads the remaining rows, as csv.Reader.ReadAll does.
func (c *CSVReader) ReadAll() ([][]string, error) {
	var out [][]string
	for {
		row, err := c.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if c.ReuseRecord {
			row = append([]string(nil), row...)
		}
		out = append(out, row)
	}
}

// CSVError is the ParseError of an error Read returned, in file: at the
// line encoding/csv names, when it is one of its syntax errors.
func CSVError(file string, err error) *ParseError {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: file, Line: pe.Line, Err: pe.Err}
	}
	return &ParseError{File: file, Err: err}
}

func tooLong(start int64) error {
	return fmt.Errorf("%w: the CSV row starting at byte %d is longer than %d bytes", ErrRecordTooLong, start, MaxRecord)
}

// csvLimiter feeds a csv.Reader and fails once it has fed more than
// MaxRecord bytes (plus what the reader may have buffered) past the start
// of the row being read.
type csvLimiter struct {
	r     io.Reader
	start int64 // offset of the row being read
	fed   int64
	err   error
}

// chunk bounds one read, so that the row is measured at least every 64 KiB.
const chunk = 64 << 10

func (l *csvLimiter) Read(p []byte) (int, error) {
	if l.err == nil && l.fed-l.start > MaxRecord {
		l.err = tooLong(l.start)
	}
	if l.err != nil {
		return 0, l.err
	}
	if len(p) > chunk {
		p = p[:chunk]
	}
	n, err := l.r.Read(p)
	l.fed += int64(n)
	return n, err
}
