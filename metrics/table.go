package metrics

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

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
//
// Encoding runs in one goroutine per table, fed through a channel of
// capacity one. Parquet encoding and compression cost about as much as
// the simulation itself; overlapping them takes them off the engine's
// path on any machine with a spare core. The goroutine writes records in
// the order they were cut, so the bytes do not depend on scheduling, and
// at most three records per table are alive (building, queued, encoding).
// It decides nothing about the simulation.
type table struct {
	rb    *array.RecordBuilder
	rows  int   // rows appended since the last cut
	total int64 // rows appended in all
	cut   int
	file  *tempFile
	bw    *seekWriter
	tw    tableWriter

	recs    chan arrow.Record // to the encoder; closed by stop
	stopped chan error        // the encoder's final error
	mu      sync.Mutex
	encErr  error // first encoder error, seen by flush before the end
	ended   bool  // stop was called
	endErr  error // what stop returned
}

// newTable opens <dir>/<name>.<format> as a temp file and starts its
// encoder for schema.
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
	t.recs = make(chan arrow.Record, 1)
	t.stopped = make(chan error, 1)
	go t.encode()
	return t, nil
}

// encode writes the records it receives, then the footer, then flushes
// the buffer. After an error it only releases what it receives.
func (t *table) encode() {
	var err error
	for rec := range t.recs {
		if err == nil {
			if err = t.tw.write(rec); err != nil {
				t.mu.Lock()
				t.encErr = err
				t.mu.Unlock()
			}
		}
		rec.Release()
	}
	// The footer is written even after an error: closing is what makes
	// the encoder give its memory back.
	if cerr := t.tw.close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = t.bw.w.Flush()
	}
	t.stopped <- err
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
	t.total++
	if t.rows >= t.cut {
		return t.flush()
	}
	return nil
}

// flush hands the pending rows to the encoder as one record. NewRecord
// resets the builders, which are then reused for the next record. It
// reports an encoder error met so far, so a failing disk stops the
// recording early.
func (t *table) flush() error {
	t.mu.Lock()
	err := t.encErr
	t.mu.Unlock()
	if err != nil || t.rows == 0 {
		return err
	}
	rec := t.rb.NewRecord()
	// A full record means more will come: size the fresh builders for a
	// whole record at once instead of letting them double their way up.
	// Small runs never reach this and allocate only what they use.
	if t.rows == t.cut {
		t.rb.Reserve(t.cut)
	}
	t.rows = 0
	t.recs <- rec
	return nil
}

// stop ends the encoder and returns its error; it is idempotent.
func (t *table) stop() error {
	if !t.ended {
		t.ended = true
		close(t.recs)
		t.endErr = <-t.stopped
		t.rb.Release()
	}
	return t.endErr
}

// finish writes the pending rows and the footer and makes the temp file
// durable. The file is still under its temp name.
func (t *table) finish() error {
	err := t.flush()
	if serr := t.stop(); err == nil {
		err = serr
	}
	if err == nil {
		err = t.file.finish()
	}
	return err
}

// commit renames the finished file into place.
func (t *table) commit() error { return t.file.commit() }

// abort stops the encoder and removes the temp file.
func (t *table) abort() {
	t.stop()
	t.file.abort()
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
