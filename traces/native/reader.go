package native

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Reader streams jobs from a native trace. It implements sim.Source.
type Reader struct {
	name    string
	opt     traces.Options
	skips   traces.Skips
	decode  func(*record) (line int, err error) // next record; io.EOF at the end
	closers []io.Closer
	meta    *Embedded // what a Parquet trace carries besides jobs; nil otherwise
	// epoch and zone are the trace's calendar (Calendar).
	epoch time.Time
	zone  string
	// traitless: no job can have traits (a Parquet trace without trait
	// columns).
	traitless bool
	// noDeps: no job can have dependencies (a Parquet trace without a
	// depends_on column).
	noDeps bool

	last    sim.Time // submit time of the previous job
	started bool     // a job has been returned
	err     error    // sticky fatal error
	rec     record
}

// fatalError marks a ParseError that stops the reader even in lenient mode.
type fatalError struct{ *traces.ParseError }

// Open opens a native trace, choosing the encoding from the file name:
// .jsonl or .ndjson for JSON Lines, .csv for CSV, each optionally followed
// by .gz, and .parquet for Parquet. Close the Reader when done.
func Open(path string, opt traces.Options) (*Reader, error) {
	base := strings.ToLower(filepath.Base(path))
	if strings.HasSuffix(base, ".parquet") {
		return OpenParquet(path, opt)
	}
	gz := strings.HasSuffix(base, ".gz")
	base = strings.TrimSuffix(base, ".gz")
	var newReader func(io.Reader, string, traces.Options) *Reader
	switch filepath.Ext(base) {
	case ".jsonl", ".ndjson":
		newReader = NewJSONLReader
	case ".csv":
		newReader = NewCSVReader
	default:
		return nil, fmt.Errorf("%s: not a native trace: want a .jsonl, .ndjson or .csv file (optionally .gz), or a .parquet file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var in io.Reader = f
	closers := []io.Closer{f}
	if gz {
		z, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		in = z
		closers = []io.Closer{z, f}
	}
	r := newReader(in, path, opt)
	r.closers = closers
	return r, nil
}

// Close closes the file Open opened. It does nothing for a Reader made by
// NewJSONLReader or NewCSVReader.
func (r *Reader) Close() error {
	var errs []error
	for _, c := range r.closers {
		errs = append(errs, c.Close())
	}
	r.closers = nil
	return errors.Join(errs...)
}

// Embedded returns what a Parquet trace carries besides its jobs (its
// cluster, node events, source); nil for JSON Lines and CSV.
func (r *Reader) Embedded() *Embedded { return r.meta }

// Calendar returns the calendar instant the trace's time 0 stands for
// and the site's IANA time zone: a Parquet trace's metadata
// schedsim.epoch and schedsim.time_zone, a JSON Lines or CSV trace's
// calendar line. The zero time and "" when the trace does not say.
func (r *Reader) Calendar() (time.Time, string) { return r.epoch, r.zone }

// Traitless reports whether no job of the trace can have placement
// traits, known before the first job: true for a Parquet trace without
// trait columns, false when it cannot be told (JSON Lines, CSV).
func (r *Reader) Traitless() bool { return r.traitless }

// NoDependencies reports whether no job of the trace can have
// dependencies, known before the first job: true for a Parquet trace
// without a depends_on column, false when it cannot be told (JSON Lines,
// CSV). See sim.Config.NoDependencies.
func (r *Reader) NoDependencies() bool { return r.noDeps }

// Skips returns the records a lenient reader dropped so far.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Next returns the next job, or io.EOF after the last one. In strict mode a
// bad record is a *traces.ParseError; in lenient mode it is skipped and
// counted. Errors that stop the reader in both modes are listed in the
// package documentation.
func (r *Reader) Next() (*sim.Job, error) {
	for r.err == nil {
		r.rec.reset()
		line, err := r.decode(&r.rec)
		if err != nil {
			var pe *traces.ParseError
			var fe fatalError
			switch {
			case errors.As(err, &fe):
				r.err = fe.ParseError
			case errors.As(err, &pe) && !r.opt.Strict:
				r.skips.Add(pe)
				continue
			default:
				r.err = err
			}
			break
		}
		j := r.rec.job
		if r.started && j.Submit < r.last {
			r.err = &traces.ParseError{File: r.name, Line: line, Field: "submit_s",
				Err: fmt.Errorf("submit_s goes back in time: %s after %s; sort the trace", j.Submit, r.last)}
			break
		}
		r.started, r.last = true, j.Submit
		j.Line = line
		return &j, nil
	}
	return nil, r.err
}
