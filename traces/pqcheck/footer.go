package pqcheck

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxFooterBytes bounds a file's metadata (its footer). A trace's
// footer grows with its row groups and columns: about 150 bytes a column
// chunk, so 16 MiB holds some 100,000 chunks.
const MaxFooterBytes = 16 << 20

// CheckFooter walks the Thrift of a Parquet file's footer before the
// library decodes it: the library's decoder makes every list with the
// capacity the footer claims, up to 100 million elements, whatever bytes
// follow (a 2.5 KB file made it allocate 738 MB for one list of column
// names). CheckFooter refuses a footer over MaxFooterBytes and any list,
// set or map claiming more elements than the footer has bytes left (each
// element takes at least one), so that what the library allocates is
// bounded by a small multiple of the footer's size. It reads the bytes
// as the library does (libraryStruct): a walk by the types the bytes
// state would see other lists than the library's. A file too short or
// without the plain footer's magic is left to the library, which
// refuses it with its own message.
func CheckFooter(src io.ReaderAt, size int64) error {
	if size < 12 {
		return nil
	}
	var tail [8]byte
	if _, err := src.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return nil
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-8 {
		return nil // the library names it
	}
	if n > MaxFooterBytes {
		return fmt.Errorf("file metadata of %d bytes, over the limit of %d", n, MaxFooterBytes)
	}
	footer := make([]byte, n)
	if _, err := src.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	t := &thriftReader{r: bufio.NewReader(bytes.NewReader(footer)), limit: n}
	if err := t.libraryStruct("FileMetaData", 0); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, errHeaderTooLong) {
			err = errors.New("runs past its end")
		}
		return fmt.Errorf("file metadata: %w", err)
	}
	return nil
}

// listRead is how the library reads a field of a footer struct that is,
// or holds, a list: a field of another Thrift type than wire it skips by
// the types the bytes state; a list's elements it reads as elem (a
// struct named name, a string or an i32), whatever element type the
// list's header states.
type listRead struct {
	wire byte // tStruct or tList
	elem byte // tList: tStruct, tBinary or tI32
	name string
}

func listOf(elem byte, name string) listRead { return listRead{wire: tList, elem: elem, name: name} }

// footerLists are the fields of the footer's structs (parquet.thrift, as
// the library's generated code reads them) through which a list is
// reached. A struct not named here holds no list: reading it by the
// Parquet definition or skipping it by the types the bytes state takes
// the same bytes.
var footerLists = map[string]map[int16]listRead{
	"FileMetaData": {2: listOf(tStruct, "SchemaElement"), 4: listOf(tStruct, "RowGroup"),
		5: listOf(tStruct, "KeyValue"), 7: listOf(tStruct, "ColumnOrder")},
	"RowGroup":                {1: listOf(tStruct, "ColumnChunk"), 4: listOf(tStruct, "SortingColumn")},
	"ColumnChunk":             {3: {wire: tStruct, name: "ColumnMetaData"}, 8: {wire: tStruct, name: "ColumnCryptoMetaData"}},
	"ColumnMetaData":          {2: listOf(tI32, ""), 3: listOf(tBinary, ""), 8: listOf(tStruct, "KeyValue"), 13: listOf(tStruct, "PageEncodingStats")},
	"ColumnCryptoMetaData":    {2: {wire: tStruct, name: "EncryptionWithColumnKey"}},
	"EncryptionWithColumnKey": {1: listOf(tBinary, "")},
}

// libraryStruct reads a footer struct as the library does (footerLists).
func (t *thriftReader) libraryStruct(name string, depth int) error {
	fields := footerLists[name]
	return t.structFields(depth, func(typ byte, id int16) (bool, error) {
		f, ok := fields[id]
		if !ok || typ != f.wire {
			return false, nil
		}
		if f.wire == tStruct {
			return true, t.libraryStruct(f.name, depth+1)
		}
		return true, t.libraryList(f, depth+1)
	})
}

// libraryList reads a list's elements as the library does.
func (t *thriftReader) libraryList(f listRead, depth int) error {
	if depth > maxDepth {
		return errors.New("values nested too deep")
	}
	n, _, err := t.listHeader() // the elements are read as f says
	if err != nil {
		return err
	}
	for range n {
		if f.elem == tStruct {
			err = t.libraryStruct(f.name, depth+1)
		} else {
			err = t.skip(f.elem, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
