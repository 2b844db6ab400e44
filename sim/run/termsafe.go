package run

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Escape makes s safe to print on a terminal: the control characters
// that ids, names and other text from a trace can carry (ESC starts the
// sequences that recolour, retitle or clear a terminal; CR overwrites a
// line; the bidirectional overrides reorder it) are written as Go escapes
// (\x1b, \r, \u202e), as are bytes that are not UTF-8. Newlines and tabs
// stay: messages use them.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports whether r is a control character a terminal acts on
// (C0 but newline and tab, DEL, C1) or a bidirectional control.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

// SafeWriter escapes (Escape) what is written through it: the writer for
// messages and summaries, never for data or a progress bar.
func SafeWriter(w io.Writer) io.Writer { return safeWriter{w} }

type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if !needsEscape(string(p)) {
		return s.w.Write(p)
	}
	if _, err := io.WriteString(s.w, Escape(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
