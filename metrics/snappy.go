package metrics

import "github.com/apache/arrow/go/v17/parquet/compress"

// The Parquet writer compresses each page with the Snappy codec into a
// buffer it has grown to the codec's bound, but hands the codec that
// buffer with length 0, so the codec allocated a new block for every page
// (a sixth of the jobs table's encoding, most of it clearing and faulting
// fresh memory). snappyInPlace is the library's own Snappy codec, given
// the buffer's whole capacity to write into: the same bytes, one
// allocation less per page. It replaces the registered codec once, for
// the whole process; decoding is unchanged.
type snappyInPlace struct{ compress.Codec }

func (c snappyInPlace) Encode(dst, src []byte) []byte { return c.Codec.Encode(dst[:cap(dst)], src) }

func (c snappyInPlace) EncodeLevel(dst, src []byte, level int) []byte {
	return c.Codec.EncodeLevel(dst[:cap(dst)], src, level)
}

func init() {
	if c, err := compress.GetCodec(compress.Codecs.Snappy); err == nil {
		if _, done := c.(snappyInPlace); !done {
			compress.RegisterCodec(compress.Codecs.Snappy, snappyInPlace{c})
		}
	}
}
