package traces

import "fmt"

// ParseError is a bad record: where it is and what is wrong with it.
type ParseError struct {
	File  string
	Line  int    // 1-based; 0 when the format has no lines
	Field string // field name as the format documents it; "" for the whole record
	// Value is the field's text as read, shown in the message (but not
	// in the skip reason, which counts records by what is wrong); "" when
	// not kept.
	Value string
	Err   error
}

func (e *ParseError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field != "" && e.Value != "" {
		return fmt.Sprintf("%s: field %s = %q: %v", loc, e.Field, e.Value, e.Err)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: field %s: %v", loc, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %v", loc, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Options tune every reader.
type Options struct {
	// Strict stops at the first bad record with a *ParseError. Lenient mode
	// (the default) skips bad records and counts them.
	Strict bool
}

// Skips counts records a lenient reader dropped, by reason.
type Skips struct {
	Total    int
	ByReason map[string]int
	First    *ParseError // the first skipped record, for the message
}

// Add counts one skipped record.
func (s *Skips) Add(e *ParseError) {
	s.Total++
	if s.ByReason == nil {
		s.ByReason = map[string]int{}
	}
	s.ByReason[e.Err.Error()]++
	if s.First == nil {
		s.First = e
	}
}

// MergeSkips adds the skips of two tables (a trace read from several
// files).
func MergeSkips(a, b Skips) Skips {
	out := Skips{Total: a.Total + b.Total, First: a.First}
	if out.First == nil {
		out.First = b.First
	}
	for _, s := range []Skips{a, b} {
		for reason, n := range s.ByReason {
			if out.ByReason == nil {
				out.ByReason = map[string]int{}
			}
			out.ByReason[reason] += n
		}
	}
	return out
}
