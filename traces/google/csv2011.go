package google

import (
	"bytes"
	"fmt"
	"math"

	"github.com/schedsim/schedsim/sim"
)

// The 2011 tables (clusterdata-2011-2, "Google cluster-usage traces:
// format + schema", version 2.1): headerless CSV, one record a line, the
// columns below in this order. Field names in errors are "N (name)" with
// N counted from 1, as the schema document numbers them.
var (
	cols2011Task = []string{"time", "missing info", "job ID", "task index", "machine ID", "event type", "user",
		"scheduling class", "priority", "CPU request", "memory request", "disk space request", "different machines restriction"}
	cols2011Job        = []string{"time", "missing info", "job ID", "event type", "user", "scheduling class", "job name", "logical job name"}
	cols2011Constraint = []string{"time", "job ID", "task index", "comparison operator", "attribute name", "attribute value"}
	cols2011Machine    = []string{"time", "machine ID", "event type", "platform ID", "CPUs", "Memory"}
	cols2011Attr       = []string{"time", "machine ID", "attribute name", "attribute value", "attribute deleted"}
)

// csvFields splits a line at commas. The trace quotes nothing (hashes are
// base64 without commas), so a plain split is exact and fast.
type csvFields struct {
	f    [][]byte
	cols []string
}

func (c *csvFields) split(line []byte) *fieldError {
	c.f = c.f[:0]
	for {
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			c.f = append(c.f, line)
			break
		}
		c.f = append(c.f, line[:i])
		line = line[i+1:]
	}
	if len(c.f) != len(c.cols) {
		return &fieldError{err: fmt.Errorf("%d fields, want %d", len(c.f), len(c.cols))}
	}
	return nil
}

func (c *csvFields) name(i int) string { return fmt.Sprintf("%d (%s)", i+1, c.cols[i]) }

func (c *csvFields) empty(i int) bool { return len(c.f[i]) == 0 }

func (c *csvFields) str(i int) string { return string(c.f[i]) }

// int reads field i as an integer in [lo, hi].
func (c *csvFields) int(i int, lo, hi int64) (int64, *fieldError) {
	if c.empty(i) {
		return 0, badField(c.name(i), "empty (mandatory)")
	}
	v, err := parseInt(string(c.f[i]))
	if err != nil {
		return 0, &fieldError{field: c.name(i), err: err}
	}
	if v < lo || v > hi {
		return 0, badField(c.name(i), "%d out of range %d–%d", v, lo, hi)
	}
	return v, nil
}

func (c *csvFields) time(i int) (sim.Time, *fieldError) {
	v, err := c.int(i, 0, math.MaxInt64)
	return sim.Time(v), err
}

// optInt reads an optional integer field; ok is false when empty.
func (c *csvFields) optInt(i int, lo, hi int64) (v int64, ok bool, err *fieldError) {
	if c.empty(i) {
		return 0, false, nil
	}
	v, err = c.int(i, lo, hi)
	return v, err == nil, err
}

// optAmount reads an optional normalised amount.
func (c *csvFields) optAmount(i int) (float64, bool, *fieldError) {
	if c.empty(i) {
		return 0, false, nil
	}
	v, err := parseFloat(string(c.f[i]))
	if err != nil {
		return 0, false, &fieldError{field: c.name(i), err: err}
	}
	return v, true, nil
}

func (c *csvFields) bool(i int) (bool, *fieldError) {
	switch string(c.f[i]) {
	case "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, badField(c.name(i), "not a boolean (0 or 1): %q", c.f[i])
}

const maxInt32 = math.MaxInt32

// eventHead splits a task_events or job_events record and reads the
// fields both begin with: time, missing info (checked, not kept) and job
// ID.
func (c *csvFields) eventHead(line []byte) (t sim.Time, job int64, ferr *fieldError) {
	if ferr = c.split(line); ferr != nil {
		return 0, 0, ferr
	}
	if t, ferr = c.time(0); ferr != nil {
		return 0, 0, ferr
	}
	if _, _, ferr = c.optInt(1, 0, 3); ferr != nil {
		return 0, 0, ferr
	}
	job, ferr = c.int(2, 0, math.MaxInt64)
	return t, job, ferr
}

// keyedHead splits a record of the other tables and reads the fields
// they begin with: time and an ID (the job's in task_constraints, the
// machine's in machine_events and machine_attributes).
func (c *csvFields) keyedHead(line []byte) (t sim.Time, id int64, ferr *fieldError) {
	if ferr = c.split(line); ferr != nil {
		return 0, 0, ferr
	}
	if t, ferr = c.time(0); ferr != nil {
		return 0, 0, ferr
	}
	id, ferr = c.int(1, 0, math.MaxInt64)
	return t, id, ferr
}

// taskIndex reads field i as a task index.
func (c *csvFields) taskIndex(i int) (int32, *fieldError) {
	v, ferr := c.int(i, 0, maxInt32)
	return int32(v), ferr
}

// amounts reads the optional amounts from field first on into dst, in
// order, and returns the bits of has (hasCPU for the first, shifted by
// one for each next) of those present.
func (c *csvFields) amounts(first int, dst ...*float64) (has uint8, ferr *fieldError) {
	for i, d := range dst {
		v, ok, ferr := c.optAmount(first + i)
		if ferr != nil {
			return 0, ferr
		}
		if ok {
			*d = v
			has |= hasCPU << i
		}
	}
	return has, nil
}

// taskEvent2011 parses a task_events record.
func taskEvent2011(c *csvFields, line []byte) (r row, ferr *fieldError) {
	r.table = tabTask
	if r.time, r.job, ferr = c.eventHead(line); ferr != nil {
		return r, ferr
	}
	if r.index, ferr = c.taskIndex(3); ferr != nil {
		return r, ferr
	}
	if _, _, ferr = c.optInt(4, 0, math.MaxInt64); ferr != nil {
		return r, ferr
	}
	if ferr = c.kindUserClass(5, &r); ferr != nil {
		return r, ferr
	}
	p, ferr := c.int(8, 0, 11)
	if ferr != nil {
		return r, ferr
	}
	r.priority, r.has = int32(p), r.has|hasPriority
	has, ferr := c.amounts(9, &r.cpu, &r.mem, &r.disk)
	if ferr != nil {
		return r, ferr
	}
	r.has |= has
	if !c.empty(12) {
		d, ferr := c.bool(12)
		if ferr != nil {
			return r, ferr
		}
		r.diffMachine, r.has = d, r.has|hasDiffMachine
	}
	return r, nil
}

// jobEvent2011 parses a job_events record.
func jobEvent2011(c *csvFields, line []byte) (r row, ferr *fieldError) {
	r.table = tabJob
	if r.time, r.job, ferr = c.eventHead(line); ferr != nil {
		return r, ferr
	}
	ferr = c.kindUserClass(3, &r)
	return r, ferr
}

// kindUserClass reads the event type, the user and the scheduling class,
// which task_events and job_events give one after the other from field
// first on.
func (c *csvFields) kindUserClass(first int, r *row) *fieldError {
	k, ferr := c.int(first, 0, int64(len(kinds2011)-1))
	if ferr != nil {
		return ferr
	}
	r.kind = kinds2011[k]
	r.user = c.str(first + 1)
	if v, ok, ferr := c.optInt(first+2, 0, 3); ferr != nil {
		return ferr
	} else if ok {
		r.class, r.has = int8(v), r.has|hasClass
	}
	return nil
}

// constraint2011 parses a task_constraints record: one constraint of one
// task.
func constraint2011(c *csvFields, line []byte) (r row, ferr *fieldError) {
	r.table = tabConstraint
	if r.time, r.job, ferr = c.keyedHead(line); ferr != nil {
		return r, ferr
	}
	if r.index, ferr = c.taskIndex(2); ferr != nil {
		return r, ferr
	}
	op, ferr := c.int(3, 0, 3)
	if ferr != nil {
		return r, ferr
	}
	con, badValue, err := constraintOf(op, c.str(4), c.str(5))
	if err != nil {
		at := 4
		if badValue {
			at = 5
		}
		return r, &fieldError{field: c.name(at), err: err}
	}
	r.cons, r.has = []sim.Constraint{con}, r.has|hasConstraints
	return r, nil
}

// machineEvent2011 parses a machine_events record (event type 0 ADD,
// 1 REMOVE, 2 UPDATE).
func machineEvent2011(c *csvFields, line []byte) (m machineRow, ferr *fieldError) {
	if m.time, m.id, ferr = c.keyedHead(line); ferr != nil {
		return m, ferr
	}
	k, ferr := c.int(2, 0, 2)
	if ferr != nil {
		return m, ferr
	}
	m.kind = uint8(k)
	m.platform = c.str(3)
	m.has, ferr = c.amounts(4, &m.cpu, &m.mem)
	return m, ferr
}

// machineAttr2011 parses a machine_attributes record.
func machineAttr2011(c *csvFields, line []byte) (a attrRow, ferr *fieldError) {
	if a.time, a.id, ferr = c.keyedHead(line); ferr != nil {
		return a, ferr
	}
	if a.name = c.str(2); a.name == "" {
		return a, badField(c.name(2), "empty (mandatory)")
	}
	a.value = c.str(3)
	a.deleted, ferr = c.bool(4)
	return a, ferr
}
