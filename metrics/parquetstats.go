package metrics

import (
	"bytes"
	"encoding/binary"
	"math"
)

// maxStatBytes is the longest min or max a page header or column chunk
// carries (the library's default, 4096); a longer string is left out of
// the statistics, as the library does.
const maxStatBytes = 4096

// columnStats is the min, max and null count of one page or column chunk,
// kept the way the Arrow library keeps them so the encoded statistics are
// the same bytes:
//   - floats skip NaN; a min of zero is written as −0 and a max of zero as
//     +0; the min starts at the largest finite float64 and the max at its
//     negation, so a page of only +Inf has min math.MaxFloat64 (and of
//     only −Inf, max −math.MaxFloat64);
//   - strings compare as unsigned bytes; a nil string (see putBatch) is
//     no value for them;
//   - booleans order false before true;
//   - a page with no value (all null, or all NaN) has no min and max.
//
// Only one of the typed pairs is used, by the column's kind.
type columnStats struct {
	has        bool // min and max are known
	nulls      int64
	minF, maxF float64
	minI, maxI int64
	minS, maxS []byte // borrowed from the record being written
	minB, maxB bool
}

func (s *columnStats) reset() { *s = columnStats{} }

// addFloats folds non-null values into the statistics.
func (s *columnStats) addFloats(vals []float64) {
	lo, hi := math.MaxFloat64, -math.MaxFloat64
	seen := false
	for _, v := range vals {
		if v != v {
			continue
		}
		seen = true
		if !(lo < v) { // the library keeps the later of equal values (±0)
			lo = v
		}
		if hi < v {
			hi = v
		}
	}
	if seen {
		s.mergeFloats(lo, hi)
	}
}

func (s *columnStats) mergeFloats(lo, hi float64) {
	if lo == 0 {
		lo = math.Copysign(0, -1)
	}
	if hi == 0 {
		hi = 0
	}
	if !s.has {
		s.has, s.minF, s.maxF = true, lo, hi
		return
	}
	if !(s.minF < lo) {
		s.minF = lo
	}
	if s.maxF < hi {
		s.maxF = hi
	}
}

func (s *columnStats) addInts(vals []int64) {
	if len(vals) == 0 {
		return
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	s.mergeInts(lo, hi)
}

func (s *columnStats) mergeInts(lo, hi int64) {
	if !s.has {
		s.has, s.minI, s.maxI = true, lo, hi
		return
	}
	s.minI = min(s.minI, lo)
	s.maxI = max(s.maxI, hi)
}

func (s *columnStats) addString(v []byte) {
	if v == nil {
		return
	}
	if !s.has {
		s.has, s.minS, s.maxS = true, v, v
		return
	}
	if bytes.Equal(v, s.minS) || bytes.Equal(v, s.maxS) {
		// Repetitive columns (user, state, queue) mostly repeat a bound:
		// an equality test is cheaper than two orderings.
		return
	}
	if bytes.Compare(v, s.minS) < 0 {
		s.minS = v
	}
	if bytes.Compare(s.maxS, v) < 0 {
		s.maxS = v
	}
}

func (s *columnStats) addBool(v bool) {
	if !s.has {
		s.has, s.minB, s.maxB = true, v, v
		return
	}
	s.minB = s.minB && v
	s.maxB = s.maxB || v
}

// merge folds a page's statistics into its column chunk's.
func (s *columnStats) merge(p *columnStats, kind columnKind) {
	s.nulls += p.nulls
	if !p.has {
		return
	}
	switch kind {
	case kindFloat64:
		s.mergeFloats(p.minF, p.maxF)
	case kindInt64, kindTimestamp:
		s.mergeInts(p.minI, p.maxI)
	case kindString:
		s.addString(p.minS)
		s.addString(p.maxS)
	case kindBool:
		s.addBool(p.minB)
		s.addBool(p.maxB)
	}
}

// write appends the statistics as a Thrift Statistics struct in field id
// (the caller has opened the field). Signed sort orders (numbers,
// booleans) also fill the deprecated min and max fields; strings only
// min_value and max_value. The library writes a distinct count of 0 in a
// column chunk's statistics and in its first page's, and none after.
func (s *columnStats) write(t *thriftWriter, kind columnKind, distinctCount bool) {
	var minBuf, maxBuf [8]byte
	var lo, hi []byte
	if s.has {
		switch kind {
		case kindFloat64:
			binary.LittleEndian.PutUint64(minBuf[:], math.Float64bits(s.minF))
			binary.LittleEndian.PutUint64(maxBuf[:], math.Float64bits(s.maxF))
			lo, hi = minBuf[:], maxBuf[:]
		case kindInt64, kindTimestamp:
			binary.LittleEndian.PutUint64(minBuf[:], uint64(s.minI))
			binary.LittleEndian.PutUint64(maxBuf[:], uint64(s.maxI))
			lo, hi = minBuf[:], maxBuf[:]
		case kindBool:
			if s.minB {
				minBuf[0] = 1
			}
			if s.maxB {
				maxBuf[0] = 1
			}
			lo, hi = minBuf[:1], maxBuf[:1]
		case kindString:
			lo, hi = s.minS, s.maxS
		}
	}
	hasMin := s.has && len(lo) <= maxStatBytes
	hasMax := s.has && len(hi) <= maxStatBytes
	signed := kind != kindString
	if hasMax && signed {
		t.binary(1, hi)
	}
	if hasMin && signed {
		t.binary(2, lo)
	}
	t.i64(3, s.nulls)
	if distinctCount {
		t.i64(4, 0)
	}
	if hasMax {
		t.binary(5, hi)
	}
	if hasMin {
		t.binary(6, lo)
	}
	t.endStruct()
}
