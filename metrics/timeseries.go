package metrics

import (
	"slices"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// timeseriesSchema declares the timeseries table for resources named res.
// Each row is the state right after an event time's scheduling pass; it
// holds until the next row's time.
func timeseriesSchema(res []string) *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	fields := []arrow.Field{
		{Name: "time_s", Type: f64},
		{Name: "queued_jobs", Type: arrow.PrimitiveTypes.Int64},
		{Name: "running_jobs", Type: arrow.PrimitiveTypes.Int64},
		{Name: "power_w", Type: f64},
	}
	for _, r := range res {
		// allocated / online capacity; null when the capacity is 0 (tags)
		fields = append(fields, arrow.Field{Name: "utilization_" + r, Type: f64, Nullable: true})
	}
	for _, r := range res {
		fields = append(fields, arrow.Field{Name: "allocated_" + r, Type: f64}) // in units
	}
	return arrow.NewSchema(fields, nil)
}

// seriesTable streams the timeseries. A step that changed nothing (same
// counts, draw and allocations as the last row written) is not written,
// which shrinks the table a lot on traces with many simultaneous events;
// the last step is always written, at Finished, so the series spans the
// whole run.
type seriesTable struct {
	*table
	time, power     *array.Float64Builder
	queued, running *array.Int64Builder
	util, alloc     []*array.Float64Builder
	capacity        []float64 // total capacity per resource, units; nodes do not go offline yet

	wrote        bool
	last         []sim.Amount // allocations of the last row written
	lastQ, lastR int64
	lastP        float64
	cur          []sim.Amount
	pending      bool     // the newest step was skipped…
	pendingAt    sim.Time // …and happened then
}

func newSeriesTable(dir, format string, c *sim.Cluster, res []string, mem memory.Allocator) (*seriesTable, error) {
	tb, err := newTable(dir, "timeseries", format, timeseriesSchema(res), mem)
	if err != nil {
		return nil, err
	}
	R := len(res)
	s := &seriesTable{
		table: tb,
		time:  tb.col("time_s").(*array.Float64Builder), power: tb.col("power_w").(*array.Float64Builder),
		queued: tb.col("queued_jobs").(*array.Int64Builder), running: tb.col("running_jobs").(*array.Int64Builder),
		util: make([]*array.Float64Builder, R), alloc: make([]*array.Float64Builder, R),
		capacity: make([]float64, R), last: make([]sim.Amount, R), cur: make([]sim.Amount, R),
	}
	for r, name := range res {
		s.util[r] = tb.col("utilization_" + name).(*array.Float64Builder)
		s.alloc[r] = tb.col("allocated_" + name).(*array.Float64Builder)
		s.capacity[r] = c.TotalCapacity(r).Float()
	}
	return s, nil
}

// step records the state after the pass at now.
func (s *seriesTable) step(now sim.Time, c *sim.Context) error {
	q, r, p := int64(len(c.Queue())), int64(len(c.Running())), c.PowerW()
	for i := range s.cur {
		s.cur[i] = c.Allocated(i)
	}
	if s.wrote && q == s.lastQ && r == s.lastR && p == s.lastP && slices.Equal(s.cur, s.last) {
		s.pending, s.pendingAt = true, now
		return nil
	}
	s.lastQ, s.lastR, s.lastP = q, r, p
	copy(s.last, s.cur)
	s.wrote, s.pending = true, false
	return s.row(now)
}

// finish writes the last step if step skipped it.
func (s *seriesTable) finish() error {
	if !s.pending {
		return nil
	}
	s.pending = false
	return s.row(s.pendingAt)
}

// row appends the state held in last/lastQ/lastR/lastP at time t.
func (s *seriesTable) row(t sim.Time) error {
	s.time.Append(t.Seconds())
	s.queued.Append(s.lastQ)
	s.running.Append(s.lastR)
	s.power.Append(s.lastP)
	for i, a := range s.last {
		if s.capacity[i] > 0 {
			s.util[i].Append(a.Float() / s.capacity[i])
		} else {
			s.util[i].AppendNull()
		}
		s.alloc[i].Append(a.Float())
	}
	return s.endRow()
}
