package google

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// This file merges the part files of one or more tables into one stream in
// time order. The published guarantee is per file: each part file is in
// time order, and the parts of a table cover successive, possibly
// overlapping spans. So the merge is a k-way merge by (time, table rank,
// part, line) over the parts open at once, and a part is opened only when
// the merge reaches its first timestamp (read once beforehand): it holds
// one record per open part, however long the trace. A record whose time
// goes back within its part file is a bad record.

// table says how to read one table's lines.
type table[T any] struct {
	name      string // for messages
	rank      uint8  // order of tables at equal times
	timeField string // the time field's name in messages
	parse     func(line []byte) (T, sim.Time, *fieldError)
}

// part is one part file of a table, with its first record's time.
type part[T any] struct {
	path  string
	t     *table[T]
	order int // position in the list: ties between parts go to the lower
	first sim.Time
}

type cursor[T any] struct {
	p    *part[T]
	lr   *lineReader
	rec  T
	at   sim.Time
	line int
}

// merger yields the records of its parts in time order.
type merger[T any] struct {
	opt     traces.Options
	skips   *traces.Skips // where lenient skips are counted
	waiting []*part[T]    // not yet opened, by (first, order)
	open    cursorHeap[T]
	err     error
}

// newMerger reads the first record of every part (to know when to open
// it) and returns a merger over them. Parts are given table by table, each
// table's in name order.
func newMerger[T any](opt traces.Options, skips *traces.Skips, tables []*table[T], paths [][]string) (*merger[T], error) {
	m := &merger[T]{opt: opt, skips: skips}
	order := 0
	for i, t := range tables {
		for _, path := range paths[i] {
			p := &part[T]{path: path, t: t, order: order}
			order++
			var peekSkips traces.Skips // counted when the part is read for good
			c, err := m.openPart(p, &peekSkips)
			if err != nil {
				return nil, err
			}
			switch {
			case c != nil:
				p.first = c.at
				c.lr.close()
			case peekSkips.Total == 0:
				continue // no records at all
			}
			// A part of bad records only is still read (first 0), so that
			// its skips are counted.
			m.waiting = append(m.waiting, p)
		}
	}
	sort.SliceStable(m.waiting, func(i, j int) bool { return m.waiting[i].first < m.waiting[j].first })
	return m, nil
}

// openPart opens p and reads its first good record; nil when it has none.
// Skips are counted in skips.
func (m *merger[T]) openPart(p *part[T], skips *traces.Skips) (*cursor[T], error) {
	lr, err := openLines(p.path)
	if err != nil {
		return nil, err
	}
	c := &cursor[T]{p: p, lr: lr, at: -1}
	ok, err := m.advance(c, skips)
	if err != nil || !ok {
		lr.close()
		return nil, err
	}
	return c, nil
}

// advance reads c's next good record; false at the end of the file.
func (m *merger[T]) advance(c *cursor[T], skips *traces.Skips) (bool, error) {
	for {
		line, err := c.lr.next()
		if err == io.EOF {
			return false, nil
		}
		var pe *traces.ParseError
		if errors.As(err, &pe) {
			return false, err // a line too long: the rest of the file cannot be framed
		}
		if err != nil {
			return false, err
		}
		rec, at, ferr := c.p.t.parse(line)
		if ferr == nil && at < c.at {
			ferr = badField(c.p.t.timeField, "time %d goes back (the previous record is at %d): each part file must be in time order", at, c.at)
		}
		if ferr != nil {
			pe := &traces.ParseError{File: c.lr.path, Line: c.lr.line, Field: ferr.field, Err: ferr.err}
			if m.opt.Strict {
				return false, pe
			}
			skips.Add(pe)
			continue
		}
		c.rec, c.at, c.line = rec, at, c.lr.line
		return true, nil
	}
}

// next returns the next record in time order, or io.EOF.
func (m *merger[T]) next() (T, error) {
	var zero T
	if m.err != nil {
		return zero, m.err
	}
	// Open every part that may hold a record at or before the earliest
	// open one: its first record may come first.
	for len(m.waiting) > 0 && (len(m.open) == 0 || m.waiting[0].first <= m.open[0].at) {
		p := m.waiting[0]
		m.waiting = m.waiting[1:]
		c, err := m.openPart(p, m.skips)
		if err != nil {
			m.err = err
			return zero, err
		}
		if c != nil {
			heap.Push(&m.open, c)
		}
	}
	if len(m.open) == 0 {
		m.err = io.EOF
		return zero, io.EOF
	}
	c := m.open[0]
	rec := c.rec
	ok, err := m.advance(c, m.skips)
	switch {
	case err != nil:
		m.err = err
		return zero, err
	case ok:
		heap.Fix(&m.open, 0)
	default:
		c.lr.close()
		heap.Pop(&m.open)
	}
	return rec, nil
}

// close closes the open part files.
func (m *merger[T]) close() {
	for _, c := range m.open {
		c.lr.close()
	}
	m.open = nil
	if m.err == nil {
		m.err = fmt.Errorf("merger closed")
	}
}

// cursorHeap orders open parts by (time, table rank, part order).
type cursorHeap[T any] []*cursor[T]

func (h cursorHeap[T]) Len() int { return len(h) }
func (h cursorHeap[T]) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.p.t.rank != b.p.t.rank {
		return a.p.t.rank < b.p.t.rank
	}
	return a.p.order < b.p.order
}
func (h cursorHeap[T]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap[T]) Push(x any)   { *h = append(*h, x.(*cursor[T])) }
func (h *cursorHeap[T]) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
