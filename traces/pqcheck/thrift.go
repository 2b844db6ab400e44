package pqcheck

import (
	"bufio"
	"errors"
	"fmt"
)

// Thrift compact protocol type codes.
const (
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxDepth bounds the nesting of structs and lists a header may have; the
// page headers Parquet defines nest three deep.
const maxDepth = 16

var errHeaderTooLong = errors.New("page header longer than the limit")

// thriftReader reads the Thrift compact protocol from r, counting the
// bytes it consumed so that a header longer than limit is refused.
type thriftReader struct {
	r     *bufio.Reader
	n     int64 // bytes read
	limit int64
}

func (t *thriftReader) byte() (byte, error) {
	if t.n >= t.limit {
		return 0, errHeaderTooLong
	}
	b, err := t.r.ReadByte()
	if err != nil {
		return 0, err
	}
	t.n++
	return b, nil
}

func (t *thriftReader) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b, err := t.byte()
		if err != nil {
			return 0, err
		}
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("varint longer than 64 bits")
}

func (t *thriftReader) varint() (int64, error) {
	u, err := t.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// i32 reads a zigzag varint that must fit 32 bits.
func (t *thriftReader) i32() (int32, error) {
	v, err := t.varint()
	if err == nil && int64(int32(v)) != v {
		err = fmt.Errorf("value %d out of the 32-bit range", v)
	}
	return int32(v), err
}

// fieldHeader reads a field header: its type and id (stop is type 0).
func (t *thriftReader) fieldHeader(last int16) (typ byte, id int16, err error) {
	b, err := t.byte()
	if err != nil || b == 0 {
		return 0, 0, err
	}
	typ = b & 0x0f
	if d := int16(b >> 4); d != 0 {
		return typ, last + d, nil
	}
	v, err := t.varint()
	if err == nil && int64(int16(v)) != v {
		err = fmt.Errorf("field id %d out of range", v)
	}
	return typ, int16(v), err
}

// skip skips a value of type typ.
func (t *thriftReader) skip(typ byte, depth int) error {
	if depth > maxDepth {
		return errors.New("values nested too deep")
	}
	switch typ {
	case tTrue, tFalse:
		return nil // the value was in the field header
	case tByte:
		_, err := t.byte()
		return err
	case tI16, tI32, tI64:
		_, err := t.uvarint()
		return err
	case tDouble:
		for range 8 {
			if _, err := t.byte(); err != nil {
				return err
			}
		}
		return nil
	case tBinary:
		n, err := t.uvarint()
		if err != nil {
			return err
		}
		if n > uint64(t.limit-t.n) {
			return errHeaderTooLong
		}
		for range n {
			if _, err := t.byte(); err != nil {
				return err
			}
		}
		return nil
	case tList, tSet:
		n, elem, err := t.listHeader()
		if err != nil {
			return err
		}
		for range n {
			if err := t.skipElement(elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := t.uvarint()
		if err != nil || n == 0 {
			return err
		}
		if err := t.fits(n, 2); err != nil {
			return err
		}
		kv, err := t.byte()
		if err != nil {
			return err
		}
		for range n {
			if err := t.skipElement(kv>>4, depth+1); err != nil {
				return err
			}
			if err := t.skipElement(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		return t.structFields(depth+1, func(byte, int16) (bool, error) { return false, nil })
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}

// skipElement skips an element of a list, set or map: a boolean there
// takes a byte of its own (in a struct, its value is the field header's).
func (t *thriftReader) skipElement(typ byte, depth int) error {
	if typ == tTrue || typ == tFalse {
		_, err := t.byte()
		return err
	}
	return t.skip(typ, depth)
}

// listHeader reads a list's or set's header: its length, which fits
// the bytes left, and its elements' type.
func (t *thriftReader) listHeader() (n uint64, elem byte, err error) {
	b, err := t.byte()
	if err != nil {
		return 0, 0, err
	}
	n, elem = uint64(b>>4), b&0x0f
	if n == 15 {
		if n, err = t.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	return n, elem, t.fits(n, 1)
}

// fits refuses a container claiming n elements of at least size bytes
// each when fewer bytes are left: a decoder would allocate room for
// all of them before reading one.
func (t *thriftReader) fits(n, size uint64) error {
	if left := uint64(t.limit - t.n); n > left/size {
		return fmt.Errorf("a list of %d elements in the %d bytes left", n, left)
	}
	return nil
}

// structFields reads a struct's fields up to its stop; read is called
// with each field's type and id and reports whether it consumed the
// value (else it is skipped).
func (t *thriftReader) structFields(depth int, read func(typ byte, id int16) (bool, error)) error {
	if depth > maxDepth {
		return errors.New("values nested too deep")
	}
	var last int16
	for {
		typ, id, err := t.fieldHeader(last)
		if err != nil {
			return err
		}
		if typ == 0 {
			return nil
		}
		last = id
		done, err := read(typ, id)
		if err != nil {
			return err
		}
		if !done {
			if err := t.skip(typ, depth); err != nil {
				return err
			}
		}
	}
}
