package sacct

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/slurmconf"
)

// row is one data line cut into its fields.
type row struct {
	r      *Reader
	fields []string
}

// get returns column c's value, "" when the dump has no such field.
func (w row) get(c column) string {
	if i := w.r.hdr.at[c]; i >= 0 {
		return w.fields[i]
	}
	return ""
}

// bad is a ParseError naming column c's field.
func (w row) bad(c column, err error) *traces.ParseError {
	return &traces.ParseError{File: w.r.path, Line: w.r.line, Field: w.r.hdr.name(c), Err: err}
}

// calendar reads a time column; a column the dump lacks is unknown.
func (w row) calendar(c column) (time.Time, bool, *traces.ParseError) {
	t, known, err := parseCalendar(w.get(c), w.r.opt.Location)
	if err != nil {
		return t, false, w.bad(c, err)
	}
	return t, known, nil
}

// count reads a whole-number column; has is false when the dump lacks
// it or the field is empty.
func (w row) count(c column) (v int64, has bool, perr *traces.ParseError) {
	s := w.get(c)
	if s == "" {
		return 0, false, nil
	}
	v, err := parseCount(s)
	if err != nil {
		return 0, false, w.bad(c, err)
	}
	return v, true, nil
}

// parse turns a data line into a job. It returns either the job, or a
// ParseError with bad set when the record is malformed, or a ParseError
// with bad unset when the record is sound but yields no job (a step, a job
// that never ran).
func (r *Reader) parse(line string) (*sim.Job, *traces.ParseError, bool) {
	fields := strings.Split(line, "|")
	if r.hdr.trailing && len(fields) > 0 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	if len(fields) != len(r.hdr.names) {
		return nil, &traces.ParseError{File: r.path, Line: r.line,
			Err: fmt.Errorf("%d fields, want %d as in the header (a '|' inside a value?)", len(fields), len(r.hdr.names))}, true
	}
	w := row{r, fields}
	j, perr := w.job()
	if perr != nil {
		return nil, perr, !isSkip(perr.Err)
	}
	return j, nil, false
}

// isSkip tells the reasons a sound record yields no job from errors.
func isSkip(err error) bool {
	switch err {
	case errStep, errPending, errCancelledBefore, errNeverStarted, errNoRuntime, errRevoked:
		return true
	}
	return false
}

// job reads the fields of one record (every field the reader uses is
// checked, so strict mode reports any bad value).
func (w row) job() (*sim.Job, *traces.ParseError) {
	idCol := cJobID
	if !w.r.hdr.has(cJobID) {
		idCol = cJobIDRaw
	}
	id := w.get(idCol)
	if id == "" {
		return nil, w.bad(idCol, errors.New("empty job id"))
	}
	if strings.Contains(id, ".") || strings.Contains(w.get(cJobIDRaw), ".") {
		return nil, w.bad(idCol, errStep)
	}
	state, err := parseState(w.get(cState))
	if err != nil {
		return nil, w.bad(cState, err)
	}
	submit, known, perr := w.calendar(cSubmit)
	if perr != nil {
		return nil, perr
	}
	if !known {
		return nil, w.bad(cSubmit, errors.New("no submit time"))
	}
	eligible, eligibleKnown, perr := w.calendar(cEligible)
	if perr != nil {
		return nil, perr
	}
	start, started, perr := w.calendar(cStart)
	if perr != nil {
		return nil, perr
	}
	end, ended, perr := w.calendar(cEnd)
	if perr != nil {
		return nil, perr
	}
	alloc, perr := w.tres(cAllocTRES)
	if perr != nil {
		return nil, perr
	}
	req, perr := w.tres(cReqTRES)
	if perr != nil {
		return nil, perr
	}
	ncpus, hasNCPUS, perr := w.count(cNCPUS)
	if perr != nil {
		return nil, perr
	}
	elapsed, hasElapsed, perr := w.elapsed()
	if perr != nil {
		return nil, perr
	}

	// Jobs that never ran. Slurm dumps a job cancelled while pending with
	// a Start (its cancel time, = End) but nothing allocated.
	switch state {
	case "PENDING":
		return nil, w.bad(cState, errPending)
	case "REVOKED":
		return nil, w.bad(cState, errRevoked)
	}
	if !started || w.nothingAllocated(state, alloc, ncpus, hasNCPUS, start, end, ended) {
		if state == "CANCELLED" {
			return nil, w.bad(cState, errCancelledBefore)
		}
		return nil, w.bad(cStart, errNeverStarted)
	}
	if start.Before(submit) {
		return nil, w.bad(cStart, errors.New("the job starts before its Submit time"))
	}

	var runtime sim.Time
	switch {
	case ended:
		if end.Before(start) {
			return nil, w.bad(cEnd, errors.New("the job ends before its Start time"))
		}
		runtime = sim.Time(end.Unix()-start.Unix()) * sim.Second
	case hasElapsed:
		runtime = elapsed
	default:
		return nil, w.bad(cEnd, errNoRuntime)
	}

	j := &sim.Job{ID: id, Runtime: runtime, Gang: true, Recorded: true}
	arrival := submit
	if w.r.opt.SubmitAtEligible && eligibleKnown && eligible.After(submit) {
		arrival = eligible
	}
	if arrival.Before(w.r.epoch) {
		return nil, w.bad(cSubmit, errors.New("submitted before the epoch"))
	}
	j.Submit = w.r.simTime(arrival)
	j.RecordedStart = w.r.simTime(start)
	j.Partition = w.r.intern(w.get(cPartition))
	j.QOS = w.r.intern(w.get(cQOS))
	j.User = w.r.intern(w.get(cUser))
	j.Group = w.r.intern(w.get(cAccount))
	prio, _, perr := w.count(cPriority)
	if perr != nil {
		return nil, perr
	}
	j.Priority = int(prio)
	if j.Walltime, perr = w.walltime(j.Partition); perr != nil {
		return nil, perr
	}
	if perr := w.shape(j, alloc, req, ncpus); perr != nil {
		return nil, perr
	}
	if w.r.hdr.has(cDependency) && !w.r.opt.SubmitAtEligible {
		_, index, _ := strings.Cut(id, "_")
		deps, err := parseDependency(w.get(cDependency), index)
		if err != nil {
			return nil, w.bad(cDependency, err)
		}
		j.DependsOn = deps
	}
	return j, nil
}

// nothingAllocated reports whether the record shows no allocation: its
// AllocTRES is empty and its NCPUS 0, where the dump has them; for a dump
// with neither, a cancelled job whose Start equals its End.
func (w row) nothingAllocated(state string, alloc tres, ncpus int64, hasNCPUS bool, start, end time.Time, ended bool) bool {
	hasAlloc := w.r.hdr.has(cAllocTRES)
	if !hasAlloc && !w.r.hdr.has(cNCPUS) {
		return state == "CANCELLED" && ended && start.Equal(end)
	}
	return (!hasAlloc || alloc.empty) && (!hasNCPUS || ncpus == 0)
}

// tres reads a TRES column (absent or empty: an empty list).
func (w row) tres(c column) (tres, *traces.ParseError) {
	t, err := parseTRES(w.get(c))
	if err != nil {
		return t, w.bad(c, err)
	}
	return t, nil
}

// elapsed reads Elapsed ([D-]HH:MM:SS), else ElapsedRaw (seconds).
func (w row) elapsed() (sim.Time, bool, *traces.ParseError) {
	if s := w.get(cElapsed); s != "" {
		t, unlimited, err := slurmconf.ParseDuration(s)
		if err != nil || unlimited {
			return 0, false, w.bad(cElapsed, slurmconf.ErrBadDuration)
		}
		return t, true, nil
	}
	v, has, perr := w.count(cElapsedRaw)
	return sim.Time(v) * sim.Second, has, perr
}

// walltime reads Timelimit, else TimelimitRaw (minutes): UNLIMITED is
// none, Partition_Limit the partition's limit from the options.
func (w row) walltime(partition string) (sim.Time, *traces.ParseError) {
	col, s := cTimelimit, w.get(cTimelimit)
	if s == "" {
		col, s = cTimelimitRaw, w.get(cTimelimitRaw)
	}
	switch {
	case s == "":
		return sim.NoWalltime, nil
	case strings.EqualFold(s, "Partition_Limit"):
		if t, ok := w.r.opt.PartitionTimeLimit[partition]; ok {
			return t, nil
		}
		return sim.NoWalltime, nil
	}
	if col == cTimelimitRaw && !strings.EqualFold(s, "UNLIMITED") {
		v, err := parseCount(s)
		if err != nil || v > 100*366*1440 {
			return 0, w.bad(col, errCount)
		}
		return sim.Time(v) * 60 * sim.Second, nil
	}
	t, unlimited, err := slurmconf.ParseDuration(s)
	if err != nil {
		return 0, w.bad(col, err)
	}
	if unlimited {
		return sim.NoWalltime, nil
	}
	return t, nil
}

// intern shares one string per distinct name.
func (r *Reader) intern(s string) string {
	if v, ok := r.names[s]; ok {
		return v
	}
	r.names[s] = s
	return s
}
