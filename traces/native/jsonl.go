package native

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/schedsim/schedsim/traces"
)

// maxLine is the longest JSON line the reader accepts, the same as a CSV
// row's.
const maxLine = traces.MaxRecord

// NewJSONLReader reads JSON Lines from r; name is the file name used in
// errors. It reads the calendar line, if the file starts with one, at
// once; a bad one is the error of the first Next.
func NewJSONLReader(r io.Reader, name string, opt traces.Options) *Reader {
	br := bufio.NewReaderSize(r, textBuffer)
	cal, lines, err := readCalendarLine(br, name)
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	d := &jsonlDecoder{name: name, sc: sc, line: lines}
	return &Reader{name: name, opt: opt, decode: d.next, epoch: cal.Epoch, zone: cal.TimeZone, err: err}
}

// textBuffer is the read buffer of the text encodings, which look at
// their first line for the calendar before the records are read.
const textBuffer = 64 << 10

// jsonlDecoder reads one line at a time and decodes it with a small JSON
// scanner of its own. The records are flat, so the scanner needs no tree:
// it reads the object left to right and applies each field as it goes,
// stopping at the first problem. encoding/json's Token API did the same job
// at about 140 allocations per record; this one makes a few (the id, and the
// request slice). Strings that repeat from job to job (user, queue, resource
// names…) are interned.
type jsonlDecoder struct {
	name string
	sc   *bufio.Scanner
	line int
	s    jsonScanner
	interner
}

var bom = []byte("\xef\xbb\xbf")

func (d *jsonlDecoder) next(rec *record) (int, error) {
	for d.sc.Scan() {
		d.line++
		text := d.sc.Bytes()
		if d.line == 1 { // not after a calendar line, which took the mark
			text = bytes.TrimPrefix(text, bom)
		}
		trimmed := bytes.TrimLeft(text, " \t\r")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		return d.line, d.record(rec, text)
	}
	if err := d.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return d.line + 1, fatalError{&traces.ParseError{File: d.name, Line: d.line + 1, Err: errLineTooLong}}
		}
		return d.line, fmt.Errorf("%s: %w", d.name, err)
	}
	return d.line, io.EOF
}

// bad makes the error for a bad value of field f on the current line.
func (d *jsonlDecoder) bad(f string, err error) error {
	return &traces.ParseError{File: d.name, Line: d.line, Field: f, Err: err}
}

// syntax makes the error for broken JSON.
func (d *jsonlDecoder) syntax(err error) error {
	return &traces.ParseError{File: d.name, Line: d.line, Err: err}
}

// maxIntern bounds the interned strings, so that a trace with endless
// distinct users cannot grow the table without end.
const maxIntern = 4096

// interner shares strings that repeat from record to record.
type interner struct{ m map[string]string }

// str returns b as a string, shared with earlier records when it repeats.
func (in *interner) str(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in.m) < maxIntern && len(s) <= 64 {
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[s] = s
	}
	return s
}

// record decodes one JSON object into rec.
func (d *jsonlDecoder) record(rec *record, line []byte) error {
	s := &d.s
	s.reset(line)
	k, err := s.value()
	if err != nil {
		return d.syntax(err)
	}
	if k != vObject {
		return d.bad("", errNotObject)
	}
	for first := true; ; first = false {
		key, more, err := s.member(first)
		if err != nil {
			return d.syntax(err)
		}
		if !more {
			break
		}
		f, ok := lookupField(string(key))
		if !ok {
			return fatalError{&traces.ParseError{File: d.name, Line: d.line, Field: string(key), Err: errUnknown}}
		}
		if rec.seen[f] {
			return d.bad(f.String(), errTwice)
		}
		if err := s.colon(); err != nil {
			return d.syntax(err)
		}
		if f == fRequest {
			if err := d.request(rec); err != nil {
				return err
			}
			rec.seen[f] = true
			continue
		}
		if f.structured() {
			if err := rec.decodeTrait(s, f, d.str); err != nil {
				return d.traitErr(err)
			}
			rec.seen[f] = true
			continue
		}
		k, err := s.value()
		if err != nil {
			return d.syntax(err)
		}
		var text string
		switch {
		case k == vNull:
			continue // absent
		case k == vString && f.kind() == kString:
			if f == fID {
				text = string(s.text)
			} else {
				text = d.str(s.text)
			}
		case k == vNumber && f.kind() == kNumber:
			text = string(s.text)
		case (k == vTrue || k == vFalse) && f.kind() == kBool:
			text = "false"
			if k == vTrue {
				text = "true"
			}
		default:
			return d.bad(f.String(), wantErr(f))
		}
		if err := rec.setText(f, text); err != nil {
			return d.bad(f.String(), err)
		}
		rec.seen[f] = true
	}
	if err := s.end(); err != nil {
		if err == errTrailing {
			return d.bad("", err)
		}
		return d.syntax(err)
	}
	if f, err := rec.finish(); err != nil {
		return d.bad(f.String(), err)
	}
	return nil
}

// request decodes the request object: resource name → number; null means
// absent.
func (d *jsonlDecoder) request(rec *record) error {
	s := &d.s
	k, err := s.value()
	switch {
	case err != nil:
		return d.syntax(err)
	case k == vNull:
		return nil
	case k != vObject:
		return d.bad("request", errWantObject)
	}
	for first := true; ; first = false {
		key, more, err := s.member(first)
		if err != nil {
			return d.syntax(err)
		}
		if !more {
			return nil
		}
		res := d.str(key)
		if err := s.colon(); err != nil {
			return d.syntax(err)
		}
		k, err := s.value()
		if err != nil {
			return d.syntax(err)
		}
		switch k {
		case vNull:
			continue
		case vNumber:
			if err := rec.addRequest(res, string(s.text)); err != nil {
				return d.bad("request."+res, err)
			}
		default:
			return d.bad("request."+res, errWantNumber)
		}
	}
}

// traitErr makes the error for a bad trait value (decodeTrait's error).
func (d *jsonlDecoder) traitErr(err error) error {
	te, ok := err.(*traitError)
	if !ok {
		return d.syntax(err)
	}
	pe := &traces.ParseError{File: d.name, Line: d.line, Field: te.path, Err: te.err}
	if te.fatal {
		return fatalError{pe}
	}
	return pe
}

func wantErr(f field) error {
	switch f.kind() {
	case kNumber:
		return errWantNumber
	case kBool:
		return errWantBool
	case kObject:
		return errWantObject
	case kStrings:
		return errWantStrings
	case kLabels:
		return errWantLabels
	case kList:
		return errWantList
	}
	return errWantString
}
