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
// bounded by a small multiple of the footer's size. A file too short or
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
	if err := t.skip(tStruct, 0); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, errHeaderTooLong) {
			err = errors.New("runs past its end")
		}
		return fmt.Errorf("file metadata: %w", err)
	}
	return nil
}
