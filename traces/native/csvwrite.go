package native

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// CSVWriter writes jobs as CSV one at a time, with the columns it was
// made with: the job's own fields, a req_<resource> column per resource,
// and the recorded, trait and depends_on columns that some job uses.
// Lists and objects are compact JSON in one cell.
type CSVWriter struct {
	cw    *csv.Writer
	cols  Columns
	extra []field // recorded, trait and depends_on columns, in header order
	row   []string
	buf   []byte
}

// NewCSVWriter writes the header row for cols and returns the writer.
// Call Flush at the end.
func NewCSVWriter(w io.Writer, cols Columns) (*CSVWriter, error) {
	for _, r := range cols.Resources {
		if err := csvColumnName(r); err != nil {
			return nil, err
		}
	}
	header := []string{"id", "submit_s", "runtime_s", "walltime_s", "tasks"}
	for _, r := range cols.Resources {
		header = append(header, reqPrefix+r)
	}
	header = append(header, "user", "group", "queue", "partition", "priority", "gang")
	extra := cols.optional()
	for _, f := range extra {
		header = append(header, f.String())
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return nil, err
	}
	return &CSVWriter{cw: cw, cols: cols, extra: extra, row: make([]string, len(header))}, nil
}

// Write writes one job. A job the reader would reject, or one with a
// resource or trait that has no column, is an error naming it.
func (w *CSVWriter) Write(j *sim.Job) error {
	if err := checkJob(j); err != nil {
		return fmt.Errorf("job %q: %w", j.ID, err)
	}
	if err := w.cols.fits(j); err != nil {
		return err
	}
	row := w.row
	clear(row)
	row[0] = j.ID
	row[1] = sim.FormatSeconds(j.Submit)
	row[2] = sim.FormatSeconds(j.Runtime)
	if j.Walltime != sim.NoWalltime {
		row[3] = sim.FormatSeconds(j.Walltime)
	}
	row[4] = strconv.Itoa(j.Tasks)
	for _, q := range j.Request {
		i, _ := w.cols.resource(q.Resource)
		row[5+i] = q.Amount.String()
	}
	rest := row[5+len(w.cols.Resources):]
	rest[0], rest[1], rest[2], rest[3] = j.User, j.Group, j.Queue, j.Partition
	rest[4] = strconv.Itoa(j.Priority)
	rest[5] = strconv.FormatBool(writtenGang(j))
	for k, f := range w.extra {
		switch {
		case f == fQOS:
			rest[6+k] = j.QOS
		case f == fRequestedProcs:
			if j.RequestedProcs != 0 {
				rest[6+k] = strconv.FormatInt(j.RequestedProcs, 10)
			}
		case f == fRecordedStart:
			if j.Recorded {
				rest[6+k] = sim.FormatSeconds(j.RecordedStart)
			}
		case f == fDependsOn:
			if len(j.DependsOn) > 0 {
				w.buf = appendDeps(w.buf[:0], j.DependsOn)
				rest[6+k] = string(w.buf)
			}
		case j.Traits != nil:
			w.buf, rest[6+k] = traitText(w.buf, f, j.Traits)
		}
	}
	return w.cw.Write(row)
}

// Flush writes what is buffered and returns the first write error.
func (w *CSVWriter) Flush() error {
	w.cw.Flush()
	return w.cw.Error()
}

// csvColumnName rejects a resource name the CSV reader would read back
// differently: it trims the spaces around a column name.
func csvColumnName(r string) error {
	if strings.TrimSpace(r) != r {
		return fmt.Errorf("resource %q: a CSV column name cannot start or end with a space", r)
	}
	return nil
}
