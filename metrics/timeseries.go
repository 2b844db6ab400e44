package metrics

import (
	"math"
	"slices"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// timeseriesSchema declares the timeseries table for resources named res.
// Each row is the state right after an event time's scheduling pass; it
// holds until the next row's time. price and carbon add the columns of
// the series given (Options.Price, Options.Carbon).
func timeseriesSchema(res []string, price, carbon bool) *arrow.Schema {
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
	for _, r := range res {
		// share of free capacity a typical task cannot use (frag.go); null
		// when nothing is free or no task was seen
		fields = append(fields, arrow.Field{Name: "frag_" + r, Type: f64, Nullable: true})
	}
	fields = append(fields, arrow.Field{Name: "nodes_asleep", Type: arrow.PrimitiveTypes.Int64}) // asleep or switching (power-down)
	if price {
		fields = append(fields, arrow.Field{Name: "price_per_kwh", Type: f64})
	}
	if carbon {
		fields = append(fields, arrow.Field{Name: "carbon_g_per_kwh", Type: f64})
	}
	return arrow.NewSchema(fields, nil)
}

// seriesRow is one staged step; its R allocations are in the batch.
type seriesRow struct {
	at              sim.Time
	queued, running int64
	powerW          float64
	asleep          int64
}

type seriesBatch struct {
	rows  []seriesRow
	alloc []sim.Amount // R per row
	frag  []float64    // R per row; NaN for null
}

// seriesTable streams the timeseries. A step that changed nothing (same
// counts, draw and allocations as the last row written) is not written,
// which shrinks the table a lot on traces with many simultaneous events;
// the last step is always written, at Finished, so the series spans the
// whole run.
type seriesTable struct {
	*table
	cur   *seriesBatch
	free  chan *seriesBatch
	cut   int
	total int64
	R     int

	wrote     bool
	last      seriesRow    // the last row written (its time aside)…
	lastAlloc []sim.Amount // …and its allocations
	stepAlloc []sim.Amount // this step's allocations
	lastFrag  []float64    // the last row's fragmentation
	stepFrag  []float64

	frag      *fragTracker
	asleep    *int64          // nodes not on now (metrics/power.go)
	price     *sim.StepSeries // nil when not given
	carbon    *sim.StepSeries
	pending   bool     // the newest step was skipped…
	pendingAt sim.Time // …and happened then

	// The encoder's builders and the capacities it divides by.
	time, power     *array.Float64Builder
	queued, running *array.Int64Builder
	util, alloc     []*array.Float64Builder
	fragB           []*array.Float64Builder
	asleepB         *array.Int64Builder
	priceB, carbonB *array.Float64Builder
	capacity        []float64 // total capacity per resource, units; nodes do not go offline yet
}

func newSeriesTable(dir, format string, c *sim.Cluster, res []string, mem memory.Allocator, frag *fragTracker, asleep *int64, price, carbon *sim.StepSeries) (*seriesTable, error) {
	tb, err := newTable(dir, "timeseries", format, timeseriesSchema(res, price != nil, carbon != nil), mem)
	if err != nil {
		return nil, err
	}
	R := len(res)
	b := builders{tb.rb}
	s := &seriesTable{
		table: tb, cur: &seriesBatch{}, free: make(chan *seriesBatch, 2), cut: rowsPerRecord, R: R,
		lastAlloc: make([]sim.Amount, R), stepAlloc: make([]sim.Amount, R), lastFrag: make([]float64, R), stepFrag: make([]float64, R),
		frag: frag, asleep: asleep, price: price, carbon: carbon, fragB: make([]*array.Float64Builder, R), asleepB: b.i64("nodes_asleep"),
		time: b.f64("time_s"), power: b.f64("power_w"), queued: b.i64("queued_jobs"), running: b.i64("running_jobs"),
		util: make([]*array.Float64Builder, R), alloc: make([]*array.Float64Builder, R), capacity: make([]float64, R),
	}
	for r, name := range res {
		s.util[r] = b.f64("utilization_" + name)
		s.alloc[r] = b.f64("allocated_" + name)
		s.fragB[r] = b.f64("frag_" + name)
		s.capacity[r] = c.TotalCapacity(r).Float()
	}
	if price != nil {
		s.priceB = b.f64("price_per_kwh")
	}
	if carbon != nil {
		s.carbonB = b.f64("carbon_g_per_kwh")
	}
	s.free <- &seriesBatch{}
	return s, nil
}

// step records the state after the pass at now.
func (s *seriesTable) step(now sim.Time, c *sim.Context) error {
	row := seriesRow{at: now, queued: int64(len(c.Queue())), running: int64(len(c.Running())), powerW: c.PowerW(), asleep: *s.asleep}
	for i := range s.stepAlloc {
		s.stepAlloc[i] = c.Allocated(i)
	}
	s.frag.step(now, c)
	for i := range s.stepFrag {
		s.stepFrag[i] = s.frag.ratio(i)
	}
	if s.wrote && row.queued == s.last.queued && row.running == s.last.running && row.powerW == s.last.powerW &&
		row.asleep == s.last.asleep && slices.Equal(s.stepAlloc, s.lastAlloc) && sameFloats(s.stepFrag, s.lastFrag) {
		s.pending, s.pendingAt = true, now
		return nil
	}
	s.last = row
	copy(s.lastAlloc, s.stepAlloc)
	copy(s.lastFrag, s.stepFrag)
	s.wrote, s.pending = true, false
	return s.add(row)
}

// finish writes the last step if step skipped it, and the staged rows.
func (s *seriesTable) finish() error {
	if s.pending {
		s.pending = false
		row := s.last
		row.at = s.pendingAt
		if err := s.add(row); err != nil {
			return err
		}
	}
	return s.flush()
}

// add stages row with the allocations in lastAlloc.
func (s *seriesTable) add(row seriesRow) error {
	b := s.cur
	b.rows = append(b.rows, row)
	b.alloc = append(b.alloc, s.lastAlloc...)
	b.frag = append(b.frag, s.lastFrag...)
	s.total++
	if len(b.rows) >= s.cut {
		return s.flush()
	}
	return nil
}

// flush sends the staged rows to the encoder and takes the other batch.
func (s *seriesTable) flush() error {
	b := s.cur
	if len(b.rows) == 0 {
		return nil
	}
	err := s.send(func(*array.RecordBuilder) {
		s.build(b)
		b.rows, b.alloc, b.frag = b.rows[:0], b.alloc[:0], b.frag[:0]
		s.free <- b
	})
	if err != nil {
		return err
	}
	s.cur = <-s.free
	return nil
}

// build appends a batch to the builders, on the encoder.
func (s *seriesTable) build(b *seriesBatch) {
	for i := range b.rows {
		r := &b.rows[i]
		s.time.Append(r.at.Seconds())
		s.queued.Append(r.queued)
		s.running.Append(r.running)
		s.power.Append(r.powerW)
		for k, a := range b.alloc[i*s.R : (i+1)*s.R] {
			if s.capacity[k] > 0 {
				s.util[k].Append(a.Float() / s.capacity[k])
			} else {
				s.util[k].AppendNull()
			}
			s.alloc[k].Append(a.Float())
		}
		for k, v := range b.frag[i*s.R : (i+1)*s.R] {
			if math.IsNaN(v) {
				s.fragB[k].AppendNull()
			} else {
				s.fragB[k].Append(v)
			}
		}
		s.asleepB.Append(r.asleep)
		if s.priceB != nil {
			s.priceB.Append(s.price.At(r.at))
		}
		if s.carbonB != nil {
			s.carbonB.Append(s.carbon.At(r.at))
		}
	}
}

// sameFloats compares bit for bit, so NaN (null) equals NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
