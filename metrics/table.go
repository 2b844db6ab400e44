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

	"github.com/schedsim/schedsim/sim"
)

// rowsPerRecord is where a streamed table cuts a batch of rows into one
// record: big enough for efficient columnar encoding, small enough that a
// table's memory stays a few tens of MB whatever the trace length.
const rowsPerRecord = 64 << 10

// table is one output file being written by its own encoder goroutine.
//
// The recorder goroutine (feed.go) only stages rows as small Go structs
// (jobs.go, timeseries.go) and sends the encoder a fill function per
// staged batch.
// The encoder runs the fills in order: each makes one record, either from
// the table's builders (reused from record to record) or from columns it
// fills in place (columns.go), or adds its rows to a record a later fill
// cuts, every rowsPerRecord rows; the encoder writes each record into a
// hidden temp file that is renamed into place at the end. Building and
// encoding Arrow/Parquet costs about as much as the simulation itself;
// this way it overlaps the engine on any machine with a spare core. Fills run in the order they were sent, so the
// bytes do not depend on scheduling; the encoder decides nothing about the
// simulation.
type table struct {
	schema *arrow.Schema
	file   *tempFile
	bw     *seekWriter
	tw     tableWriter
	rb     *array.RecordBuilder // the encoder's, once it runs

	fills   chan func() arrow.Record // closed by stop
	stopped chan error               // the encoder's final error
	mu      sync.Mutex
	encErr  error // first encoder error, seen by send before the end
	ended   bool  // stop was called
	endErr  error // what stop returned
}

// newTable opens <dir>/<name>.<format> as a temp file and starts its
// encoder for schema: a table of a few rows (nodes, tenants, summary).
func newTable(dir, name, format string, schema *arrow.Schema, mem memory.Allocator) (*table, error) {
	return openTable(dir, name, format, schema, mem, 64<<10)
}

// newStreamedTable is newTable for a table of a row per job or event
// (jobs, timeseries, decisions), written through a bigger buffer. A
// megabyte for every table was a twelfth of the memory a small replay
// (KTH-SP2) faults in.
func newStreamedTable(dir, name, format string, schema *arrow.Schema, mem memory.Allocator) (*table, error) {
	return openTable(dir, name, format, schema, mem, 1<<20)
}

func openTable(dir, name, format string, schema *arrow.Schema, mem memory.Allocator, buffer int) (*table, error) {
	f, err := createTemp(filepath.Join(dir, name+"."+format))
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	t := &table{schema: schema, file: f, bw: &seekWriter{w: bufio.NewWriterSize(f, buffer)}}
	t.tw, err = newTableWriter(format, schema, t.bw, mem)
	if err != nil {
		f.abort()
		return nil, fmt.Errorf("metrics: %s: %w", name, err)
	}
	t.rb = array.NewRecordBuilder(mem, schema)
	t.fills = make(chan func() arrow.Record, 1)
	t.stopped = make(chan error, 1)
	go t.encode()
	return t, nil
}

// encode runs the fills it receives, writing one record each, then the
// footer, then flushes the buffer. After an error it still runs the fills
// (they hand staged batches back) but writes nothing more.
func (t *table) encode() {
	sim.LabelGoroutine("encode")
	var err error
	for fill := range t.fills {
		rec := fill()
		if rec == nil {
			continue // rows added to a record not cut yet
		}
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
	t.rb.Release()
	t.stopped <- err
}

// send queues fill to append one record's rows to the table's builders,
// on the encoder. It reports an encoder error met so far, so a failing
// disk stops the recording early; fill is then not run.
func (t *table) send(fill func(rb *array.RecordBuilder)) error {
	return t.sendRecord(func() arrow.Record {
		fill(t.rb)
		return t.rb.NewRecord() // resets the builders for the next fill
	})
}

// sendRecord is send for a table that makes its records itself
// (columns.go): build runs on the encoder and returns one record, or nil
// when it only added rows to a record a later build cuts.
func (t *table) sendRecord(build func() arrow.Record) error {
	t.mu.Lock()
	err := t.encErr
	t.mu.Unlock()
	if err != nil {
		return err
	}
	t.fills <- build
	return nil
}

// stop ends the encoder and returns its error; it is idempotent.
func (t *table) stop() error {
	if !t.ended {
		t.ended = true
		close(t.fills)
		t.endErr = <-t.stopped
	}
	return t.endErr
}

// finish writes the footer and makes the temp file durable. The file is
// still under its temp name.
func (t *table) finish() error {
	err := t.stop()
	if err == nil {
		err = t.file.finish()
	}
	return err
}

// abort stops the encoder and removes the temp file.
func (t *table) abort() {
	t.stop()
	t.file.abort()
}

// builders binds typed builders by column name, on the encoder's record
// builder. Binding by name keeps each schema declared in one place; a
// wrong name or type panics at construction, which every test exercises.
type builders struct{ rb *array.RecordBuilder }

func (b builders) col(name string) array.Builder {
	idx := b.rb.Schema().FieldIndices(name)
	if len(idx) != 1 {
		panic("metrics: no column " + name)
	}
	return b.rb.Field(idx[0])
}
func (b builders) str(name string) *array.StringBuilder { return b.col(name).(*array.StringBuilder) }
func (b builders) i64(name string) *array.Int64Builder  { return b.col(name).(*array.Int64Builder) }
func (b builders) f64(name string) *array.Float64Builder {
	return b.col(name).(*array.Float64Builder)
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
