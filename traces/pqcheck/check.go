package pqcheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/metadata"
)

// Limits on what a page may claim. A page of the writers we know holds
// about 1 MiB of values; MaxPageBytes leaves room for far bigger ones.
const (
	MaxHeaderBytes = 16 << 20  // the library's own limit on a page header
	MaxPageBytes   = 256 << 20 // uncompressed
	// MaxRatio bounds a compressed page's expansion: Snappy cannot pass
	// 22:1 and gzip 1,032:1; a page that small compressors shrink more
	// (zstd on a constant column) stays under the 1 MiB floor.
	MaxRatio      = 1100
	ratioFloor    = 1 << 20
	snappyMaxRate = 24
)

// Error is a corrupt page: where it is and what is wrong.
type Error struct {
	RowGroup, Column, Page int // Page counts from 0; -1 for the chunk
	Path                   string
	Err                    error
}

func (e *Error) Error() string {
	if e.Page < 0 {
		return fmt.Sprintf("row group %d, column %s: %v", e.RowGroup, e.Path, e.Err)
	}
	return fmt.Sprintf("row group %d, column %s, page %d: %v", e.RowGroup, e.Path, e.Page, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrChecksum is a page whose CRC does not match its bytes.
var ErrChecksum = errors.New("page checksum mismatch: the file was changed after it was written")

// Check walks every page of every column chunk of the file md describes;
// src holds the file's size bytes.
func Check(src io.ReaderAt, size int64, md *metadata.FileMetaData) error {
	br := bufio.NewReaderSize(nil, 64<<10)
	for g := range len(md.RowGroups) {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return &Error{RowGroup: g, Column: c, Page: -1, Path: fmt.Sprint(c), Err: err}
			}
			path := col.PathInSchema().String()
			if err := checkChunk(src, size, col, br); err != nil {
				var e *Error
				if errors.As(err, &e) {
					e.RowGroup, e.Column, e.Path = g, c, path
					return e
				}
				return &Error{RowGroup: g, Column: c, Page: -1, Path: path, Err: err}
			}
		}
	}
	return nil
}

// checkChunk walks one column chunk's pages.
func checkChunk(src io.ReaderAt, size int64, col *metadata.ColumnChunkMetaData, br *bufio.Reader) error {
	start, length := col.DataPageOffset(), col.TotalCompressedSize()
	if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 && col.DictionaryPageOffset() < start {
		start = col.DictionaryPageOffset()
	}
	if start < 0 || length < 0 || start > size || length > size-start {
		return fmt.Errorf("chunk at %d of %d bytes, in a file of %d bytes", start, length, size)
	}
	want := col.NumValues()
	if want < 0 {
		return fmt.Errorf("chunk of %d values", want)
	}
	codec := col.Compression()
	br.Reset(io.NewSectionReader(src, start, length))
	left := length
	var values int64
	for page := 0; values < want; page++ {
		if left == 0 {
			return fmt.Errorf("the chunk's pages hold %d values, its metadata says %d", values, want)
		}
		t := &thriftReader{r: br, limit: min(left, MaxHeaderBytes)}
		h, err := readPageHeader(t)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, errHeaderTooLong) {
				err = fmt.Errorf("page header runs past the chunk's end: %w", err)
			}
			return &Error{Page: page, Err: err}
		}
		left -= t.n
		if err := h.check(codec, left, page); err != nil {
			return &Error{Page: page, Err: err}
		}
		left -= int64(h.compressed)
		if err := body(br, h, codec); err != nil {
			return &Error{Page: page, Err: err}
		}
		if h.typ != pageDictionary {
			values += int64(h.numValues)
		}
	}
	if values != want {
		return fmt.Errorf("the chunk's pages hold %d values, its metadata says %d", values, want)
	}
	return nil
}

// check checks a header's claims against the chunk and the limits.
func (h *pageHeader) check(codec compress.Compression, left int64, page int) error {
	switch h.typ {
	case pageData, pageDataV2:
	case pageDictionary:
		if page != 0 {
			return errors.New("a dictionary page after the first page")
		}
	default:
		return fmt.Errorf("page type %d is not supported (data and dictionary pages only)", h.typ)
	}
	if !h.sub {
		return fmt.Errorf("page of type %d without its header", h.typ)
	}
	if int64(h.compressed) > left {
		return fmt.Errorf("page of %d bytes, %d left in the chunk", h.compressed, left)
	}
	if h.numValues < 0 || h.numNulls < 0 || h.numRows < 0 || h.defBytes < 0 || h.repBytes < 0 {
		return errors.New("negative count or length in the page header")
	}
	if h.numNulls > h.numValues {
		return fmt.Errorf("%d nulls of %d values", h.numNulls, h.numValues)
	}
	if h.uncompressed > MaxPageBytes {
		return fmt.Errorf("page of %d bytes uncompressed, above the limit of %d", h.uncompressed, MaxPageBytes)
	}
	levels := int64(h.defBytes) + int64(h.repBytes)
	if levels > int64(h.compressed) || levels > int64(h.uncompressed) {
		return fmt.Errorf("levels of %d bytes in a page of %d bytes (%d uncompressed)", levels, h.compressed, h.uncompressed)
	}
	if codec == compress.Codecs.Uncompressed || (h.typ == pageDataV2 && !h.isCompressed) {
		if h.uncompressed != h.compressed {
			return fmt.Errorf("uncompressed page of %d bytes says %d", h.compressed, h.uncompressed)
		}
		return nil
	}
	rate := int64(MaxRatio)
	if codec == compress.Codecs.Snappy {
		rate = snappyMaxRate
	}
	if int64(h.uncompressed) > max(int64(h.compressed)*rate, ratioFloor) {
		return fmt.Errorf("page of %d bytes says %d uncompressed, beyond what %s can expand to", h.compressed, h.uncompressed, codec)
	}
	return nil
}

// body reads a page's bytes after its header: checks a Snappy block's
// stated length and the page's CRC.
func body(br *bufio.Reader, h *pageHeader, codec compress.Compression) error {
	n := int64(h.compressed)
	if codec == compress.Codecs.Snappy && (h.typ != pageDataV2 || h.isCompressed) {
		levels := int64(0)
		if h.typ == pageDataV2 {
			levels = int64(h.defBytes) + int64(h.repBytes)
		}
		peek, _ := br.Peek(int(min(n, levels+binary.MaxVarintLen64)))
		if int64(len(peek)) < levels {
			return io.ErrUnexpectedEOF
		}
		stated, k := binary.Uvarint(peek[levels:])
		if k <= 0 {
			return errors.New("a Snappy block without its length")
		}
		if want := uint64(int64(h.uncompressed) - levels); stated != want {
			return fmt.Errorf("a Snappy block of %d bytes in a page of %d", stated, want)
		}
	}
	hash := crc32.NewIEEE()
	var w io.Writer = io.Discard
	if h.hasCRC {
		w = hash
	}
	if _, err := io.CopyN(w, br, n); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if h.hasCRC && hash.Sum32() != uint32(h.crc) {
		return ErrChecksum
	}
	return nil
}
