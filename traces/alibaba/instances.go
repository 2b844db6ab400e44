package alibaba

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Reasons an instance record is dropped.
var (
	errJobOrder     = errors.New("instances of a job not where batch_task lists it (the tables must list jobs in the same order)")
	errTaskNotInJob = errors.New("instance of a task its job does not have in batch_task")
)

// instanceJoin walks batch_instance beside batch_task. Both tables list a
// job's rows together and, it assumes, jobs in the same order, so one
// job's instances are read at a time: a merge join that holds one job's
// per-task summary, never the table.
type instanceJoin struct {
	t     *traces.CSVTable
	r     *Reader
	ahead *instanceRow // first row of the next job's instances
	held  *instanceGroup
	eof   bool
}

type instanceRow struct {
	line       int
	task, job  string
	start, end sim.Time
}

// instanceGroup summarises one job's instances per task.
type instanceGroup struct {
	job   string
	line  int
	tasks map[string]*instanceStats
}

type instanceStats struct {
	longest sim.Time // longest instance run, end − start
	rows    int
	line    int // first row, for errors
	used    bool
}

// attach sets the runtime of each task of job's run to its longest
// instance, when the next job of batch_instance is this one.
func (j *instanceJoin) attach(job string, run []*taskRow) error {
	if j.held == nil {
		g, err := j.readGroup()
		if err != nil {
			return err
		}
		j.held = g
	}
	g := j.held
	if g == nil {
		return nil
	}
	if g.job != job {
		// This job has no instances, or the orders differ: hold the group
		// for the next jobs; finish reports it if none takes it.
		return nil
	}
	j.held = nil
	for _, t := range run {
		if s, ok := g.tasks[t.name]; ok {
			t.runtime = s.longest
			s.used = true
		}
	}
	for _, s := range g.byLine() {
		if s.used {
			continue
		}
		for k := 0; k < s.rows; k++ {
			if err := j.r.reject(j.t.Name, s.line, "task_name", errTaskNotInJob); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish counts the instances no job of batch_task took.
func (j *instanceJoin) finish() error {
	for {
		if j.held != nil {
			for _, s := range j.held.byLine() {
				for k := 0; k < s.rows; k++ {
					if err := j.r.reject(j.t.Name, s.line, "job_name", withDetails(errJobOrder,
						fmt.Sprintf("job %s is not in batch_task, or not in the same place", j.held.job))); err != nil {
						return err
					}
				}
			}
		}
		g, err := j.readGroup()
		if err != nil {
			return err
		}
		if g == nil {
			j.held = nil
			return nil
		}
		j.held = g
	}
}

// byLine lists the group's tasks in file order, for deterministic reports.
func (g *instanceGroup) byLine() []*instanceStats {
	out := make([]*instanceStats, 0, len(g.tasks))
	for _, s := range g.tasks {
		out = append(out, s)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].line < out[b].line })
	return out
}

// readGroup reads the next job's instances; nil at the end.
func (j *instanceJoin) readGroup() (*instanceGroup, error) {
	var g *instanceGroup
	for {
		if j.ahead == nil {
			if j.eof {
				return g, nil
			}
			row, err := j.readRow()
			if err != nil {
				return nil, err
			}
			if row == nil {
				j.eof = true
				return g, nil
			}
			j.ahead = row
		}
		row := j.ahead
		if g != nil && row.job != g.job {
			return g, nil
		}
		j.ahead = nil
		if g == nil {
			g = &instanceGroup{job: row.job, line: row.line, tasks: map[string]*instanceStats{}}
		}
		s := g.tasks[row.task]
		if s == nil {
			s = &instanceStats{line: row.line}
			g.tasks[row.task] = s
		}
		s.rows++
		s.longest = max(s.longest, row.end-row.start)
	}
}

// readRow reads the next good instance row; nil at the end. Bad rows are
// rejected here.
func (j *instanceJoin) readRow() (*instanceRow, error) {
	for {
		row, line, err := j.t.Next(j.r.opt.Strict, &j.r.skips)
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		ir, bad := parseInstance(row, line)
		if bad != nil {
			if err := j.r.reject(j.t.Name, line, bad.field, bad.err); err != nil {
				return nil, err
			}
			continue
		}
		return ir, nil
	}
}

// parseInstance checks the fields of a batch_instance row the reader
// uses: task_name, job_name, start_time, end_time. The others (machine,
// sequence numbers, usage) are not read.
func parseInstance(row []string, line int) (*instanceRow, *fieldError) {
	ir := &instanceRow{line: line, task: row[1], job: row[2]}
	if ir.task == "" {
		return nil, &fieldError{"task_name", errMissing}
	}
	if ir.job == "" {
		return nil, &fieldError{"job_name", errMissing}
	}
	var bad *fieldError
	if ir.start, ir.end, bad = parseSpan(row[5], row[6]); bad != nil {
		return nil, bad
	}
	return ir, nil
}
