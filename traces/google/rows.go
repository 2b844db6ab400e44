package google

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// This file holds what both versions' tables are parsed into: one row
// type for the task, job and constraint tables (merged by time), one for
// machine events and one for machine attributes.

// eventKind is a job or task life event, the same in both versions (the
// enums differ: see kinds2011 and kinds2019).
type eventKind uint8

const (
	evSubmit        eventKind = iota
	evQueue                   // 2019 QUEUE and ENABLE: still pending
	evSchedule                // started running
	evEvict                   // descheduled for a higher priority or overcommitment
	evFail                    // descheduled by a failure
	evFinish                  // completed normally
	evKill                    // cancelled
	evLost                    // presumably ended; data missing
	evUpdatePending           // request or class changed while pending
	evUpdateRunning           // changed while running
	evTraceEnd                // not ended when the trace ends (not an event of the trace)
)

var eventNames = [...]string{"submit", "queue", "schedule", "evict", "fail", "finish", "kill", "lost", "update-pending", "update-running", "trace-end"}

func (k eventKind) String() string { return eventNames[k] }

// ends reports whether k ends a run or a pending attempt.
func (k eventKind) ends() bool { return k >= evEvict && k <= evLost }

// Event enums: 2011 (format + schema v2.1) and 2019 (v3 proto EventType).
var (
	kinds2011 = []eventKind{evSubmit, evSchedule, evEvict, evFail, evFinish, evKill, evLost, evUpdatePending, evUpdateRunning}
	kinds2019 = []eventKind{evSubmit, evQueue, evQueue, evSchedule, evEvict, evFail, evFinish, evKill, evLost, evUpdatePending, evUpdateRunning}
)

// Tables of the merged stream, in the order rows of one instant are
// applied: job events (a job is known before its tasks), then task events,
// then the constraints given with them. A job's end is applied after every
// row of its instant (tracker.apply), so its tasks end first.
const (
	tabJob uint8 = iota
	tabTask
	tabConstraint
)

// Bits of row.has: which optional fields a row gives.
const (
	hasCPU uint8 = 1 << iota
	hasMem
	hasDisk
	hasClass
	hasPriority
	hasDiffMachine
	hasConstraints
	hasMaxPerMachine
)

// row is one record of a task, job or constraint table.
type row struct {
	time  sim.Time
	table uint8
	kind  eventKind
	has   uint8
	job   int64 // job (collection) id
	index int32 // task (instance) index
	class int8  // scheduling class 0–3
	// diffMachine is 2011's different-machines restriction (2019: a
	// collection's max_per_machine of 1).
	diffMachine bool
	priority    int32
	cpu         float64
	mem         float64
	disk        float64
	user        string
	// cons are the task's constraints: a 2011 task_constraints row holds
	// one, a 2019 instance event its whole constraint field.
	cons []sim.Constraint
	// alloc is a 2019 task's alloc set (0: none); allocSet marks a 2019
	// collection or instance that is an alloc set, not a job.
	alloc    int64
	allocSet bool
}

// Machine event kinds, the same in both versions (2011: 0–2, 2019: 1–3).
const (
	machineAdd uint8 = iota
	machineRemove
	machineUpdate
)

// machineRow is one machine event.
type machineRow struct {
	time     sim.Time
	id       int64
	kind     uint8
	has      uint8 // hasCPU, hasMem
	cpu, mem float64
	platform string
	switchID string // 2019 only
}

// attrRow is one machine attribute record.
type attrRow struct {
	time    sim.Time
	id      int64
	name    string
	value   string
	deleted bool
}

// fieldError is a bad field, before the file and line are known.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }

func badField(field string, format string, args ...any) *fieldError {
	return &fieldError{field: field, err: fmt.Errorf(format, args...)}
}

// Value checks shared by both versions.

var errNegative = errors.New("negative")

// maxNormalised bounds a normalised amount: the largest machine is 1.
const maxNormalised = 1000

func checkAmount(v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("not a finite number")
	case v < 0:
		return errNegative
	case v > maxNormalised:
		return fmt.Errorf("%g is above %d (normalised: the largest machine is 1)", v, maxNormalised)
	}
	return nil
}

func parseInt(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not an integer: %q", s)
	}
	return v, nil
}

func parseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	return v, checkAmount(v)
}
