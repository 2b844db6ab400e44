package azure

import (
	"container/heap"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Options tune the reader.
type Options struct {
	traces.Options
	// Window is how many VMs the reader holds to put them in creation
	// order (default DefaultWindow).
	Window int
	// TraceEnd is the end of the trace window, where VMs still alive stop
	// (default 30 days, the V2 trace's length).
	TraceEnd sim.Time
	// OpenCores and OpenMemoryGB are what the open buckets (">24" cores,
	// ">64" GB) are read as (defaults 32 and 128).
	OpenCores, OpenMemoryGB float64
}

// Defaults of Options.
const (
	DefaultWindow       = 1 << 16
	DefaultTraceEnd     = 30 * 24 * 3600 * sim.Second
	DefaultOpenCores    = 32
	DefaultOpenMemoryGB = 128
)

func (o *Options) fill() {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.TraceEnd <= 0 {
		o.TraceEnd = DefaultTraceEnd
	}
	if o.OpenCores <= 0 {
		o.OpenCores = DefaultOpenCores
	}
	if o.OpenMemoryGB <= 0 {
		o.OpenMemoryGB = DefaultOpenMemoryGB
	}
}

// IsTrace says whether path is named like the VM table: vmtable*.csv,
// optionally .gz.
func IsTrace(path string) bool {
	base := filepath.Base(path)
	if ext := filepath.Ext(base); ext == ".gz" {
		base = base[:len(base)-len(ext)]
	}
	matched, _ := filepath.Match("vmtable*.csv", base)
	return matched
}

// Reader yields one single-task sim.Job per VM, in creation order. It
// holds at most Window VMs.
type Reader struct {
	opt    Options
	name   string
	r      *traces.CSVReader
	closer io.Closer
	offset int64 // input offset after the last bad row
	skips  traces.Skips

	held     vmHeap
	seq      int64
	frontier sim.Time // creation of the last VM handed out
	eof      bool
}

// Open reads a vmtable file, gzip-compressed or not (told by content).
func Open(path string, opt Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	src, err := traces.Decompressed(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := NewReader(src, path, opt)
	r.closer = f
	return r, nil
}

// NewReader reads a vmtable from src; name is used in errors.
func NewReader(src io.Reader, name string, opt Options) *Reader {
	opt.fill()
	cr := traces.NewCSVReader(src)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	return &Reader{opt: opt, name: name, r: cr, offset: -1, frontier: -1}
}

// Skips counts the records a lenient reader dropped, by reason.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Close releases the file.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Next returns the next VM in creation order, io.EOF after the last.
func (r *Reader) Next() (*sim.Job, error) {
	for !r.eof && r.held.Len() <= r.opt.Window {
		if err := r.read(); err != nil {
			return nil, err
		}
	}
	if r.held.Len() == 0 {
		return nil, io.EOF
	}
	v := heap.Pop(&r.held).(heldVM)
	r.frontier = v.job.Submit
	return v.job, nil
}

// read reads one row into the heap, or sets eof.
func (r *Reader) read() error {
	row, err := r.r.Read()
	if err == io.EOF {
		r.eof = true
		return nil
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return &traces.ParseError{File: r.name, Err: err}
		}
		// A lenient reader skips the row; make sure the CSV reader moved.
		off := r.r.InputOffset()
		if r.opt.Strict || off == r.offset {
			return &traces.ParseError{File: r.name, Line: pe.Line, Err: pe.Err}
		}
		r.offset = off
		r.skips.Add(&traces.ParseError{File: r.name, Line: pe.Line, Err: pe.Err})
		return nil
	}
	line, _ := r.r.FieldPos(0)
	if len(row) != len(columns) {
		return r.reject(line, &fieldError{"", fmt.Errorf("want %d columns", len(columns)), ""})
	}
	j, bad := r.job(row)
	if bad != nil {
		return r.reject(line, bad)
	}
	if j.Submit < r.frontier {
		return r.reject(line, &fieldError{"vmcreated", errLate,
			fmt.Sprintf("%s s, VMs up to %s s were already replayed (window %d VMs)",
				sim.FormatSeconds(j.Submit), sim.FormatSeconds(r.frontier), r.opt.Window)})
	}
	heap.Push(&r.held, heldVM{job: j, seq: r.seq})
	r.seq++
	return nil
}

// reject handles a bad row: strict mode returns it with its particulars,
// lenient mode counts it under its reason alone and returns nil.
func (r *Reader) reject(line int, bad *fieldError) error {
	pe := &traces.ParseError{File: r.name, Line: line, Field: bad.field, Err: bad.reason}
	if !r.opt.Strict {
		r.skips.Add(pe)
		return nil
	}
	if bad.value != "" {
		pe.Err = fmt.Errorf("%w (got %q)", bad.reason, bad.value)
	}
	return pe
}

// heldVM is a VM waiting in the sort window; seq keeps file order among
// VMs created at the same time.
type heldVM struct {
	job *sim.Job
	seq int64
}

type vmHeap []heldVM

func (h vmHeap) Len() int { return len(h) }
func (h vmHeap) Less(i, j int) bool {
	if h[i].job.Submit != h[j].job.Submit {
		return h[i].job.Submit < h[j].job.Submit
	}
	return h[i].seq < h[j].seq
}
func (h vmHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *vmHeap) Push(x any)   { *h = append(*h, x.(heldVM)) }
func (h *vmHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	old[len(old)-1] = heldVM{}
	*h = old[:len(old)-1]
	return v
}
