package metrics

import (
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// timeseriesSchema declares the timeseries table for resources named res.
// Each row is the state right after an event time's scheduling pass; it
// holds until the next row's time. price and carbon add the columns of
// the series given (Options.Price, Options.Carbon); a known epoch adds
// time, time_s as a UTC timestamp, right after it.
func timeseriesSchema(res []string, price, carbon bool, cal calendar) *arrow.Schema {
	f64 := arrow.PrimitiveTypes.Float64
	fields := []arrow.Field{{Name: "time_s", Type: f64}}
	if cal.known {
		fields = append(fields, arrow.Field{Name: "time", Type: timestampType})
	}
	fields = append(fields, []arrow.Field{
		{Name: "queued_jobs", Type: arrow.PrimitiveTypes.Int64},
		{Name: "running_jobs", Type: arrow.PrimitiveTypes.Int64},
		{Name: "power_w", Type: f64, Nullable: true}, // null without a power model
	}...)
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
	return cal.schema(fields)
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
	// The rows sent to the encoder for the record it builds (staged in
	// batches of stagedRows, as the jobs table does), and that record.
	recRows  int
	staged   int // rows per staged batch
	building *seriesColumns
	expect   int64 // rows expected in all (Options.ExpectedJobs), or 0

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
	cal       calendar
	pending   bool     // the newest step was skipped…
	pendingAt sim.Time // …and happened then

	capacity []float64 // total capacity per resource, units, that utilization divides by; nodes do not go offline yet
	// unpowered: the cluster has no power model, so power_w is null.
	unpowered bool
}

func newSeriesTable(dir, format string, c *sim.Cluster, res []string, mem memory.Allocator, frag *fragTracker, asleep *int64, price, carbon *sim.StepSeries, cal calendar) (*seriesTable, error) {
	tb, err := newStreamedTable(dir, "timeseries", format, timeseriesSchema(res, price != nil, carbon != nil, cal), mem)
	if err != nil {
		return nil, err
	}
	R := len(res)
	s := &seriesTable{
		table: tb, cur: idleSeriesBatches.get(), free: make(chan *seriesBatch, 2), cut: rowsPerRecord, staged: stagedRows, R: R,
		lastAlloc: make([]sim.Amount, R), stepAlloc: make([]sim.Amount, R), lastFrag: make([]float64, R), stepFrag: make([]float64, R),
		frag: frag, asleep: asleep, price: price, carbon: carbon, cal: cal, capacity: make([]float64, R),
		unpowered: !c.HasPowerModel(),
	}
	for r := range res {
		s.capacity[r] = c.TotalCapacity(r).Float()
	}
	s.free <- idleSeriesBatches.get()
	return s, nil
}

// seriesRowsPerJob guesses the timeseries rows of a run from its jobs, to
// size the first batch: a job's submit, start and end are at most three
// event times, and steps that change nothing are not written; the logs
// replayed have 1 to 2 rows a job.
const seriesRowsPerJob = 2

// reserve gives a batch room for a whole record's rows of R resources,
// as jobBatch.reserve does.
func (b *seriesBatch) reserve(rows, R int) {
	if cap(b.rows) < rows {
		b.rows = make([]seriesRow, 0, rows)
	}
	if cap(b.alloc) < rows*R {
		b.alloc = make([]sim.Amount, 0, rows*R)
	}
	if cap(b.frag) < rows*R {
		b.frag = make([]float64, 0, rows*R)
	}
}

// step records the state after the pass at now, as v copies it.
func (s *seriesTable) step(now sim.Time, v stepView) error {
	row := seriesRow{at: now, queued: v.queued, running: v.running, powerW: v.powerW, asleep: *s.asleep}
	copy(s.stepAlloc, v.alloc)
	s.frag.step(now, v)
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
	return s.flush(true)
}

// add stages row with the allocations in lastAlloc.
func (s *seriesTable) add(row seriesRow) error {
	b := s.cur
	b.rows = append(b.rows, row)
	b.alloc = append(b.alloc, s.lastAlloc...)
	b.frag = append(b.frag, s.lastFrag...)
	s.total++
	if len(b.rows) >= s.staged || s.recRows+len(b.rows) >= s.cut {
		return s.flush(false)
	}
	return nil
}

// flush sends the staged rows to the encoder and takes the other batch;
// the encoder cuts its record when they complete it, or at the end.
func (s *seriesTable) flush(end bool) error {
	b := s.cur
	if len(b.rows) == 0 && (!end || s.recRows == 0) {
		return nil
	}
	last := end || s.recRows+len(b.rows) >= s.cut
	more := len(b.rows) >= s.staged
	want := len(b.rows) // as jobsTable.flush
	if !last {
		want = max(want, s.cut)
		if s.expect > 0 {
			want = max(len(b.rows), min(s.cut, int(s.expect-s.total)+s.recRows+len(b.rows)))
		}
	}
	s.recRows += len(b.rows)
	if last {
		s.recRows = 0
	}
	err := s.sendRecord(func() arrow.Record {
		if s.building == nil {
			s.building = s.newColumns(want)
		}
		s.fill(s.building, b)
		b.rows, b.alloc, b.frag = b.rows[:0], b.alloc[:0], b.frag[:0]
		s.free <- b
		if !last {
			return nil
		}
		c := s.building
		s.building = nil
		return s.record(c)
	})
	if err != nil {
		return err
	}
	s.cur = <-s.free
	if more {
		s.cur.reserve(s.staged, s.R)
	}
	return nil
}

// release hands the table's batches to the next recorder. The encoder
// must have stopped.
func (s *seriesTable) release() {
	for _, b := range []*seriesBatch{s.cur, <-s.free} {
		if b != nil && (cap(b.rows)*int(unsafe.Sizeof(seriesRow{}))+cap(b.alloc)*8+cap(b.frag)*8) <= maxKeptBatchBytes {
			b.rows, b.alloc, b.frag = b.rows[:0], b.alloc[:0], b.frag[:0]
			idleSeriesBatches.put(b)
		}
	}
	s.cur = nil
}

// seriesColumns are the columns of the record being built on the
// encoder, sized for the rows it may reach.
type seriesColumns struct {
	n                       int // rows filled
	at, power               *floatColumn
	queued, running, asleep []int64
	util, alloc, frag       []*floatColumn // per resource
	price, carbon           *floatColumn   // with those series
	instant                 *intColumn     // the time column, with a known epoch
}

func (s *seriesTable) newColumns(n int) *seriesColumns {
	R := s.R
	c := &seriesColumns{at: newFloatColumn(n), power: newFloatColumn(n), queued: make([]int64, n), running: make([]int64, n), asleep: make([]int64, n),
		util: make([]*floatColumn, R), alloc: make([]*floatColumn, R), frag: make([]*floatColumn, R)}
	for k := range R {
		c.util[k], c.alloc[k], c.frag[k] = newFloatColumn(n), newFloatColumn(n), newFloatColumn(n)
	}
	if s.cal.known {
		c.instant = newIntColumn(timestampType, n)
	}
	if s.price != nil {
		c.price = newFloatColumn(n)
	}
	if s.carbon != nil {
		c.carbon = newFloatColumn(n)
	}
	return c
}

// floats are the float columns, price and carbon nil without their series.
func (c *seriesColumns) floats() []*floatColumn {
	return slices.Concat([]*floatColumn{c.at, c.power, c.price, c.carbon}, c.util, c.alloc, c.frag)
}

// grow lengthens the columns to n rows, for a record longer than expected.
func (c *seriesColumns) grow(n int) {
	for _, f := range c.floats() {
		if f != nil {
			f.grow(c.n, n)
		}
	}
	if c.instant != nil {
		c.instant.grow(c.n, n)
	}
	for _, v := range []*[]int64{&c.queued, &c.running, &c.asleep} {
		*v = growSlice(*v, n)
	}
}

// fill adds a batch's rows to the columns, on the encoder.
func (s *seriesTable) fill(c *seriesColumns, b *seriesBatch) {
	if need := c.n + len(b.rows); need > len(c.queued) {
		c.grow(min(s.cut, max(need, 2*len(c.queued))))
	}
	R := s.R
	for j := range b.rows {
		r, i := &b.rows[j], c.n+j
		c.at.vals[i] = r.at.Seconds()
		if c.instant != nil {
			c.instant.vals[i] = s.cal.at(r.at)
		}
		c.queued[i], c.running[i], c.asleep[i] = r.queued, r.running, r.asleep
		if s.unpowered {
			c.power.setNull(i)
		} else {
			c.power.vals[i] = r.powerW
		}
		for k, a := range b.alloc[j*R : (j+1)*R] {
			if s.capacity[k] > 0 {
				c.util[k].vals[i] = a.Float() / s.capacity[k]
			} else {
				c.util[k].setNull(i)
			}
			c.alloc[k].vals[i] = a.Float()
		}
		for k, v := range b.frag[j*R : (j+1)*R] {
			if math.IsNaN(v) {
				c.frag[k].setNull(i)
			} else {
				c.frag[k].vals[i] = v
			}
		}
		if c.price != nil {
			c.price.vals[i] = s.price.At(r.at)
		}
		if c.carbon != nil {
			c.carbon.vals[i] = s.carbon.At(r.at)
		}
	}
	c.n += len(b.rows)
}

// record cuts the filled rows into a record.
func (s *seriesTable) record(c *seriesColumns) arrow.Record {
	n := c.n
	for _, f := range c.floats() {
		if f != nil {
			f.truncate(n)
		}
	}
	// In timeseriesSchema's order.
	cols := []arrow.Array{c.at.array()}
	if c.instant != nil {
		c.instant.truncate(n)
		cols = append(cols, c.instant.array())
	}
	cols = append(cols, intArray(c.queued[:n]), intArray(c.running[:n]), c.power.array())
	for _, group := range [][]*floatColumn{c.util, c.alloc, c.frag} {
		for _, f := range group {
			cols = append(cols, f.array())
		}
	}
	cols = append(cols, intArray(c.asleep[:n]))
	for _, f := range []*floatColumn{c.price, c.carbon} {
		if f != nil {
			cols = append(cols, f.array())
		}
	}
	return newRecord(s.schema, cols, n)
}

// sameFloats compares bit for bit, so NaN (null) equals NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
