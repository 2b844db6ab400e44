package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// DecisionLog is the decisions table (replay --explain): one row per placed
// task with the node chosen, the total score and each scorer's own score
// (unweighted, in [0, 1]) for that node. It is written with the run's other
// tables, atomically, as decisions.<format>.
type DecisionLog struct {
	*table
	scorers []string
	rows    []decisionRow
	// The encoder's builders.
	job, node          *array.StringBuilder
	task               *array.Int64Builder
	timeS, total       *array.Float64Builder
	scores             []*array.Float64Builder
	nodeNames          []string
	pendingScoreValues []float64 // len(rows) × len(scorers), staged
}

type decisionRow struct {
	at    sim.Time
	job   string
	task  int64
	node  int32
	total float64
}

// Decisions opens the decisions table with a column per scorer, named
// score_<scorer> in snake_case (the same scorer twice gets _2).
func (r *Recorder) Decisions(scorers []string) (*DecisionLog, error) {
	fields := []arrow.Field{
		{Name: "time_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "job_id", Type: arrow.BinaryTypes.String},
		{Name: "task", Type: arrow.PrimitiveTypes.Int64}, // from 0
		{Name: "node", Type: arrow.BinaryTypes.String},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64}, // weighted total
	}
	cols := resourceNames(scorers) // distinct snake_case names
	for _, s := range cols {
		fields = append(fields, arrow.Field{Name: "score_" + s, Type: arrow.PrimitiveTypes.Float64})
	}
	tb, err := newStreamedTable(r.dir, "decisions", r.opt.Format, arrow.NewSchema(fields, nil), r.mem)
	if err != nil {
		return nil, err
	}
	r.tables = append(r.tables, tb)
	b := builders{tb.rb}
	d := &DecisionLog{table: tb, scorers: scorers, job: b.str("job_id"), node: b.str("node"),
		task: b.i64("task"), timeS: b.f64("time_s"), total: b.f64("score")}
	for _, s := range cols {
		d.scores = append(d.scores, b.f64("score_"+s))
	}
	for _, n := range r.c.Nodes {
		d.nodeNames = append(d.nodeNames, n.Name)
	}
	return d, nil
}

// Add stages one decision. scores has one value per scorer.
func (d *DecisionLog) Add(at sim.Time, job string, task int, node int32, total float64, scores []float64) error {
	d.rows = append(d.rows, decisionRow{at, job, int64(task), node, total})
	d.pendingScoreValues = append(d.pendingScoreValues, scores...)
	if len(d.rows) >= rowsPerRecord {
		return d.Flush()
	}
	return nil
}

// Flush sends the staged rows to the encoder; the recorder's Close
// finishes the file, so call Flush once after the run.
func (d *DecisionLog) Flush() error {
	rows, vals := d.rows, d.pendingScoreValues
	d.rows, d.pendingScoreValues = nil, nil
	if len(rows) == 0 {
		return nil
	}
	k := len(d.scorers)
	return d.send(func(*array.RecordBuilder) {
		for i, r := range rows {
			d.timeS.Append(r.at.Seconds())
			d.job.Append(r.job)
			d.task.Append(r.task)
			d.node.Append(d.nodeNames[r.node])
			d.total.Append(r.total)
			for s := 0; s < k; s++ {
				d.scores[s].Append(vals[i*k+s])
			}
		}
	})
}
