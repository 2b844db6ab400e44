package alibaba

import (
	"container/heap"
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
	// Window is how many jobs the reader holds to put them in submit
	// order (default DefaultWindow). A job's rows must lie within it.
	Window int
}

// DefaultWindow is the default reorder window, in jobs.
const DefaultWindow = 4096

// errLate is a row that starts before jobs already handed out.
var errLate = errors.New("starts before jobs already replayed (beyond the reorder window; sort the table, see the package doc)")

// Files names the tables of one trace.
type Files struct {
	Tasks     string // batch_task.csv[.gz]; required
	Instances string // batch_instance.csv[.gz]; optional: per-instance runtimes
	Machines  string // machine_meta.csv[.gz]; optional: the cluster
}

// FindFiles resolves a trace path: a directory holding batch_task.csv
// (and, when present, batch_instance.csv and machine_meta.csv, each
// optionally .gz), or a batch_task file alone.
func FindFiles(path string) (Files, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Files{}, err
	}
	if !fi.IsDir() {
		return Files{Tasks: path}, nil
	}
	find := func(base string) string {
		for _, name := range []string{base + ".csv", base + ".csv.gz"} {
			if p := filepath.Join(path, name); fileExists(p) {
				return p
			}
		}
		return ""
	}
	f := Files{Tasks: find("batch_task"), Instances: find("batch_instance"), Machines: find("machine_meta")}
	if f.Tasks == "" {
		return Files{}, fmt.Errorf("%s: no batch_task.csv or batch_task.csv.gz in the directory", path)
	}
	return f, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// IsTrace says whether path looks like an Alibaba 2018 trace: a directory
// with a batch_task table, or a file named batch_task*.csv[.gz].
func IsTrace(path string) bool {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		_, err := FindFiles(path)
		return err == nil
	}
	return traces.NamedLike(path, "batch_task*.csv")
}

// Reader yields one sim.Job per batch_task row (see the package doc), in
// submit order. It holds at most Window jobs' rows.
type Reader struct {
	opt   Options
	tasks *traces.CSVTable
	inst  *instanceJoin // nil without batch_instance
	skips traces.Skips

	ahead    *taskRow // first row of the next run, read but not used yet
	aheadBad *fieldError
	window   map[string]*jobGroup
	heap     groupHeap
	out      []*sim.Job
	frontier sim.Time // submit of the last job handed out
	seq      int64
	eof      bool
}

// Open reads the tasks table, joined with the instances table when given
// (Files.Machines is for ReadMachines).
func Open(f Files, opt Options) (*Reader, error) {
	t, err := traces.OpenCSVTable(f.Tasks, len(taskColumns))
	if err != nil {
		return nil, err
	}
	r := newReader(t, opt)
	if f.Instances != "" {
		it, err := traces.OpenCSVTable(f.Instances, len(instanceColumns))
		if err != nil {
			t.Close()
			return nil, err
		}
		r.inst = &instanceJoin{t: it, r: r}
	}
	return r, nil
}

// NewReader reads a batch_task table from tasks and, when instances is
// not nil, joins a batch_instance table; the names are used in errors.
func NewReader(tasks io.Reader, tasksName string, instances io.Reader, instancesName string, opt Options) *Reader {
	r := newReader(traces.NewCSVTable(tasks, tasksName, len(taskColumns)), opt)
	if instances != nil {
		r.inst = &instanceJoin{t: traces.NewCSVTable(instances, instancesName, len(instanceColumns)), r: r}
	}
	return r
}

func newReader(t *traces.CSVTable, opt Options) *Reader {
	if opt.Window <= 0 {
		opt.Window = DefaultWindow
	}
	return &Reader{opt: opt, tasks: t, window: map[string]*jobGroup{}, frontier: -1}
}

// Skips counts the records a lenient reader dropped, by reason.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Close releases the files.
func (r *Reader) Close() error {
	err := r.tasks.Close()
	if r.inst != nil {
		if e := r.inst.t.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Next returns the next job in submit order, io.EOF after the last.
func (r *Reader) Next() (*sim.Job, error) {
	for {
		if len(r.out) > 0 {
			j := r.out[0]
			r.out[0] = nil
			r.out = r.out[1:]
			return j, nil
		}
		if r.heap.Len() > 0 && (r.eof || r.heap.Len() > r.opt.Window) {
			g := heap.Pop(&r.heap).(*jobGroup)
			delete(r.window, g.name)
			r.frontier = g.submit
			jobs, err := r.build(g)
			if err != nil {
				return nil, err
			}
			r.out = jobs
			continue
		}
		if r.eof {
			return nil, io.EOF
		}
		if err := r.readRun(); err != nil {
			return nil, err
		}
	}
}

// reject handles a bad record: strict mode returns it as the error, with
// its details; lenient mode counts it under its reason and returns nil.
func (r *Reader) reject(file string, line int, field string, err error) error {
	return rejectTo(&r.skips, r.opt.Strict, &traces.ParseError{File: file, Line: line, Field: field, Err: err})
}

// rejectTo is reject for any table.
func rejectTo(skips *traces.Skips, strict bool, pe *traces.ParseError) error {
	if strict {
		return pe
	}
	pe.Err = reason(pe.Err)
	skips.Add(pe)
	return nil
}

// readRun reads the next run of rows of one job (the table lists a job's
// rows together), joins its instances and adds it to the window.
func (r *Reader) readRun() error {
	var run []*taskRow
	skipped := map[int]bool{}
	job := ""
	for {
		if r.ahead == nil {
			if err := r.readTask(); err != nil {
				return err
			}
			if r.ahead == nil {
				r.eof = true
				break
			}
		}
		t := r.ahead
		if job != "" && t.job != job {
			break
		}
		job = t.job
		r.ahead = nil
		if bad := r.aheadBad; bad != nil {
			r.aheadBad = nil
			if t.parsed.DAG {
				skipped[t.parsed.Num] = true
			}
			if err := r.reject(r.tasks.Name, t.line, bad.field, bad.err); err != nil {
				return err
			}
			continue
		}
		run = append(run, t)
	}
	if r.inst != nil {
		if job != "" {
			if err := r.inst.attach(job, run); err != nil {
				return err
			}
		}
		if r.eof {
			if err := r.inst.finish(); err != nil {
				return err
			}
		}
	}
	return r.merge(job, run, skipped)
}

// readTask reads the next task row into r.ahead (nil at the end); a bad
// row comes with r.aheadBad set. Rows with no job name, and rows the CSV
// reader cannot split, are handled here: they belong to no run.
func (r *Reader) readTask() error {
	for {
		row, line, err := r.tasks.Next(r.opt.Strict, &r.skips)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		t, bad := parseTask(row, line)
		if bad != nil && t.job == "" {
			if err := r.reject(r.tasks.Name, line, bad.field, bad.err); err != nil {
				return err
			}
			continue
		}
		if bad != nil && bad.field == "task_name" {
			t.parsed = TaskName{}
		}
		r.ahead, r.aheadBad = t, bad
		return nil
	}
}

// merge adds a run's rows to its job in the window, or opens the job.
func (r *Reader) merge(job string, run []*taskRow, skipped map[int]bool) error {
	g := r.window[job]
	for _, t := range run {
		if t.start < r.frontier {
			if t.parsed.DAG {
				skipped[t.parsed.Num] = true
			}
			if err := r.reject(r.tasks.Name, t.line, "start_time", withDetails(errLate,
				fmt.Sprintf("job %s task %s starts at %s s, jobs up to %s s were already replayed (window %d jobs)",
					job, t.name, sim.FormatSeconds(t.start), sim.FormatSeconds(r.frontier), r.opt.Window))); err != nil {
				return err
			}
			continue
		}
		if g == nil {
			g = &jobGroup{name: job, seq: r.seq, submit: t.start}
			r.seq++
			r.window[job] = g
			heap.Push(&r.heap, g)
		}
		g.tasks = append(g.tasks, t)
		if t.start < g.submit {
			g.submit = t.start
			heap.Fix(&r.heap, g.index)
		}
	}
	if g != nil && len(skipped) > 0 {
		if g.skipped == nil {
			g.skipped = map[int]bool{}
		}
		for n := range skipped {
			g.skipped[n] = true
		}
	}
	return nil
}
