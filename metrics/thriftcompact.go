package metrics

import "encoding/binary"

// Thrift compact protocol type codes, as a field header or list header
// carries them.
const (
	thriftTrue   = 1 // a bool field's value lives in its header
	thriftFalse  = 2
	thriftByte   = 3
	thriftI16    = 4
	thriftI32    = 5
	thriftI64    = 6
	thriftBinary = 8
	thriftList   = 9
	thriftStruct = 12
)

// thriftWriter appends Thrift compact protocol encodings to a byte slice:
// the Parquet page headers, column chunk metadata and footer. The Parquet
// writer (parquetwriter.go) writes only a handful of structs, so a
// writer of fields by hand is smaller and far cheaper than generated code
// and reflection-free serializers: a page header costs a few appends.
//
// Fields are written in ascending id order inside a struct; the header
// carries the id as a delta from the previous field's when it is 1–15
// (always, in the structs written here), else in the long form: the type,
// then the id as a zigzag varint.
type thriftWriter struct {
	buf    []byte
	last   int16   // id of the previous field in the current struct
	parent []int16 // last of each enclosing struct
}

func (t *thriftWriter) reset() {
	t.buf = t.buf[:0]
	t.last = 0
	t.parent = t.parent[:0]
}

func (t *thriftWriter) fieldHeader(id int16, typ byte) {
	if d := id - t.last; d > 0 && d <= 15 {
		t.buf = append(t.buf, byte(d)<<4|typ)
	} else {
		t.buf = append(t.buf, typ)
		t.buf = binary.AppendUvarint(t.buf, zigzag(int64(id)))
	}
	t.last = id
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func (t *thriftWriter) i32(id int16, v int32) {
	t.fieldHeader(id, thriftI32)
	t.buf = binary.AppendUvarint(t.buf, zigzag(int64(v)))
}

func (t *thriftWriter) byteField(id int16, v int8) {
	t.fieldHeader(id, thriftByte)
	t.buf = append(t.buf, byte(v))
}

func (t *thriftWriter) i16(id int16, v int16) {
	t.fieldHeader(id, thriftI16)
	t.buf = binary.AppendUvarint(t.buf, zigzag(int64(v)))
}

func (t *thriftWriter) i64(id int16, v int64) {
	t.fieldHeader(id, thriftI64)
	t.buf = binary.AppendUvarint(t.buf, zigzag(v))
}

func (t *thriftWriter) boolean(id int16, v bool) {
	if v {
		t.fieldHeader(id, thriftTrue)
	} else {
		t.fieldHeader(id, thriftFalse)
	}
}

func (t *thriftWriter) binary(id int16, v []byte) {
	t.fieldHeader(id, thriftBinary)
	t.appendBinary(v)
}

func (t *thriftWriter) str(id int16, v string) {
	t.fieldHeader(id, thriftBinary)
	t.buf = binary.AppendUvarint(t.buf, uint64(len(v)))
	t.buf = append(t.buf, v...)
}

func (t *thriftWriter) appendBinary(v []byte) {
	t.buf = binary.AppendUvarint(t.buf, uint64(len(v)))
	t.buf = append(t.buf, v...)
}

// structField opens a struct-valued field; endStruct closes it.
func (t *thriftWriter) structField(id int16) {
	t.fieldHeader(id, thriftStruct)
	t.beginStruct()
}

// beginStruct opens a struct that is not a field: the top-level one, or
// a list element.
func (t *thriftWriter) beginStruct() {
	t.parent = append(t.parent, t.last)
	t.last = 0
}

func (t *thriftWriter) endStruct() {
	t.buf = append(t.buf, 0) // stop
	t.last = t.parent[len(t.parent)-1]
	t.parent = t.parent[:len(t.parent)-1]
}

// listField starts a list field of n elements of type elem; the caller
// appends the elements.
func (t *thriftWriter) listField(id int16, elem byte, n int) {
	t.fieldHeader(id, thriftList)
	if n < 15 {
		t.buf = append(t.buf, byte(n)<<4|elem)
	} else {
		t.buf = append(t.buf, 0xf0|elem)
		t.buf = binary.AppendUvarint(t.buf, uint64(n))
	}
}

func (t *thriftWriter) i32Elem(v int32) { t.buf = binary.AppendUvarint(t.buf, zigzag(int64(v))) }
