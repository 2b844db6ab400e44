package metrics

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
)

// Batsim's jobs output. Batsim writes out_jobs.csv, one row per job, and
// its users' scripts (and evalys, its analysis library) read that file; a
// schedsim run exported to it reads unchanged. The columns, their order and
// meanings follow Batsim's documentation of the file (docs/output-jobs.rst
// in oar-team/batsim).

// BatsimJobsColumns are the columns of Batsim's out_jobs.csv, in order.
var BatsimJobsColumns = []string{
	"job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources", "requested_time",
	"success", "final_state", "starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time",
	"stretch", "allocated_resources", "consumed_energy", "metadata",
}

// DefaultBatsimWorkload is the workload name Batsim gives its first
// workload.
const DefaultBatsimWorkload = "w0"

// BatsimOptions tune WriteBatsimJobs. The zero value is valid.
type BatsimOptions struct {
	// Workload is the workload_name of jobs whose id names none; ""
	// means DefaultBatsimWorkload. A Batsim id "w1!7" (a run of a Batsim
	// workload) is job_id 7 of workload w1 whatever Workload says.
	Workload string
	// PoolProcessors, when above 0, says the run is in the SWF pool model
	// with that many processors: Batsim's resources are then the
	// processors (one host each), requested_number_of_resources a job's
	// processors and allocated_resources its processors by
	// AssignProcessors. ExportBatsim reads it from run.yaml.
	PoolProcessors int
}

// ExportBatsim writes path as Batsim's out_jobs.csv for the run in
// runDir, whose jobs table is read back (ReadJobs) in any format. The file
// is replaced atomically.
func ExportBatsim(runDir, path string, opt BatsimOptions) error {
	jobs, err := ReadJobs(runDir)
	if err != nil {
		return err
	}
	if opt.PoolProcessors == 0 {
		if opt.PoolProcessors, err = PoolProcessors(runDir); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteBatsimJobs(w, jobs, opt) })
}

// WriteBatsimJobs writes jobs (a run's jobs table) to w as Batsim's
// out_jobs.csv, one row per job in the table's order (the order jobs left
// the system, as Batsim writes them):
//
//	job_id, workload_name  the trace's id; "w!n" splits into n and w
//	profile                "" (schedsim jobs have no Batsim profile)
//	submission_time        submit_s
//	requested_number_of_resources  tasks: hosts in the nodes model and on
//	                       Batsim platforms (one task per host);
//	                       processors in the pool model
//	                       (opt.PoolProcessors)
//	requested_time         walltime_s; -1 (Batsim's "none") when the trace
//	                       gives none
//	success                1 for a completed job, else 0
//	final_state            COMPLETED_SUCCESSFULLY (completed),
//	                       COMPLETED_WALLTIME_REACHED (killed at its
//	                       walltime), COMPLETED_KILLED (killed otherwise:
//	                       node failures, preemption), REJECTED; a run
//	                       cut short leaves SUBMITTED (still queued) and
//	                       RUNNING jobs, which Batsim never has
//	starting_time, execution_time, finish_time, waiting_time,
//	turnaround_time        start_s, runtime_s, end_s, wait_s, turnaround_s;
//	                       empty where the job never started or ended
//	stretch                slowdown (turnaround / execution time); empty
//	                       when either is (Batsim prints inf for a job
//	                       that ran 0 s)
//	allocated_resources    node_list as a Batsim interval set: node
//	                       indices, ranges a-b, separated by spaces ("0-3 7");
//	                       in the pool model the job's processors
//	                       (AssignProcessors)
//	consumed_energy        energy_j, empty for a job that never started.
//	                       Note: schedsim's job energy is the dynamic part,
//	                       above the nodes' idle draw; Batsim's includes
//	                       the idle draw of the job's hosts.
//	metadata               ""
//
// Times print as Batsim prints them, with six decimals, which is exact for
// the engine's microseconds; stretch and energy print in the fewest digits
// that read back to the same float64.
func WriteBatsimJobs(w io.Writer, jobs *Table, opt BatsimOptions) error {
	for _, c := range []struct {
		name string
		typ  arrow.Type
	}{
		{"job_id", arrow.STRING}, {"state", arrow.STRING}, {"reason", arrow.STRING}, {"node_list", arrow.STRING},
		{"tasks", arrow.INT64}, {"submit_s", arrow.FLOAT64}, {"walltime_s", arrow.FLOAT64}, {"start_s", arrow.FLOAT64},
		{"runtime_s", arrow.FLOAT64}, {"end_s", arrow.FLOAT64}, {"wait_s", arrow.FLOAT64}, {"turnaround_s", arrow.FLOAT64},
		{"slowdown", arrow.FLOAT64}, {"energy_j", arrow.FLOAT64},
	} {
		if !jobs.hasType(c.name, c.typ) {
			return fmt.Errorf("%s: no %s column %q: not a schedsim jobs table", jobs.Path(), c.typ, c.name)
		}
	}
	workload := opt.Workload
	if workload == "" {
		workload = DefaultBatsimWorkload
	}
	var procs []int
	var alloc []IntervalSet
	if opt.PoolProcessors > 0 {
		var err error
		if procs, alloc, err = poolAssignment(jobs, opt.PoolProcessors); err != nil {
			return err
		}
	}
	buf := []byte(strings.Join(BatsimJobsColumns, ",") + "\n")
	for i := range jobs.Len() {
		state := jobs.Str("state", i)
		final, err := batsimState(state, jobs.Str("reason", i))
		if err != nil {
			return fmt.Errorf("%s: row %d: %w", jobs.Path(), i+1, err)
		}
		id, wl := jobs.Str("job_id", i), workload
		if w, n, ok := strings.Cut(id, "!"); ok {
			id, wl = n, w
		}
		buf = appendCSVString(buf, id)
		buf = append(buf, ',')
		buf = appendCSVString(buf, wl)
		buf = append(buf, ",,"...) // no profile
		buf = appendBatsimTime(buf, jobs, "submit_s", i)
		buf = append(buf, ',')
		tasks, _ := jobs.Int("tasks", i)
		if procs != nil {
			tasks = int64(procs[i])
		}
		buf = strconv.AppendInt(buf, tasks, 10)
		buf = append(buf, ',')
		if _, ok := jobs.Float("walltime_s", i); ok {
			buf = appendBatsimTime(buf, jobs, "walltime_s", i)
		} else {
			buf = append(buf, "-1.000000"...) // Batsim's walltime for none
		}
		buf = append(buf, ',')
		if state == "completed" {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
		buf = append(buf, ',')
		buf = append(buf, final...)
		for _, col := range []string{"start_s", "runtime_s", "end_s", "wait_s", "turnaround_s"} {
			buf = append(buf, ',')
			buf = appendBatsimTime(buf, jobs, col, i)
		}
		buf = append(buf, ',')
		if x, ok := jobs.Float("slowdown", i); ok {
			buf = strconv.AppendFloat(buf, x, 'f', -1, 64)
		}
		buf = append(buf, ',')
		if alloc != nil {
			buf = append(buf, alloc[i].Format(" ")...)
		} else {
			buf = append(buf, strings.ReplaceAll(jobs.Str("node_list", i), ",", " ")...)
		}
		buf = append(buf, ',')
		if _, started := jobs.Float("start_s", i); started {
			e, _ := jobs.Float("energy_j", i)
			buf = strconv.AppendFloat(buf, e, 'f', -1, 64)
		}
		buf = append(buf, ",\n"...) // no metadata
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// batsimState is Batsim's final_state of a job that left schedsim in
// state, killed or rejected for reason.
func batsimState(state, reason string) (string, error) {
	switch state {
	case "completed":
		return "COMPLETED_SUCCESSFULLY", nil
	case "killed":
		if reason == walltimeKill {
			return "COMPLETED_WALLTIME_REACHED", nil
		}
		return "COMPLETED_KILLED", nil
	case "rejected":
		return "REJECTED", nil
	case "queued":
		return "SUBMITTED", nil
	case "running":
		return "RUNNING", nil
	}
	return "", fmt.Errorf("unknown job state %q", state)
}

// walltimeKill is the engine's reason for a job killed at its walltime.
const walltimeKill = "walltime exceeded"

// appendBatsimTime appends a seconds column's row i with six decimals, or
// nothing when it is null.
func appendBatsimTime(dst []byte, jobs *Table, col string, i int) []byte {
	if x, ok := jobs.Float(col, i); ok {
		dst = strconv.AppendFloat(dst, x, 'f', 6, 64)
	}
	return dst
}

// poolAssignment is every job's processors (tasks × the request's cpu)
// and their interval set in a pool of capacity processors.
func poolAssignment(jobs *Table, capacity int) ([]int, []IntervalSet, error) {
	for _, c := range []string{"request", "start_s", "end_s"} {
		if !jobs.Has(c) {
			return nil, nil, fmt.Errorf("%s: no column %q: not a schedsim jobs table", jobs.Path(), c)
		}
	}
	procs := make([]int, jobs.Len())
	pj := make([]PoolJob, jobs.Len())
	for i := range pj {
		per, ok := RequestProcs(jobs.Str("request", i))
		if !ok {
			return nil, nil, fmt.Errorf("%s: row %d: request %q names no processors (cpu=N) of the pool", jobs.Path(), i+1, jobs.Str("request", i))
		}
		tasks, _ := jobs.Int("tasks", i)
		procs[i] = per * int(tasks)
		pj[i] = PoolJob{Start: math.NaN(), End: math.NaN(), Procs: procs[i]}
		if x, ok := jobs.Float("start_s", i); ok {
			pj[i].Start = x
		}
		if x, ok := jobs.Float("end_s", i); ok {
			pj[i].End = x
		}
	}
	sets, err := AssignProcessors(pj, capacity)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", jobs.Path(), err)
	}
	return procs, sets, nil
}
