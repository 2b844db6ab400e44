package tracetest

import (
	"bytes"
	"compress/gzip"
	"os"
	"testing"
)

// WriteGzip writes data gzip-compressed to path: a compressed copy of a
// sample, for the readers that tell gzip by content.
func WriteGzip(t testing.TB, path string, data []byte) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
