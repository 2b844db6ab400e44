package swf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Options tune the reader.
type Options struct {
	traces.Options
	// Model shapes jobs as tasks: one task of procs processors (pool) or
	// ⌈procs/ppn⌉ whole-node tasks (nodes).
	Model Model
	// ProcsPerNode overrides the header's ⌈MaxProcs/MaxNodes⌉.
	ProcsPerNode int
	// MaxHeldBack bounds the reordering of out-of-order records (doc.go):
	// how many records the first pass may find out of order, and how
	// many parsed jobs may wait at once for an earlier one further on.
	// A log further out of order is an error that says to sort it. 0 is
	// DefaultMaxHeldBack.
	MaxHeldBack int
}

// DefaultMaxHeldBack is Options.MaxHeldBack when unset: a million
// records, some 16 MB of out-of-order positions and a few hundred MB of
// held-back jobs at most, far more than the disorder of real logs.
const DefaultMaxHeldBack = 1 << 20

// Reader streams the jobs of one SWF file in submit order.
type Reader struct {
	path    string
	openRaw func() (io.ReadCloser, error)
	opt     Options
	records int
	header  Header
	perNode int

	f        io.Closer
	sc       *bufio.Scanner
	line     int
	skips    traces.Skips
	fields   [numFields][]byte
	strings  map[string]string // interned user/group/queue names
	requests map[int64][]sim.Quantity

	// order puts the records back in submit order (see doc.go).
	order *traces.Reorder
	eof   bool
}

// Open reads the header, scans the file once for out-of-order records and
// readies the stream.
func Open(path string, opt Options) (*Reader, error) {
	return newReader(path, func() (io.ReadCloser, error) { return os.Open(path) }, opt)
}

// OpenBytes reads an SWF log held in memory (an embedded trace); name is
// used in messages.
func OpenBytes(name string, data []byte, opt Options) (*Reader, error) {
	return newReader(name, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, opt)
}

func newReader(path string, openRaw func() (io.ReadCloser, error), opt Options) (*Reader, error) {
	if opt.Model == "" {
		opt.Model = Pool
	}
	if opt.MaxHeldBack <= 0 {
		opt.MaxHeldBack = DefaultMaxHeldBack
	}
	r := &Reader{path: path, openRaw: openRaw, opt: opt, strings: map[string]string{}, requests: map[int64][]sim.Quantity{},
		order: traces.NewReorder(opt.MaxHeldBack)}
	r.header.file = path
	if err := r.scan(); err != nil {
		return nil, err
	}
	g, err := r.header.Geometry(opt.ProcsPerNode)
	if err != nil {
		var perr *traces.ParseError
		if errors.As(err, &perr) {
			return nil, err
		}
		return nil, &traces.ParseError{File: path, Err: err}
	}
	if err := r.header.checkModel(g, opt.Model); err != nil {
		return nil, err
	}
	r.perNode = g.ProcsPerNode
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

// Header returns the parsed header.
func (r *Reader) Header() *Header { return &r.header }

// Records is the number of job records (non-comment lines) in the file,
// counted by the first pass: the total for a progress bar.
func (r *Reader) Records() int { return r.records }

// Skips reports the records skipped so far (lenient mode).
func (r *Reader) Skips() traces.Skips { return r.skips }

// Close releases the file.
func (r *Reader) Close() error { return traces.CloseOnce(&r.f) }

// open starts a pass over the file.
func (r *Reader) open() (err error) {
	r.sc, r.f, err = traces.OpenLines(r.path, r.openRaw)
	r.line = 0
	return err
}

// scan is the first pass: the header, and the records whose submit time
// goes back in time.
func (r *Reader) scan() error {
	if err := r.open(); err != nil {
		return err
	}
	defer r.Close()
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			continue
		}
		if t[0] == ';' {
			r.header.parseHeaderLine(string(t), r.line)
			continue
		}
		r.records++
		at, ok := r.submitOf(b)
		if !ok {
			continue
		}
		if err := r.order.Note(r.line, at); err != nil {
			return &traces.ParseError{File: r.path, Line: r.line, Err: fmt.Errorf("more than %d records out of submit order: sort the log by submit time (field 2) first", r.opt.MaxHeldBack)}
		}
	}
	if err := r.sc.Err(); err != nil {
		return &traces.ParseError{File: r.path, Line: r.line + 1, Err: err}
	}
	r.order.Seal()
	return nil
}

// submitOf returns a data line's submit time, if it has one.
func (r *Reader) submitOf(b []byte) (sim.Time, bool) {
	if splitFirst(b, &r.fields, 2) < 2 {
		return 0, false
	}
	at, err := parseTime(r.fields[1])
	return at, err == nil
}

// Next returns the next job in (submit, file order), or io.EOF.
func (r *Reader) Next() (*sim.Job, error) {
	for {
		if j := r.order.Ready(r.line, r.eof); j != nil {
			return j, nil
		}
		if r.eof {
			return nil, io.EOF
		}
		j, err := r.readRecord()
		if err == io.EOF {
			r.eof = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if j != nil {
			if err := r.order.Hold(j, r.line); err != nil {
				return nil, &traces.ParseError{File: r.path, Line: r.line, Err: fmt.Errorf("more than %d records wait for an earlier one further on (submit %s s): sort the log by submit time (field 2) first", r.opt.MaxHeldBack, r.order.Bound(r.line))}
			}
		}
	}
}

// readRecord parses the next data line; it returns (nil, nil) for a line
// that carries no job (comment, blank, skipped record).
func (r *Reader) readRecord() (*sim.Job, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return nil, &traces.ParseError{File: r.path, Line: r.line + 1, Err: err}
		}
		return nil, io.EOF
	}
	r.line++
	b := r.sc.Bytes()
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] == ';' {
		return nil, nil
	}
	j, perr := r.parse(b)
	// Every record with a readable submit time raises the bound, parsed
	// or skipped; a parsed job's Submit is that time.
	if j != nil {
		r.order.Passed(j.Submit)
	} else if at, ok := r.submitOf(b); ok {
		r.order.Passed(at)
	}
	if perr != nil {
		if r.opt.Strict {
			return nil, perr
		}
		r.skips.Add(perr)
		return nil, nil
	}
	return j, nil
}

func (r *Reader) bad(field int, err error) *traces.ParseError {
	name, value := "", ""
	if field >= 0 {
		name = strconv.Itoa(field+1) + " (" + fieldNames[field] + ")"
		value = string(r.fields[field])
	}
	return &traces.ParseError{File: r.path, Line: r.line, Field: name, Value: value, Err: err}
}

func (r *Reader) parse(b []byte) (*sim.Job, *traces.ParseError) {
	n := splitFields(b, &r.fields)
	if n != numFields {
		if n > numFields {
			return nil, r.bad(-1, fmt.Errorf("more than %d fields", numFields))
		}
		return nil, r.bad(-1, fmt.Errorf("%d fields, want %d", n, numFields))
	}
	f := &r.fields
	submit, err := parseTime(f[1])
	if err != nil {
		return nil, r.bad(1, err)
	}
	if submit < 0 {
		return nil, r.bad(1, errors.New("negative submit time"))
	}
	run, err := parseTime(f[3])
	if err != nil {
		return nil, r.bad(3, err)
	}
	if run < 0 {
		return nil, r.bad(3, errors.New("runtime < 0 (unknown)"))
	}
	alloc, err := parseInt(f[4])
	if err != nil {
		return nil, r.bad(4, err)
	}
	reqProcs, err := parseInt(f[7])
	if err != nil {
		return nil, r.bad(7, err)
	}
	procs := alloc
	procsField := 4
	if procs <= 0 {
		procs, procsField = reqProcs, 7
	}
	if procs <= 0 {
		return nil, r.bad(procsField, errors.New("processors ≤ 0 (neither allocated nor requested)"))
	}
	if procs > 1<<40 {
		return nil, r.bad(procsField, errors.New("too many processors"))
	}
	wall, err := parseTime(f[8])
	if err != nil {
		return nil, r.bad(8, err)
	}
	if wall <= 0 {
		wall = run // unknown: the runtime stands in
	}
	if r.opt.Strict {
		for i := range f {
			if i != 0 && !isNumber(f[i]) {
				return nil, r.bad(i, errNotNumber)
			}
		}
	}
	deps, perr := r.preceding(f[16], f[17])
	if perr != nil {
		return nil, perr
	}
	// What the job asked for, in both models: the requested count, else
	// the allocated one.
	asked := reqProcs
	if asked <= 0 {
		asked = alloc
	}
	// The wait is the traced system's: submit + wait is when the job
	// really started. -1 (or anything unreadable, in lenient mode) is
	// unknown.
	wait, werr := parseTime(f[2])
	recorded := werr == nil && wait >= 0 && wait <= sim.Forever-submit
	var recordedStart sim.Time
	if recorded {
		recordedStart = submit + wait
	}
	tasks, perTask := shape(r.opt.Model, procs, r.perNode)
	return &sim.Job{
		ID:             string(f[0]),
		Submit:         submit,
		Runtime:        run,
		Walltime:       wall,
		Tasks:          tasks,
		Request:        r.request(perTask),
		RequestedProcs: asked,
		Recorded:       recorded,
		RecordedStart:  recordedStart,
		Gang:           true,
		User:           r.intern("u", f[11]),
		Group:          r.intern("g", f[12]),
		Queue:          r.intern("q", f[14]),
		Partition:      r.intern("p", f[15]),
		DependsOn:      deps,
	}, nil
}

// preceding reads fields 17 and 18 into a dependency: the job waits for
// the end of the preceding job (any end: the format speaks of its
// termination), then the think time. A preceding job ≤ 0 (-1, or 0 in
// some converted logs: job numbers start at 1) is none; a negative think
// time is unknown, taken as 0. The job number is written canonically
// ("12"), as job numbers are in field 1.
func (r *Reader) preceding(job, think []byte) ([]sim.Dependency, *traces.ParseError) {
	p, err := parseInt(job)
	if err != nil {
		return nil, r.bad(16, err)
	}
	t, err := parseTime(think)
	if err != nil {
		return nil, r.bad(17, err)
	}
	if p <= 0 {
		return nil, nil
	}
	return []sim.Dependency{{ID: strconv.FormatInt(p, 10), AfterAny: true, Think: max(t, 0)}}, nil
}

// request returns the request of a task of procs processors, one slice
// shared by the jobs that ask the same (a trace has a few hundred
// distinct counts): a job's Request is only read, as the native Parquet
// reader's shared requests are.
func (r *Reader) request(procs int64) []sim.Quantity {
	if q, ok := r.requests[procs]; ok {
		return q
	}
	q := []sim.Quantity{{Resource: "cpu", Amount: sim.Units(procs)}}
	if len(r.requests) < maxSharedRequests {
		r.requests[procs] = q
	}
	return q
}

// maxSharedRequests bounds the shared requests: a log of ever new counts
// costs a map of this size, then a slice per job as before.
const maxSharedRequests = 1 << 12

// intern returns prefix+id for a numeric id field, "" for -1, sharing one
// string per distinct value.
func (r *Reader) intern(prefix string, b []byte) string {
	if len(b) == 0 || (len(b) == 2 && b[0] == '-' && b[1] == '1') {
		return ""
	}
	if s, ok := r.strings[prefix+string(b)]; ok {
		return s
	}
	s := prefix + string(b)
	r.strings[s] = s
	return s
}
