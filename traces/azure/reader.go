package azure

import (
	"container/heap"
	"fmt"
	"io"

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
	return traces.NamedLike(path, "vmtable*.csv")
}

// Reader yields one single-task sim.Job per VM, in creation order. It
// holds at most Window VMs.
type Reader struct {
	opt   Options
	rows  *traces.CSVTable
	skips traces.Skips

	held     vmHeap
	seq      int64
	frontier sim.Time // creation of the last VM handed out
	eof      bool
}

// Open reads a vmtable file, gzip-compressed or not (told by content).
func Open(path string, opt Options) (*Reader, error) {
	rows, err := traces.OpenCSVTable(path, len(columns))
	if err != nil {
		return nil, err
	}
	return newReader(rows, opt), nil
}

// NewReader reads a vmtable from src; name is used in errors.
func NewReader(src io.Reader, name string, opt Options) *Reader {
	return newReader(traces.NewCSVTable(src, name, len(columns)), opt)
}

func newReader(rows *traces.CSVTable, opt Options) *Reader {
	opt.fill()
	return &Reader{opt: opt, rows: rows, frontier: -1}
}

// Skips counts the records a lenient reader dropped, by reason.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Close releases the file.
func (r *Reader) Close() error { return r.rows.Close() }

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
	row, line, err := r.rows.Next(r.opt.Strict, &r.skips)
	if err == io.EOF {
		r.eof = true
		return nil
	}
	if err != nil {
		return err
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
	pe := &traces.ParseError{File: r.rows.Name, Line: line, Field: bad.field, Err: bad.reason}
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
