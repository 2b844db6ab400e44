package metrics

import "slices"

// floatLog is an append-only list of float64s (per-job waits and start
// errors, kept so their quantiles are exact) held in chunks that are never
// copied: a slice grown by append copies itself each time it outgrows its
// array, some five times its final size in all for large slices, and every
// copy lands in fresh memory the kernel must fault in. That cost a twentieth
// of a CEA-Curie replay. The chunks double up to maxFloatChunk values.
type floatLog struct {
	full [][]float64 // filled chunks
	cur  []float64   // the chunk being filled
	n    int
}

// maxFloatChunk is the largest chunk: 512 KB.
const maxFloatChunk = 64 << 10

func (l *floatLog) add(v float64) {
	if len(l.cur) == cap(l.cur) {
		if l.cur != nil {
			l.full = append(l.full, l.cur)
		}
		l.cur = make([]float64, 0, min(max(l.n, 16), maxFloatChunk))
	}
	l.cur = append(l.cur, v)
	l.n++
}

func (l *floatLog) len() int { return l.n }

// sorted returns the values in ascending order, in a new slice.
func (l *floatLog) sorted() []float64 {
	s := make([]float64, 0, l.n)
	for _, c := range l.full {
		s = append(s, c...)
	}
	s = append(s, l.cur...)
	slices.Sort(s)
	return s
}
