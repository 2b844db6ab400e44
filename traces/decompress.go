package traces

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

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

// OpenFile opens the trace file at path and reads it through
// Decompressed. The caller closes the file returned once done reading.
func OpenFile(path string) (io.Reader, io.Closer, error) {
	return OpenDecompressed(path, func() (io.ReadCloser, error) { return os.Open(path) })
}

// MaxLine is the longest line OpenLines reads, in bytes: the line-based
// formats' records are far shorter, so a longer one is a bad file.
const MaxLine = 1 << 20

// OpenLines opens a trace with open and reads it through Decompressed
// line by line, a line at most MaxLine bytes long. The caller closes the
// file returned once done reading.
func OpenLines(path string, open func() (io.ReadCloser, error)) (*bufio.Scanner, io.Closer, error) {
	src, f, err := OpenDecompressed(path, open)
	if err != nil {
		return nil, nil, err
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	return sc, f, nil
}

// CloseOnce closes *c unless it is nil, and forgets it: a reader's Close
// may be called again, and after an error that closed the file already.
func CloseOnce(c *io.Closer) error {
	if *c == nil {
		return nil
	}
	err := (*c).Close()
	*c = nil
	return err
}

// OpenDecompressed opens a trace with open (a file, or bytes held in
// memory) and reads it through Decompressed, path naming it in errors.
// The caller closes what it returns once done reading; on an error it is
// closed already.
func OpenDecompressed(path string, open func() (io.ReadCloser, error)) (io.Reader, io.Closer, error) {
	f, err := open()
	if err != nil {
		return nil, nil, err
	}
	src, err := Decompressed(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return src, f, nil
}
