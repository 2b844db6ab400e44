package pqcheck

import "fmt"

// Page types, as the Parquet Thrift definition numbers them.
const (
	pageData       = 0
	pageIndex      = 1
	pageDictionary = 2
	pageDataV2     = 3
)

// pageHeader is what Check needs of a Parquet PageHeader.
type pageHeader struct {
	typ          int32
	uncompressed int32
	compressed   int32
	crc          int32
	hasCRC       bool
	numValues    int32 // of the data or dictionary page header
	numNulls     int32 // V2
	numRows      int32 // V2
	defBytes     int32 // V2: definition levels' length
	repBytes     int32 // V2: repetition levels' length
	isCompressed bool  // V2 (default true)
	encoding     int32 // the values' encoding (data pages)
	defEncoding  int32 // V1: the levels' encodings
	repEncoding  int32
	sub          bool // the header of its type was present
}

// readPageHeader reads a PageHeader struct.
func readPageHeader(t *thriftReader) (*pageHeader, error) {
	h := &pageHeader{typ: -1, uncompressed: -1, compressed: -1, isCompressed: true}
	err := t.structFields(1, func(typ byte, id int16) (bool, error) {
		var err error
		switch {
		case id == 1 && typ == tI32:
			h.typ, err = t.i32()
		case id == 2 && typ == tI32:
			h.uncompressed, err = t.i32()
		case id == 3 && typ == tI32:
			h.compressed, err = t.i32()
		case id == 4 && typ == tI32:
			h.crc, err = t.i32()
			h.hasCRC = true
		case (id == 5 || id == 7 || id == 8) && typ == tStruct:
			h.sub = true
			err = t.structFields(2, func(typ byte, sid int16) (bool, error) { return h.subField(t, id, typ, sid) })
		default:
			return false, nil
		}
		return true, err
	})
	if err != nil {
		return nil, err
	}
	if h.typ < 0 || h.uncompressed < 0 || h.compressed < 0 {
		return nil, fmt.Errorf("page header without type or sizes, or with negative ones (type %d, %d bytes compressed, %d uncompressed)",
			h.typ, h.compressed, h.uncompressed)
	}
	return h, nil
}

// subField reads a field of the data (5), dictionary (7) or data V2 (8)
// page header.
func (h *pageHeader) subField(t *thriftReader, parent int16, typ byte, id int16) (bool, error) {
	var err error
	switch {
	case id == 1 && typ == tI32:
		h.numValues, err = t.i32()
	case parent == 5 && id == 2 && typ == tI32, parent == 8 && id == 4 && typ == tI32:
		h.encoding, err = t.i32()
	case parent == 5 && id == 3 && typ == tI32:
		h.defEncoding, err = t.i32()
	case parent == 5 && id == 4 && typ == tI32:
		h.repEncoding, err = t.i32()
	case parent == 8 && id == 2 && typ == tI32:
		h.numNulls, err = t.i32()
	case parent == 8 && id == 3 && typ == tI32:
		h.numRows, err = t.i32()
	case parent == 8 && id == 5 && typ == tI32:
		h.defBytes, err = t.i32()
	case parent == 8 && id == 6 && typ == tI32:
		h.repBytes, err = t.i32()
	case parent == 8 && id == 7 && (typ == tTrue || typ == tFalse):
		h.isCompressed = typ == tTrue
	default:
		return false, nil
	}
	return true, err
}
