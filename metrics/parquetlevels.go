package metrics

import "encoding/binary"

// levelEncoder writes a nullable column's definition levels (1 for a
// value, 0 for a null) in Parquet's RLE/bit-packed hybrid encoding at bit
// width 1. The hybrid leaves the encoder free to choose between runs and
// bit-packed groups; to write the same bytes as the Arrow library it makes
// the same choices:
//   - values are taken 8 at a time; a value repeated 8 times or more
//     becomes a run (varint count<<1, then the value as one byte), ended
//     when the value changes or the page ends;
//   - anything else is bit-packed, 8 values a byte, under an indicator
//     byte ((groups<<1)|1) that is patched once the literal run ends or
//     reaches 63 groups;
//   - at the end of a page a partial group is padded with zeros into a
//     literal group, unless all of it belongs to a run.
type levelEncoder struct {
	out       []byte
	group     [8]byte // values of the group under way
	n         int     // values in group
	cur       byte    // value being repeated
	reps      int     // times cur was seen in a row
	literals  int     // values in the literal run under way
	indicator int     // index in out of its indicator byte, or -1
}

func (e *levelEncoder) reset() {
	e.out = e.out[:0]
	e.n, e.cur, e.reps, e.literals, e.indicator = 0, 0, 0, 0, -1
}

func (e *levelEncoder) put(v byte) {
	if v == e.cur {
		e.reps++
		if e.reps > 8 {
			return // the run goes on; it is written when it ends
		}
	} else {
		if e.reps >= 8 {
			e.writeRun()
		}
		e.reps = 1
		e.cur = v
	}
	e.group[e.n] = v
	e.n++
	if e.n == 8 {
		e.endGroup()
	}
}

// putOnes adds n ones: a column without nulls in this stretch.
func (e *levelEncoder) putOnes(n int) {
	for ; n > 0 && (e.cur != 1 || e.reps < 8); n-- {
		e.put(1)
	}
	e.reps += n // inside a run of ones: only the count grows
}

func (e *levelEncoder) endGroup() {
	if e.reps >= 8 {
		e.n = 0 // the group is part of a run
		if e.literals != 0 {
			e.writeLiterals(true)
		}
		return
	}
	e.literals += e.n
	e.writeLiterals(e.literals/8+1 >= 1<<6)
	e.reps = 0
}

func (e *levelEncoder) writeLiterals(close bool) {
	if e.indicator < 0 {
		e.indicator = len(e.out)
		e.out = append(e.out, 0)
	}
	if e.n > 0 {
		var b byte
		for i, v := range e.group[:e.n] {
			b |= v << i
		}
		e.out = append(e.out, b)
		e.n = 0
	}
	if close {
		e.out[e.indicator] = byte(e.literals/8)<<1 | 1
		e.indicator = -1
		e.literals = 0
	}
}

func (e *levelEncoder) writeRun() {
	e.out = binary.AppendUvarint(e.out, uint64(e.reps)<<1)
	e.out = append(e.out, e.cur)
	e.reps = 0
	e.n = 0
}

// finish ends the page's levels and returns them.
func (e *levelEncoder) finish() []byte {
	if e.literals > 0 || e.reps > 0 || e.n > 0 {
		allRun := e.literals == 0 && (e.reps == e.n || e.n == 0)
		if e.reps > 0 && allRun {
			e.writeRun()
		} else {
			for e.n != 0 && e.n < 8 {
				e.group[e.n] = 0
				e.n++
			}
			e.literals += e.n
			e.writeLiterals(true)
			e.reps = 0
		}
	}
	return e.out
}
