package google

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Reader streams the jobs of a Google trace, one per task attempt, in
// submit order. It implements sim.Source; Nodes and NodeEvents give the
// cluster the trace describes.
//
// It reads the task tables twice. The first pass (at Open) follows every
// task and indexes the attempts that take longer than Options.Lookahead
// from submit to end, and those still open at the trace's end. The second
// pass (Next) follows the tasks again and yields each attempt once the
// trace has been read Lookahead past its submit: by then it has ended, or
// the index knows how it runs. Memory: the tasks alive, the index, and the
// attempts submitted within the last Lookahead.
type Reader struct {
	version    Version
	opt        Options
	nodes      []sim.NodeSpec
	nodeEvents []sim.NodeEvent
	skips      traces.Skips
	stats      Stats

	index    map[attemptKey]outcome
	traceEnd sim.Time

	m      *merger[row]
	tr     *tracker
	queue  []*attempt // submitted, not yet yielded, in submit order
	head   int
	peeked *row // the next row, read but not applied
	done   bool // the merger is exhausted
	err    error
}

// Stats counts what the reader made of the trace.
type Stats struct {
	Attempts      int64 // task submissions (attempts) seen
	Jobs          int64 // jobs yielded: attempts that ran
	NeverRan      int64 // attempts that ended, or were still pending at the trace's end, without running
	RanPastEnd    int64 // yielded attempts still running at the trace's end (runtime cut there)
	Resubmissions int64 // yielded attempts after a task's first
	Indexed       int   // attempts the first pass indexed
	AllocRows     int64 // 2019 alloc-set instance and collection rows, not replayed
	Machines      MachineStats
}

// Open opens the trace in dir, telling its version from its layout
// (task_events/ for 2011, instance_events for 2019).
func Open(dir string, opt Options) (*Reader, error) {
	v, ok := Sniff(dir)
	if !ok {
		return nil, fmt.Errorf("%s: not a Google trace directory: want task_events/ (2011) or instance_events (2019)", dir)
	}
	return OpenVersion(dir, v, opt)
}

// OpenVersion opens the trace in dir as version v.
func OpenVersion(dir string, v Version, opt Options) (*Reader, error) {
	t, err := FindTables(dir, v)
	if err != nil {
		return nil, err
	}
	return OpenTables(t, v, opt)
}

// OpenTables opens a trace given table by table (part files in reading
// order). It reads the machine tables and makes the first pass over the
// task tables, so bad records there are reported now.
func OpenTables(t Tables, v Version, opt Options) (*Reader, error) {
	opt.defaults()
	for _, name := range tableNames(v) {
		if required(name) && len(t[name]) == 0 {
			return nil, fmt.Errorf("no %s table given", name)
		}
	}
	r := &Reader{version: v, opt: opt, index: map[attemptKey]outcome{}}
	if err := r.readMachines(t); err != nil {
		return nil, err
	}
	if err := r.firstPass(t); err != nil {
		return nil, err
	}
	tabs, paths := taskTables(v, t, true)
	m, err := newMerger(opt.Options, &r.skips, tabs, paths)
	if err != nil {
		return nil, err
	}
	r.m = m
	r.tr = newTracker()
	r.tr.onSubmit = func(a *attempt) { r.queue = append(r.queue, a) }
	return r, nil
}

func tableNames(v Version) []string {
	if v == V2019 {
		return tables2019
	}
	return tables2011
}

// taskTables lists the task-side tables of v and their parts (the
// constraints table only when asked: the first pass does not need it).
func taskTables(v Version, t Tables, constraints bool) ([]*table[row], [][]string) {
	var tabs []*table[row]
	var paths [][]string
	add := func(name string, rank uint8, timeField string, parse func([]byte) (row, *fieldError)) {
		tabs = append(tabs, &table[row]{name: name, rank: rank, timeField: timeField,
			parse: func(line []byte) (row, sim.Time, *fieldError) {
				r, err := parse(line)
				return r, r.time, err
			}})
		paths = append(paths, t[name])
	}
	if v == V2019 {
		add("collection_events", tabJob, "time", collectionEvent2019)
		add("instance_events", tabTask, "time", instanceEvent2019)
		return tabs, paths
	}
	job := &csvFields{cols: cols2011Job}
	add("job_events", tabJob, "1 (time)", func(b []byte) (row, *fieldError) { return jobEvent2011(job, b) })
	task := &csvFields{cols: cols2011Task}
	add("task_events", tabTask, "1 (time)", func(b []byte) (row, *fieldError) { return taskEvent2011(task, b) })
	if constraints && len(t["task_constraints"]) > 0 {
		con := &csvFields{cols: cols2011Constraint}
		add("task_constraints", tabConstraint, "1 (time)", func(b []byte) (row, *fieldError) { return constraint2011(con, b) })
	}
	return tabs, paths
}

// readMachines reads machine_events and machine_attributes into the nodes
// and node events.
func (r *Reader) readMachines(t Tables) error {
	var evParse func([]byte) (machineRow, *fieldError)
	var atParse func([]byte) (attrRow, *fieldError)
	timeField := "time"
	if r.version == V2019 {
		evParse, atParse = machineEvent2019, machineAttr2019
	} else {
		ev, at := &csvFields{cols: cols2011Machine}, &csvFields{cols: cols2011Attr}
		evParse = func(b []byte) (machineRow, *fieldError) { return machineEvent2011(ev, b) }
		atParse = func(b []byte) (attrRow, *fieldError) { return machineAttr2011(at, b) }
		timeField = "1 (time)"
	}
	evTab := &table[machineRow]{name: "machine_events", timeField: timeField, parse: func(b []byte) (machineRow, sim.Time, *fieldError) {
		m, err := evParse(b)
		return m, m.time, err
	}}
	events, err := newMerger(r.opt.Options, &r.skips, []*table[machineRow]{evTab}, [][]string{t["machine_events"]})
	if err != nil {
		return err
	}
	defer events.close()
	var attrs *merger[attrRow]
	if parts := t["machine_attributes"]; len(parts) > 0 {
		atTab := &table[attrRow]{name: "machine_attributes", timeField: timeField, parse: func(b []byte) (attrRow, sim.Time, *fieldError) {
			a, err := atParse(b)
			return a, a.time, err
		}}
		if attrs, err = newMerger(r.opt.Options, &r.skips, []*table[attrRow]{atTab}, [][]string{parts}); err != nil {
			return err
		}
		defer attrs.close()
	}
	r.nodes, r.nodeEvents, r.stats.Machines, err = readCluster(events, attrs, r.opt.Scale)
	return err
}

// firstPass follows every task once and indexes the attempts the second
// pass cannot settle within its look-ahead.
func (r *Reader) firstPass(t Tables) error {
	var skips traces.Skips // the second pass counts them
	tabs, paths := taskTables(r.version, t, false)
	m, err := newMerger(r.opt.Options, &skips, tabs, paths)
	if err != nil {
		return err
	}
	defer m.close()
	tr := newTracker()
	tr.onEnd = func(a *attempt) {
		if a.end-a.submit > r.opt.Lookahead {
			r.index[a.key()] = a.outcome
		}
	}
	for {
		row, err := m.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		tr.apply(&row)
	}
	tr.flush()
	r.traceEnd = tr.last
	for _, a := range tr.openAttempts() {
		o := a.outcome
		o.end, o.kind = r.traceEnd, evTraceEnd
		r.index[a.key()] = o
	}
	r.stats.Indexed = len(r.index)
	return nil
}

// Next returns the next job (one task attempt that ran), or io.EOF.
func (r *Reader) Next() (*sim.Job, error) {
	for r.err == nil {
		if r.head < len(r.queue) {
			a := r.queue[r.head]
			// Due once everything up to submit + Lookahead has been read.
			if r.done || (r.peeked != nil && r.peeked.time-a.submit > r.opt.Lookahead) {
				r.queue[r.head] = nil
				r.head++
				if r.head > 4096 && r.head*2 > len(r.queue) {
					r.queue = append(r.queue[:0], r.queue[r.head:]...)
					r.head = 0
				}
				j, err := r.settle(a)
				if err != nil {
					r.err = err
					break
				}
				if j != nil {
					return j, nil
				}
				continue
			}
		}
		if r.done {
			r.err = io.EOF
			break
		}
		if r.peeked != nil {
			r.tr.apply(r.peeked)
			r.peeked = nil
		}
		row, err := r.m.next()
		switch {
		case err == io.EOF:
			r.tr.flush()
			r.done = true
			r.stats.AllocRows = r.tr.allocRows
		case err != nil:
			r.err = err
		default:
			r.tr.advanceTo(row.time) // job ends of the instant before settle
			r.peeked = &row
		}
	}
	return nil, r.err
}

// settle decides how attempt a ran, from this pass or the index, and
// makes its job (nil when it never ran).
func (r *Reader) settle(a *attempt) (*sim.Job, error) {
	r.stats.Attempts++
	o := a.outcome
	if !a.ended || a.end-a.submit > r.opt.Lookahead {
		var ok bool
		if o, ok = r.index[a.key()]; !ok {
			return nil, fmt.Errorf("google: internal error: attempt %d of task %d/%d is neither settled nor indexed", a.n, a.job, a.index)
		}
		delete(r.index, a.key())
	}
	if !o.ran {
		r.stats.NeverRan++
		return nil, nil
	}
	r.stats.Jobs++
	if o.kind == evTraceEnd {
		r.stats.RanPastEnd++
	}
	if a.n > 1 {
		r.stats.Resubmissions++
	}
	return r.job(a, o), nil
}

// job makes the sim.Job of attempt a that ran as o.
func (r *Reader) job(a *attempt, o outcome) *sim.Job {
	id := strconv.FormatInt(a.job, 10) + "-" + strconv.FormatInt(int64(a.index), 10)
	if a.n > 1 {
		id += "." + strconv.Itoa(int(a.n))
	}
	class, tierName := tier(r.version, o.priority)
	labels := []sim.Label{{Key: "priority", Value: strconv.Itoa(int(o.priority))}}
	if o.class >= 0 {
		labels = append(labels, sim.Label{Key: "scheduling_class", Value: strconv.Itoa(int(o.class))})
	}
	labels = append(labels, sim.Label{Key: "end", Value: o.kind.String()})
	if a.alloc != 0 {
		labels = append(labels, sim.Label{Key: "alloc_collection_id", Value: strconv.FormatInt(a.alloc, 10)})
	}
	traits := &sim.Traits{Labels: labels, Constraints: a.cons}
	group := strconv.FormatInt(a.job, 10)
	if a.diffMachine {
		traits.AversionGroups = []string{group}
	}
	return &sim.Job{
		ID:       id,
		Submit:   a.submit,
		Runtime:  max(o.end-o.schedule, 0),
		Walltime: sim.NoWalltime,
		Tasks:    1,
		Request:  r.opt.Scale.request(o.cpu, o.mem, o.disk),
		User:     a.user,
		Group:    group,
		Queue:    tierName,
		Priority: class,
		Traits:   traits,
	}
}

// Nodes returns the cluster's machines as nodes, in machine ID order.
func (r *Reader) Nodes() []sim.NodeSpec { return r.nodes }

// NodeEvents returns the machines' failures and recoveries, in time order.
func (r *Reader) NodeEvents() []sim.NodeEvent { return r.nodeEvents }

// Skips returns the records a lenient reader dropped so far.
func (r *Reader) Skips() traces.Skips { return r.skips }

// Stats returns what the reader made of the trace so far.
func (r *Reader) Stats() Stats { return r.stats }

// TraceEnd is the time of the trace's last task event in the window:
// where the runs of tasks still running are cut.
func (r *Reader) TraceEnd() sim.Time { return r.traceEnd }

// Version is the trace's version.
func (r *Reader) Version() Version { return r.version }

// Close closes the part files still open.
func (r *Reader) Close() error {
	if r.m != nil {
		r.m.close()
	}
	if r.err == nil {
		r.err = errors.New("google: reader closed")
	}
	return nil
}
