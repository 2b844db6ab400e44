package pqcheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/apache/arrow/go/v17/parquet/compress"
)

// Parquet encodings, as the Thrift definition numbers them.
const (
	encPlainDictionary = 2
	encRLE             = 3
	encRLEDictionary   = 8
)

// levels are a column's maximum definition and repetition levels.
type levels struct{ def, rep int16 }

// streams checks that a data page's level streams, and its dictionary
// indices, hold as many entries as its header counts. The library reads
// a column by levels and values in a loop that stops only when they
// advance: a stream shorter than the header says made it loop for ever
// (and grow its memory) where a reader expects an error. data is the
// page body as stored.
func (c *chunkChecker) streams(h *pageHeader, data []byte) error {
	rep, def, values, err := c.split(h, data)
	if err != nil {
		return err
	}
	need := int64(h.numValues)
	if rep != nil {
		if n, _ := rleCount(rep, bits.Len16(uint16(c.lv.rep)), 0); n < need {
			return fmt.Errorf("repetition levels hold %d entries of the page's %d", n, need)
		}
	}
	present := need
	if c.lv.def > 0 {
		if def == nil {
			return nil // the values present are not known: the library reads what it can
		}
		n, atMax := rleCount(def, bits.Len16(uint16(c.lv.def)), uint64(c.lv.def))
		if n < need {
			return fmt.Errorf("definition levels hold %d entries of the page's %d", n, need)
		}
		present = atMax
	}
	if !isDictionary(h.encoding) {
		return nil
	}
	if len(values) == 0 {
		if present > 0 {
			return fmt.Errorf("no dictionary indices for the page's %d values", present)
		}
		return nil
	}
	width := int(values[0])
	if width > 32 {
		return fmt.Errorf("dictionary indices of %d bits", width)
	}
	if n, _ := rleCount(values[1:], width, 0); n < present {
		return fmt.Errorf("dictionary indices hold %d entries of the page's %d values", n, present)
	}
	return nil
}

// split cuts a data page into its RLE level streams (nil for a level
// the column does not have, and for bit-packed V1 levels, whose length
// the library checks) and its values, decompressed.
func (c *chunkChecker) split(h *pageHeader, data []byte) (rep, def, values []byte, err error) {
	if h.typ == pageDataV2 {
		if c.lv.rep > 0 {
			rep = data[:h.repBytes]
		}
		if c.lv.def > 0 {
			def = data[h.repBytes : h.repBytes+h.defBytes]
		}
		values = data[h.repBytes+h.defBytes:]
		if h.isCompressed && c.codec != compress.Codecs.Uncompressed {
			values, err = c.decompress(values, int(h.uncompressed-h.repBytes-h.defBytes))
		}
		return rep, def, values, err
	}
	if c.codec != compress.Codecs.Uncompressed {
		if data, err = c.decompress(data, int(h.uncompressed)); err != nil {
			return nil, nil, nil, err
		}
	}
	n := int64(h.numValues)
	if c.lv.rep > 0 {
		if rep, data, err = v1Levels(data, h.repEncoding, c.lv.rep, n, "repetition"); err != nil {
			return nil, nil, nil, err
		}
	}
	if c.lv.def > 0 {
		if def, data, err = v1Levels(data, h.defEncoding, c.lv.def, n, "definition"); err != nil {
			return nil, nil, nil, err
		}
	}
	return rep, def, data, nil
}

// needsStreams reports whether a page's streams are checked: a data page
// with levels or dictionary indices.
func (c *chunkChecker) needsStreams(h *pageHeader) bool {
	return (h.typ == pageData || h.typ == pageDataV2) && (c.lv.def > 0 || c.lv.rep > 0 || isDictionary(h.encoding))
}

func isDictionary(enc int32) bool { return enc == encRLEDictionary || enc == encPlainDictionary }

// v1Levels cuts a V1 page's level stream of the given encoding off data:
// RLE levels are prefixed by their length; bit-packed ones are n levels
// of the level's bit width, cut off but not returned (nil: the library
// checks their length).
func v1Levels(data []byte, enc int32, max int16, n int64, what string) (stream, rest []byte, err error) {
	if enc != encRLE {
		size := (n*int64(bits.Len16(uint16(max))) + 7) / 8
		if size > int64(len(data)) {
			return nil, nil, fmt.Errorf("%s levels of %d bytes in a page of %d", what, size, len(data))
		}
		return nil, data[size:], nil
	}
	if len(data) < 4 {
		return nil, nil, fmt.Errorf("%s levels without their length", what)
	}
	size := int64(binary.LittleEndian.Uint32(data))
	if size > int64(len(data)-4) {
		return nil, nil, fmt.Errorf("%s levels of %d bytes in a page of %d", what, size, len(data)-4)
	}
	return data[4 : 4+size], data[4+size:], nil
}

// rleCount counts the entries of an RLE/bit-packed hybrid stream of the
// given bit width, and how many of them equal max. A run cut short by the
// stream's end is not counted (a reader cannot rely on it).
func rleCount(data []byte, width int, max uint64) (n, atMax int64) {
	valueBytes := (width + 7) / 8
	for len(data) > 0 {
		head, k := binary.Uvarint(data)
		if k <= 0 {
			break
		}
		data = data[k:]
		runs := head >> 1
		if head&1 == 0 { // a value repeated runs times
			if valueBytes > len(data) || runs > 1<<40 {
				break
			}
			var v uint64
			for i := range valueBytes {
				v |= uint64(data[i]) << (8 * i)
			}
			data = data[valueBytes:]
			n += int64(runs)
			if v == max {
				atMax += int64(runs)
			}
			continue
		}
		// runs groups of 8 values, bit-packed
		if runs > uint64(len(data)) || runs*uint64(width) > uint64(len(data)) {
			break
		}
		size := int(runs) * width
		if max != 0 {
			atMax += countEqual(data[:size], width, max, int(runs)*8)
		}
		data = data[size:]
		n += int64(runs) * 8
	}
	return n, atMax
}

// countEqual counts the n values of width bits, packed from the least
// significant bit, that equal v.
func countEqual(packed []byte, width int, v uint64, n int) int64 {
	if width == 1 && v == 1 {
		var ones int
		for _, b := range packed {
			ones += bits.OnesCount8(b)
		}
		return int64(ones)
	}
	var count int64
	for i := range n {
		var x uint64
		for b := range width {
			bit := i*width + b
			x |= uint64(packed[bit/8]>>(bit%8)&1) << b
		}
		if x == v {
			count++
		}
	}
	return count
}

// decompress decodes a page's compressed bytes into the checker's
// scratch buffer; size is what the header says they decode to.
func (c *chunkChecker) decompress(src []byte, size int) (out []byte, err error) {
	// The library's codecs panic on data that does not decode.
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("%v", p)
		}
	}()
	if size < 0 {
		return nil, errors.New("negative uncompressed size")
	}
	codec, err := compress.GetCodec(c.codec)
	if err != nil {
		return nil, err
	}
	if cap(c.scratch) < size {
		c.scratch = make([]byte, size)
	}
	out = codec.Decode(c.scratch[:size], src)
	if len(out) != size {
		return nil, fmt.Errorf("page decompresses to %d bytes, its header says %d", len(out), size)
	}
	return out, nil
}
