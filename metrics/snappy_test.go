package metrics

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/compress"
)

// TestSnappyInPlace checks that the registered Snappy codec writes into
// the capacity it is given, and that its bytes are the wrapped codec's.
func TestSnappyInPlace(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Snappy)
	if err != nil {
		t.Fatal(err)
	}
	inPlace, ok := c.(snappyInPlace)
	if !ok {
		t.Fatalf("registered Snappy codec is %T, not snappyInPlace", c)
	}
	src := bytes.Repeat([]byte("completed,u305,g1,0-3,7,"), 500)
	want := inPlace.Codec.EncodeLevel(nil, src, 0)
	dst := make([]byte, 0, c.CompressBound(int64(len(src))))
	got := c.EncodeLevel(dst, src, 0)
	if !bytes.Equal(got, want) {
		t.Fatal("in-place Snappy bytes differ from the library's")
	}
	if &got[0] != &dst[:1][0] {
		t.Error("Snappy did not write into the buffer's capacity")
	}
	if back := c.Decode(nil, got); !bytes.Equal(back, src) {
		t.Error("Snappy round trip changed the data")
	}
}
