package alibaba

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Columns of the tables, in the order of the v2018 schema
// (alibaba/clusterdata, cluster-trace-v2018/schema.md).
var (
	taskColumns = []string{"task_name", "instance_num", "job_name", "task_type", "status",
		"start_time", "end_time", "plan_cpu", "plan_mem"}
	instanceColumns = []string{"instance_name", "task_name", "job_name", "task_type", "status",
		"start_time", "end_time", "machine_id", "seq_no", "total_seq_no", "cpu_avg", "cpu_max", "mem_avg", "mem_max"}
	machineColumns = []string{"machine_id", "time_stamp", "failure_domain_1", "failure_domain_2",
		"cpu_num", "mem_size", "status"}
)

// Reasons a record is bad: the skip reasons lenient mode counts. Strict
// errors wrap them with the record's details.
var (
	errMissing        = errors.New("missing")
	errNotCount       = errors.New("not a whole number ≥ 1")
	errNotTime        = errors.New("not a time in seconds ≥ 0")
	errOutsideWindow  = errors.New("time 0 (before or after the 8-day trace window)")
	errEndBeforeStart = errors.New("before start_time")
	errNotAmount      = errors.New("not a number ≥ 0")
	errMemRange       = errors.New("outside the normalised range 0–100")
)

// detailed is a reason with the record's particulars. Strict errors show
// both; lenient mode counts records by the reason alone, so that a large
// trace has a handful of skip reasons, not one per record.
type detailed struct {
	reason error
	text   string
}

func (d *detailed) Error() string { return d.reason.Error() + ": " + d.text }
func (d *detailed) Unwrap() error { return d.reason }

// detail wraps a reason with the offending value.
func detail(reason error, value string) error {
	return &detailed{reason, fmt.Sprintf("got %q", value)}
}

// withDetails wraps a reason with free text; none when text is "".
func withDetails(reason error, text string) error {
	if text == "" {
		return reason
	}
	return &detailed{reason, text}
}

// reason strips the particulars off err, for counting skips.
func reason(err error) error {
	var d *detailed
	if errors.As(err, &d) {
		return d.reason
	}
	return err
}

// taskRow is one batch_task record: one task of a job.
type taskRow struct {
	line      int
	name      string
	parsed    TaskName
	instances int
	job       string
	taskType  string
	start     sim.Time
	end       sim.Time
	cpu, mem  sim.Amount
	// runtime is the longest instance's run time when batch_instance gave
	// one, else end − start.
	runtime sim.Time
}

// fieldError is a bad field of a row: its column and what is wrong.
type fieldError struct {
	field string
	err   error
}

// parseTask checks a batch_task row. On error it still returns the names
// it could read (job and task name), so that dependents of a skipped task
// can say so.
func parseTask(row []string, line int) (*taskRow, *fieldError) {
	t := &taskRow{line: line, name: row[0], job: row[2], taskType: strings.TrimSpace(row[3])}
	if t.job == "" {
		return t, &fieldError{"job_name", errMissing}
	}
	if t.name == "" {
		return t, &fieldError{"task_name", errMissing}
	}
	var err error
	if t.parsed, err = ParseTaskName(t.name); err != nil {
		return t, &fieldError{"task_name", err}
	}
	n, err := strconv.Atoi(strings.TrimSpace(row[1]))
	if err != nil || n < 1 {
		return t, &fieldError{"instance_num", detail(errNotCount, row[1])}
	}
	t.instances = n
	var ferr *fieldError
	if t.start, t.end, ferr = parseSpan(row[5], row[6]); ferr != nil {
		return t, ferr
	}
	t.runtime = t.end - t.start
	if t.cpu, err = parsePlan(row[7], 10, false); err != nil { // plan_cpu: 100 = one core = 1000 milli
		return t, &fieldError{"plan_cpu", err}
	}
	if t.mem, err = parsePlan(row[8], 1000, true); err != nil {
		return t, &fieldError{"plan_mem", err}
	}
	return t, nil
}

// parseSpan reads start_time and end_time: whole seconds from the start
// of the trace, where 0 means outside the trace window.
func parseSpan(start, end string) (sim.Time, sim.Time, *fieldError) {
	s, err := parseTime(start)
	if err != nil {
		return 0, 0, &fieldError{"start_time", err}
	}
	e, err := parseTime(end)
	if err != nil {
		return 0, 0, &fieldError{"end_time", err}
	}
	if e < s {
		return 0, 0, &fieldError{"end_time", withDetails(errEndBeforeStart, fmt.Sprintf("%s < %s", strings.TrimSpace(end), strings.TrimSpace(start)))}
	}
	return s, e, nil
}

// parseTime reads a time stamp in seconds; 0 is outside the window.
func parseTime(s string) (sim.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errMissing
	}
	t, err := sim.ParseSeconds(s)
	if err != nil || t < 0 || t > maxTime {
		return 0, detail(errNotTime, s)
	}
	if t == 0 {
		return 0, errOutsideWindow
	}
	return t, nil
}

// maxTime bounds time stamps (about 31 years) so sums never overflow.
const maxTime = sim.Time(1e9) * sim.Second

// parsePlan reads plan_cpu or plan_mem into milli-units: the value times
// scale (10 for plan_cpu, where 100 is one core; 1000 for plan_mem, kept
// in its normalised unit), rounded to the nearest milli-unit.
func parsePlan(s string, scale float64, normalised bool) (sim.Amount, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errMissing
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1e12 {
		return 0, detail(errNotAmount, s)
	}
	if normalised && f > 100 {
		return 0, detail(errMemRange, s)
	}
	return sim.Amount(math.Round(f * scale)), nil
}
