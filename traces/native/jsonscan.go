package native

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner reads the JSON values of one line, left to right, as RFC 8259
// defines them. Like encoding/json it accepts invalid UTF-8 inside strings
// and replaces it (and lone surrogate escapes) with U+FFFD. Its messages
// follow encoding/json's wording.
type jsonScanner struct {
	b    []byte
	i    int
	text []byte // the last scalar: a string's decoded bytes, a number's text
	buf  []byte // decoded strings that needed unescaping
	kbuf []byte // the same for keys
}

// vkind is the kind of a value.
type vkind uint8

const (
	vObject vkind = iota + 1
	vArray
	vString
	vNumber
	vTrue
	vFalse
	vNull
)

var errEOL = errors.New("bad JSON: unexpected end of line")

func (s *jsonScanner) reset(b []byte) { s.b, s.i = b, 0 }

func (s *jsonScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// invalid reports the byte at the current position.
func (s *jsonScanner) invalid(context string) error {
	if s.i >= len(s.b) {
		return errEOL
	}
	return fmt.Errorf("bad JSON: invalid character %s %s", quoteChar(s.b[s.i]), context)
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= utf8.RuneSelf:
		return fmt.Sprintf(`'\x%02x'`, c)
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// value reads the start of the next value: an object's or array's opening
// bracket only, a scalar whole (its text is then in s.text).
func (s *jsonScanner) value() (vkind, error) {
	s.ws()
	if s.i >= len(s.b) {
		return 0, errEOL
	}
	switch c := s.b[s.i]; {
	case c == '{':
		s.i++
		return vObject, nil
	case c == '[':
		s.i++
		return vArray, nil
	case c == '"':
		t, err := s.str(&s.buf)
		s.text = t
		return vString, err
	case c == '-' || '0' <= c && c <= '9':
		return vNumber, s.number()
	case c == 't':
		return vTrue, s.literal("true")
	case c == 'f':
		return vFalse, s.literal("false")
	case c == 'n':
		return vNull, s.literal("null")
	}
	return 0, s.invalid("looking for beginning of value")
}

// next moves inside an object: before its first member it accepts only the
// closing brace or a member; after a member, a comma then a member, or the
// closing brace. It reports whether a member follows.
func (s *jsonScanner) next(first bool) (bool, error) {
	s.ws()
	if s.i >= len(s.b) {
		return false, errEOL
	}
	c := s.b[s.i]
	if c == '}' {
		s.i++
		return false, nil
	}
	if first {
		return true, nil
	}
	if c != ',' {
		return false, s.invalid("after object key:value pair")
	}
	s.i++
	return true, nil
}

// elem moves inside an array as next does inside an object: it reports
// whether an element follows.
func (s *jsonScanner) elem(first bool) (bool, error) {
	s.ws()
	if s.i >= len(s.b) {
		return false, errEOL
	}
	c := s.b[s.i]
	if c == ']' {
		s.i++
		return false, nil
	}
	if first {
		return true, nil
	}
	if c != ',' {
		return false, s.invalid("after array element")
	}
	s.i++
	return true, nil
}

// member moves to the next member of an object, as next does, and reads
// its key; more is false after the closing brace. The caller checks the
// key, then reads the colon after it.
func (s *jsonScanner) member(first bool) (key []byte, more bool, err error) {
	if more, err = s.next(first); !more || err != nil {
		return nil, false, err
	}
	key, err = s.key()
	return key, err == nil, err
}

// key reads a member's key; colon then reads the colon after it. (The
// key is checked in between, as encoding/json's Token API would.)
func (s *jsonScanner) key() ([]byte, error) {
	s.ws()
	if s.i >= len(s.b) {
		return nil, errEOL
	}
	if s.b[s.i] != '"' {
		return nil, s.invalid("looking for beginning of object key string")
	}
	return s.str(&s.kbuf)
}

// colon reads the colon between a key and its value.
func (s *jsonScanner) colon() error {
	s.ws()
	if s.i >= len(s.b) {
		return errEOL
	}
	if s.b[s.i] != ':' {
		return s.invalid("after object key")
	}
	s.i++
	return nil
}

// end checks the rest of the line after the record: only blanks, else
// errTrailing after a well-formed value, else a syntax error.
func (s *jsonScanner) end() error {
	s.ws()
	if s.i >= len(s.b) {
		return nil
	}
	if _, err := s.value(); err != nil {
		return err
	}
	return errTrailing
}

func (s *jsonScanner) digits() {
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
func (s *jsonScanner) number() error {
	start := s.i
	digit := func() bool { return s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' }
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case digit():
		s.digits()
	default:
		return s.invalid("in numeric literal")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !digit() {
			return s.invalid("after decimal point in numeric literal")
		}
		s.digits()
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !digit() {
			return s.invalid("in exponent of numeric literal")
		}
		s.digits()
	}
	s.text = s.b[start:s.i]
	return nil
}

func (s *jsonScanner) literal(word string) error {
	for j := 0; j < len(word); j++ {
		if s.i >= len(s.b) {
			return errEOL
		}
		if s.b[s.i] != word[j] {
			return s.invalid(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[j])))
		}
		s.i++
	}
	return nil
}

// str reads a string (at its opening quote) and returns its decoded bytes:
// a slice of the line when nothing needs decoding, else of *buf.
func (s *jsonScanner) str(buf *[]byte) ([]byte, error) {
	s.i++
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return s.b[start : s.i-1], nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		s.i++
	}
	out := append((*buf)[:0], s.b[start:s.i]...)
	defer func() { *buf = out[:0] }()
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return out, nil
		case c < 0x20:
			return nil, s.invalid("in string literal")
		case c == '\\':
			s.i++
			if s.i >= len(s.b) {
				return nil, errEOL
			}
			switch e := s.b[s.i]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := s.hex4(s.i + 1)
				if err != nil {
					return nil, err
				}
				s.i += 4 // at the last hex digit
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by a low one is one rune;
					// anything else is U+FFFD, and what follows is read on
					// its own.
					dec := utf8.RuneError
					if s.i+2 < len(s.b) && s.b[s.i+1] == '\\' && s.b[s.i+2] == 'u' {
						if r2, err := s.hex4(s.i + 3); err == nil {
							if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
								dec = d
								s.i += 6
							}
						}
					}
					r = dec
				}
				out = utf8.AppendRune(out, r)
			default:
				return nil, s.invalid("in string escape code")
			}
			s.i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s.b[s.i:s.i+size]...)
			}
			s.i += size
		}
	}
	return nil, errEOL
}

// hex4 reads the four hex digits of a \u escape starting at j.
func (s *jsonScanner) hex4(j int) (rune, error) {
	var r rune
	for k := range 4 {
		if j+k >= len(s.b) {
			return 0, errEOL
		}
		c := s.b[j+k]
		var v byte
		switch {
		case '0' <= c && c <= '9':
			v = c - '0'
		case 'a' <= c && c <= 'f':
			v = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			v = c - 'A' + 10
		default:
			save := s.i
			s.i = j + k
			err := s.invalid(`in \u hexadecimal character escape`)
			s.i = save
			return 0, err
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}
