package sacct

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Options tune the reader.
type Options struct {
	traces.Options
	// Location is the site's time zone, in which sacct printed its times;
	// nil is UTC.
	Location *time.Location
	// Epoch is the calendar time sim time 0 stands for; the zero Time
	// means the earliest Submit of the dump. A record submitted before
	// it is bad.
	Epoch time.Time
	// PartitionTimeLimit gives the walltime of a job whose Timelimit is
	// Partition_Limit, by partition (slurmconf.Cluster.TimeLimits); such
	// a job in a partition not listed has none (sim.NoWalltime).
	PartitionTimeLimit map[string]sim.Time
	// ConfinePartitions adds the tag slurmconf.PartitionResource(p), 0,
	// to each task's request, so the job runs only on the nodes of its
	// partition p. The cluster must define those tags (a slurm.conf
	// cluster does); a job whose partition no node has is rejected.
	ConfinePartitions bool
	// DefaultPartition is the partition of a job whose Partition is empty.
	DefaultPartition string
	// SubmitAtEligible makes a job arrive at its Eligible time when that
	// is later than its Submit (a begin time, a hold, dependencies already
	// waited out); the Dependency field is then not read, since Eligible
	// already holds its effect.
	SubmitAtEligible bool
}

// Reader streams the jobs of one sacct dump in submit order. It
// implements sim.Source.
type Reader struct {
	path    string
	openRaw func() (io.ReadCloser, error)
	opt     Options
	hdr     *header
	hdrLine int
	records int
	epoch   time.Time

	f     io.Closer
	sc    *bufio.Scanner
	line  int
	skips traces.Skips
	names map[string]string // interned user, account, partition, QOS names

	// order puts the records back in submit order, as the SWF reader
	// does (traces.Reorder).
	order *traces.Reorder
	eof   bool

	// yielded and arrays know the jobs yielded so far, when the dump has
	// a Dependency field: a dependency on a job not among them is dropped.
	yielded map[string]bool
	arrays  map[string][]string // array job id → its tasks yielded ("123" → 123_1, 123_2)
}

// Open reads the header, scans the dump once (for its epoch and its
// records out of submit order) and readies the stream. The file may be
// gzipped.
func Open(path string, opt Options) (*Reader, error) {
	return newReader(path, func() (io.ReadCloser, error) { return os.Open(path) }, opt)
}

// OpenBytes reads a dump held in memory; name is used in messages.
func OpenBytes(name string, data []byte, opt Options) (*Reader, error) {
	return newReader(name, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, opt)
}

func newReader(path string, openRaw func() (io.ReadCloser, error), opt Options) (*Reader, error) {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	r := &Reader{path: path, openRaw: openRaw, opt: opt, names: map[string]string{}, order: traces.NewReorder(0)}
	if err := r.scan(); err != nil {
		return nil, err
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	r.nextLine() // the header, read by scan
	if r.hdr.has(cDependency) && !opt.SubmitAtEligible {
		r.yielded, r.arrays = map[string]bool{}, map[string][]string{}
	}
	return r, nil
}

// Epoch is the calendar time sim time 0 stands for, in the site's zone.
func (r *Reader) Epoch() time.Time { return r.epoch }

// Location is the site's time zone the dump is read in.
func (r *Reader) Location() *time.Location { return r.opt.Location }

// Records is the number of data lines of the dump, for a progress bar.
func (r *Reader) Records() int { return r.records }

// Skips reports the records that yielded no job so far: bad ones
// (lenient mode) and those that never ran (pending, cancelled before
// they started, steps), by reason.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Close releases the file.
func (r *Reader) Close() error { return traces.CloseOnce(&r.f) }

// open starts a pass over the file.
func (r *Reader) open() (err error) {
	r.sc, r.f, err = traces.OpenLines(r.path, r.openRaw)
	r.line = 0
	return err
}

// nextLine returns the next line that is not blank, or false at the end.
func (r *Reader) nextLine() (string, bool) {
	for r.sc.Scan() {
		r.line++
		if t := strings.TrimRight(r.sc.Text(), "\r"); strings.TrimSpace(t) != "" {
			return t, true
		}
	}
	return "", false
}

func (r *Reader) scanErr() error {
	if err := r.sc.Err(); err != nil {
		return &traces.ParseError{File: r.path, Line: r.line + 1, Err: err}
	}
	return nil
}

// scan is the first pass: the header, the epoch, and the records whose
// submit goes back in time.
func (r *Reader) scan() error {
	if err := r.open(); err != nil {
		return err
	}
	defer r.Close()
	first, ok := r.nextLine()
	if !ok {
		if err := r.scanErr(); err != nil {
			return err
		}
		return &traces.ParseError{File: r.path, Err: errors.New("empty dump: want sacct --parsable2 output with its header line")}
	}
	h, err := parseHeader(first)
	if err != nil {
		return &traces.ParseError{File: r.path, Line: r.line, Err: err}
	}
	r.hdr, r.hdrLine = h, r.line
	type seen struct {
		line int
		at   int64 // Unix seconds
	}
	var order []seen
	earliest := int64(1 << 62)
	for {
		line, ok := r.nextLine()
		if !ok {
			break
		}
		r.records++
		if at, ok := r.submitUnix(line); ok {
			order = append(order, seen{r.line, at})
			earliest = min(earliest, at)
		}
	}
	if err := r.scanErr(); err != nil {
		return err
	}
	switch {
	case !r.opt.Epoch.IsZero():
		r.epoch = r.opt.Epoch.In(r.opt.Location)
	case len(order) > 0:
		r.epoch = time.Unix(earliest, 0).In(r.opt.Location)
	default:
		r.epoch = time.Unix(0, 0).In(r.opt.Location)
	}
	for _, s := range order {
		_ = r.order.Note(s.line, r.simTime(time.Unix(s.at, 0))) // unbounded: never fails
	}
	r.order.Seal()
	return nil
}

// submitUnix returns a data line's submit time (its Eligible time when
// later, with SubmitAtEligible), if it has one.
func (r *Reader) submitUnix(line string) (int64, bool) {
	t, known, err := parseCalendar(fieldAt(line, r.hdr.at[cSubmit]), r.opt.Location)
	if err != nil || !known {
		return 0, false
	}
	at := t.Unix()
	if r.opt.SubmitAtEligible && r.hdr.has(cEligible) {
		if e, known, err := parseCalendar(fieldAt(line, r.hdr.at[cEligible]), r.opt.Location); err == nil && known {
			at = max(at, e.Unix())
		}
	}
	return at, true
}

// fieldAt returns the i-th '|'-separated field of line ("" past the end).
func fieldAt(line string, i int) string {
	for ; i > 0; i-- {
		k := strings.IndexByte(line, '|')
		if k < 0 {
			return ""
		}
		line = line[k+1:]
	}
	if k := strings.IndexByte(line, '|'); k >= 0 {
		return line[:k]
	}
	return line
}

// simTime is t on the replay's clock.
func (r *Reader) simTime(t time.Time) sim.Time {
	return sim.Time(t.Unix()-r.epoch.Unix()) * sim.Second
}

// Next returns the next job in (submit, file order), or io.EOF.
func (r *Reader) Next() (*sim.Job, error) {
	for {
		if j := r.order.Ready(r.line, r.eof); j != nil {
			return r.yield(j), nil
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
			_ = r.order.Hold(j, r.line) // unbounded: never fails
		}
	}
}

// readRecord parses the next data line; (nil, nil) for a line that yields
// no job.
func (r *Reader) readRecord() (*sim.Job, error) {
	line, ok := r.nextLine()
	if !ok {
		if err := r.scanErr(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	if at, ok := r.submitUnix(line); ok {
		r.order.Passed(r.simTime(time.Unix(at, 0)))
	}
	j, perr, bad := r.parse(line)
	if perr != nil {
		if bad && r.opt.Strict {
			return nil, perr
		}
		r.skips.Add(perr)
		return nil, nil
	}
	return j, nil
}

// yield resolves j's dependencies against the jobs yielded before it: the
// dump covers a window of the site's history, so a job it does not hold
// (or that never ran) is not waited for. A dependency on a whole array
// ("123") waits for the array's tasks yielded so far.
func (r *Reader) yield(j *sim.Job) *sim.Job {
	if r.yielded == nil {
		return j
	}
	if len(j.DependsOn) > 0 {
		var kept []sim.Dependency
		for _, d := range j.DependsOn {
			switch {
			case r.yielded[d.ID]:
				kept = append(kept, d)
			case len(r.arrays[d.ID]) > 0:
				for _, task := range r.arrays[d.ID] {
					kept = append(kept, sim.Dependency{ID: task, AfterAny: d.AfterAny})
				}
			}
		}
		j.DependsOn = kept
	}
	r.yielded[j.ID] = true
	if base, _, ok := strings.Cut(j.ID, "_"); ok {
		r.arrays[base] = append(r.arrays[base], j.ID)
	}
	return j
}
