package metrics

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// rowsPerRecord is where a table cuts a record and hands it to the file
// writer: big enough for efficient columnar encoding, small enough that a
// table's memory stays a few MB whatever the trace length.
const rowsPerRecord = 64 << 10

// table is one output file being written: builders reused across records,
// a record cut every cut rows and streamed by a tableWriter into a hidden
// temp file that commit renames into place.
type table struct {
	rb   *array.RecordBuilder
	rows int // rows appended since the last cut
	cut  int
	file *tempFile
	bw   *seekWriter
	tw   tableWriter
	done bool // tw closed
}

// newTable opens <dir>/<name>.<format> as a temp file and starts a writer
// for schema.
func newTable(dir, name, format string, schema *arrow.Schema, mem memory.Allocator) (*table, error) {
	f, err := createTemp(filepath.Join(dir, name+"."+format))
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	t := &table{file: f, bw: &seekWriter{w: bufio.NewWriterSize(f, 1<<20)}, cut: rowsPerRecord}
	t.tw, err = newTableWriter(format, schema, t.bw, mem)
	if err != nil {
		f.abort()
		return nil, fmt.Errorf("metrics: %s: %w", name, err)
	}
	t.rb = array.NewRecordBuilder(mem, schema)
	return t, nil
}

// col returns the builder of the named column. Binding builders by name
// keeps each schema declared in one place; a wrong name or type panics at
// construction, which every test exercises.
func (t *table) col(name string) array.Builder {
	idx := t.rb.Schema().FieldIndices(name)
	if len(idx) != 1 {
		panic("metrics: no column " + name)
	}
	return t.rb.Field(idx[0])
}

// endRow counts a row whose every column has been appended, and cuts a
// record when enough have piled up.
func (t *table) endRow() error {
	t.rows++
	if t.rows >= t.cut {
		return t.flush()
	}
	return nil
}

// flush writes the pending rows as one record. NewRecord resets the
// builders, which are then reused for the next record.
func (t *table) flush() error {
	if t.rows == 0 {
		return nil
	}
	rec := t.rb.NewRecord()
	defer rec.Release()
	t.rows = 0
	return t.tw.write(rec)
}

// finish writes the pending rows and the footer and makes the temp file
// durable. The file is still under its temp name.
func (t *table) finish() error {
	err := t.flush()
	if cerr := t.closeWriter(); err == nil {
		err = cerr
	}
	if err == nil {
		err = t.bw.w.Flush()
	}
	if err == nil {
		err = t.file.finish()
	}
	t.release()
	return err
}

// commit renames the finished file into place.
func (t *table) commit() error { return t.file.commit() }

// abort drops the table and its temp file. It closes the writer first so
// the encoder gives back the memory it holds.
func (t *table) abort() {
	t.closeWriter()
	t.release()
	t.file.abort()
}

func (t *table) release() {
	if t.rb != nil {
		t.rb.Release()
		t.rb = nil
	}
}

func (t *table) closeWriter() error {
	if t.done {
		return nil
	}
	t.done = true
	return t.tw.close()
}

// seekWriter buffers writes and counts them. The Arrow IPC file writer
// asks for an io.WriteSeeker only to learn its position (Seek(0,
// io.SeekCurrent)); answering from the count lets it write through a
// buffer.
type seekWriter struct {
	w   *bufio.Writer
	pos int64
}

func (s *seekWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.pos += int64(n)
	return n, err
}

func (s *seekWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return 0, errors.New("metrics: output is not seekable")
	}
	return s.pos, nil
}
