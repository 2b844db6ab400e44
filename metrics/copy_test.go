package metrics

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// CopyFileSynced copies the bytes whole, replaces a longer file, and
// reports a missing source.
func TestCopyFileSynced(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	data := bytes.Repeat([]byte("run"), 100_000)
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, bytes.Repeat([]byte("x"), 400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CopyFileSynced(src, dst); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(dst); err != nil || !bytes.Equal(got, data) {
		t.Errorf("copied %d bytes, want %d (%v)", len(got), len(data), err)
	}
	if err := CopyFileSynced(filepath.Join(dir, "none"), dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing source: %v", err)
	}
}
