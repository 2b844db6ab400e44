package metrics

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/pqcheck"
)

// The tables carry page checksums: a byte changed inside a page of a run's
// jobs.parquet is an error of the reader, not a different value.
func TestPageChecksums(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, synthCluster(t, 16), synthJobs(500, 3), sim.Config{}, Options{}, FinalInfo{})
	if _, err := ReadJobs(dir); err != nil {
		t.Fatalf("the run as written: %v", err)
	}
	path := filepath.Join(dir, "jobs.parquet")
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	col, err := pf.MetaData().RowGroup(0).ColumnChunk(1)
	pf.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The chunk's last byte is its (only) page's last byte of data.
	data[col.DataPageOffset()+col.TotalCompressedSize()-1] ^= 0x10
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadJobs(dir)
	if !errors.Is(err, pqcheck.ErrChecksum) {
		t.Fatalf("a flipped byte: %v", err)
	}
	t.Log(err)
}
