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
	MaxPageBytes   = 256 << 20 // stored or uncompressed
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
	c := &chunkChecker{br: bufio.NewReaderSize(nil, 64<<10)}
	for g := range len(md.RowGroups) {
		rg := md.RowGroup(g)
		for i := range rg.NumColumns() {
			col, err := rg.ColumnChunk(i)
			if err != nil {
				return &Error{RowGroup: g, Column: i, Page: -1, Path: fmt.Sprint(i), Err: err}
			}
			path := col.PathInSchema().String()
			if i >= md.Schema.NumColumns() {
				return &Error{RowGroup: g, Column: i, Page: -1, Path: path, Err: errors.New("a column chunk the schema does not have")}
			}
			leaf := md.Schema.Column(i)
			c.lv = levels{def: leaf.MaxDefinitionLevel(), rep: leaf.MaxRepetitionLevel()}
			if err := c.chunk(src, size, col); err != nil {
				var e *Error
				if errors.As(err, &e) {
					e.RowGroup, e.Column, e.Path = g, i, path
					return e
				}
				return &Error{RowGroup: g, Column: i, Page: -1, Path: path, Err: err}
			}
		}
	}
	return nil
}

// chunkChecker walks a column chunk's pages, with buffers reused from
// one chunk to the next.
type chunkChecker struct {
	br      *bufio.Reader
	codec   compress.Compression
	lv      levels
	page    []byte // a page's stored bytes, when its streams are checked
	scratch []byte // their decompressed copy
}

// chunk walks one column chunk's pages.
func (c *chunkChecker) chunk(src io.ReaderAt, size int64, col *metadata.ColumnChunkMetaData) error {
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
	c.codec = col.Compression()
	c.br.Reset(io.NewSectionReader(src, start, length))
	left := length
	var values int64
	for page := 0; values < want; page++ {
		if left == 0 {
			return fmt.Errorf("the chunk's pages hold %d values, its metadata says %d", values, want)
		}
		t := &thriftReader{r: c.br, limit: min(left, MaxHeaderBytes)}
		h, err := readPageHeader(t)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, errHeaderTooLong) {
				err = fmt.Errorf("page header runs past the chunk's end: %w", err)
			}
			return &Error{Page: page, Err: err}
		}
		left -= t.n
		if err := h.check(c.codec, left, page); err != nil {
			return &Error{Page: page, Err: err}
		}
		left -= int64(h.compressed)
		if err := c.body(h); err != nil {
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
	if h.uncompressed > MaxPageBytes || h.compressed > MaxPageBytes {
		return fmt.Errorf("page of %d bytes (%d uncompressed), above the limit of %d", h.compressed, h.uncompressed, MaxPageBytes)
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
// stated length, the page's CRC and, where the library reads levels or
// dictionary indices, that they are all there (streams.go).
func (c *chunkChecker) body(h *pageHeader) error {
	n := int64(h.compressed)
	if c.codec == compress.Codecs.Snappy && (h.typ != pageDataV2 || h.isCompressed) {
		levels := int64(0)
		if h.typ == pageDataV2 {
			levels = int64(h.defBytes) + int64(h.repBytes)
		}
		peek, _ := c.br.Peek(int(min(n, levels+binary.MaxVarintLen64)))
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
	if !c.needsStreams(h) {
		hash := crc32.NewIEEE()
		var w io.Writer = io.Discard
		if h.hasCRC {
			w = hash
		}
		if _, err := io.CopyN(w, c.br, n); err != nil {
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
	if int64(cap(c.page)) < n {
		c.page = make([]byte, n)
	}
	page := c.page[:n]
	if _, err := io.ReadFull(c.br, page); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if h.hasCRC && crc32.ChecksumIEEE(page) != uint32(h.crc) {
		return ErrChecksum
	}
	return c.streams(h, page)
}
