package strictyaml

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong in a file: at Line (1-based; 0 when the
// file as a whole is wrong), the key Path ("lattice.half_life_s",
// "traces[1].path"; "" for the document), what is wrong.
type Problem struct {
	File string
	Line int
	Path string
	Msg  string
}

// Error reads "file:line: path: what".
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems are a file's problems; as an error, one a line in line order.
type Problems []Problem

// Error lists the problems one a line.
func (ps Problems) Error() string {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}

// Err is nil without problems, else the problems sorted by file and line
// (files in the order they came, a file's problems without a line
// first, ties in the order found).
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	sorted := slices.Clone(ps)
	order := map[string]int{}
	for _, p := range sorted {
		if _, ok := order[p.File]; !ok {
			order[p.File] = len(order)
		}
	}
	slices.SortStableFunc(sorted, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(order[a.File], order[b.File]), cmp.Compare(a.Line, b.Line))
	})
	return sorted
}
