package traces

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
)

// Decompressed reads r through a buffer, gunzipped when its first bytes
// are the gzip magic: a trace file is compressed or not whatever its name
// says. path names the file in the error of a broken gzip header.
func Decompressed(r io.Reader, path string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return br, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, &ParseError{File: path, Err: fmt.Errorf("bad gzip: %w", err)}
	}
	return gz, nil
}
