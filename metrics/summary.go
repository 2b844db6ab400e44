package metrics

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// tally accumulates the run-wide numbers of the summary as events arrive.
type tally struct {
	submitted, completed, killed, rejected, unfinished int64
	measured                                           int64 // with Options.Measured

	firstSubmit, lastSubmit, lastEnd sim.Time

	// waits holds one float64 per started job: the one place where memory
	// grows with the trace, accepted so median and p95 are exact (8 bytes
	// a job: 80 MB for 10^7 jobs).
	waits            floatLog
	waitSum, waitMax float64
	sdSum, bsldSum   float64 // over ended jobs (slowdown: those with runtime > 0)
	sdN, bsldN       int64

	// The draw is constant between steps, so ∫ power dt is a sum of
	// exact rectangles: energyJ up to lastStep, at lastPower since.
	lastStep  sim.Time
	lastPower float64
	energyJ   float64
	// With a price or carbon series, each rectangle is split where the
	// series steps: cost and carbon are Σ power × ∫ value dt.
	price, carbon *sim.StepSeries
	costJ         float64 // Σ J × price per kWh
	carbonJ       float64 // Σ J × g per kWh

	restarts        int64    // runs stopped by node events or preemption
	preemptions     int64    // of which preemptions
	lostWork        sim.Time // their run time since the last checkpoint
	lostNodeSeconds float64  // that time × the nodes each run held
	overhead        sim.Time // checkpoint restore time paid by restarts
}

// advance integrates the draw up to t.
func (t *tally) advance(to sim.Time) {
	if to > t.lastStep {
		t.energyJ += t.lastPower * (to - t.lastStep).Seconds()
		if t.price != nil {
			t.costJ += t.lastPower * t.price.Integral(t.lastStep, to)
		}
		if t.carbon != nil {
			t.carbonJ += t.lastPower * t.carbon.Integral(t.lastStep, to)
		}
		t.lastStep = to
	}
}

// col is one summary column with its single value. The summary's schema
// is the list of cols, so the Arrow table and summary.csv cannot disagree.
type col struct {
	name string
	kind arrow.Type // INT64, FLOAT64 or STRING
	i    int64
	f    float64
	s    string
	null bool
}

func intCol(name string, v int64) col { return col{name: name, kind: arrow.INT64, i: v} }

// floatCol is null when v is NaN or infinite: an undefined statistic (the
// mean wait of a run where no job started) is missing, not a number.
func floatCol(name string, v float64) col {
	return col{name: name, kind: arrow.FLOAT64, f: v, null: math.IsNaN(v) || math.IsInf(v, 0)}
}

// summaryCols computes the summary row. The makespan runs from the first
// submit to end. Wait statistics are over started jobs (those still
// running at the end included); slowdown and bsld need an end, so they are
// over ended jobs (completed or killed), and mean_slowdown skips jobs that
// ran 0 s. A statistic over no job is null. utilization_<res> is the
// time-weighted mean of allocated/capacity over the makespan; utilization
// is that of cpu, or of the first resource without cpu. jain_bsld and
// jain_usage_share are Jain's index over the tenants (see tenants.go);
// calib_* compare the run with the schedule the trace recorded (calib.go).
// With Options.Measured, jobs_measured follows jobs_skipped and the per-job
// statistics count only the measured jobs (measured.go).
func (r *Recorder) summaryCols(final FinalInfo, end sim.Time) []col {
	t := &r.tally
	m := r.makespan(end).Seconds()
	waits := t.waits.sorted()
	nan := math.NaN()
	mean := func(sum float64, n int64) float64 {
		if n == 0 {
			return nan
		}
		return sum / float64(n)
	}
	maxWait := nan
	if len(waits) > 0 {
		maxWait = t.waitMax
	}
	// util[r] = Σ_nodes ∫ allocated_r dt / (capacity_r · makespan): the
	// time-weighted mean of allocated/capacity over the makespan.
	util := make([]float64, len(r.res))
	for i := range util {
		var used float64
		for n := range r.c.Nodes {
			used += r.nodes.use[n*len(r.res)+i]
		}
		util[i] = used / (r.c.TotalCapacity(i).Float() * m) // NaN or Inf → null
	}
	events := final.Events
	if events == 0 {
		events = r.events
	}
	perWall := func(v int64) float64 {
		if final.WallSeconds <= 0 {
			return nan
		}
		return float64(v) / final.WallSeconds
	}

	cols := []col{
		intCol("jobs", t.submitted),
		intCol("jobs_completed", t.completed),
		intCol("jobs_killed", t.killed),
		intCol("jobs_rejected", t.rejected),
		intCol("jobs_unfinished", t.unfinished),
		intCol("jobs_skipped", final.Skipped),
	}
	if r.opt.Measured != nil {
		cols = append(cols, intCol("jobs_measured", t.measured))
	}
	cols = append(cols,
		floatCol("makespan_s", m),
		floatCol("mean_wait_s", mean(t.waitSum, int64(len(waits)))),
		floatCol("median_wait_s", Quantile(waits, 0.5)),
		floatCol("p95_wait_s", Quantile(waits, 0.95)),
		floatCol("max_wait_s", maxWait),
		floatCol("mean_slowdown", mean(t.sdSum, t.sdN)),
		floatCol("mean_bsld", mean(t.bsldSum, t.bsldN)),
		intCol("restarts", t.restarts),
		intCol("preemptions", t.preemptions),
		floatCol("lost_work_s", t.lostWork.Seconds()),
		floatCol("lost_node_hours", t.lostNodeSeconds/3600),
		floatCol("checkpoint_overhead_s", t.overhead.Seconds()),
		floatCol("node_downtime_s", r.nodes.downtime(end).Seconds()),
	)
	jainBsld, jainUsage := jains(r.ten.rows())
	cols = append(cols, floatCol("jain_bsld", jainBsld), floatCol("jain_usage_share", jainUsage))
	mainU := nan
	if i := mainResourceOf(r.c); i >= 0 {
		mainU = util[i]
	}
	cols = append(cols, floatCol("utilization", mainU))
	for i, name := range r.res {
		cols = append(cols, floatCol("utilization_"+name, util[i]))
	}
	for i, name := range r.res {
		cols = append(cols, floatCol("frag_"+name, r.frag.mean(i)))
	}
	mainCap := nan
	if i := mainResourceOf(r.c); i >= 0 {
		mainCap = r.c.TotalCapacity(i).Float()
	}
	cols = append(cols, r.calib.cols(mainCap, t.firstSubmit, t.lastSubmit, t.submitted, r.opt.CalibrationOff)...)
	// Without a power model energy is unknown, and so are its cost and
	// carbon: null, never 0.
	energyJ, cost, carbon := nan, nan, nan
	powered := r.c.HasPowerModel()
	if powered {
		energyJ = t.energyJ
	}
	if t.price != nil && powered {
		cost = t.costJ / 3.6e6 // J × price/kWh ÷ 3.6e6 J/kWh
	}
	if t.carbon != nil && powered {
		carbon = t.carbonJ / 3.6e6 / 1000 // g → kg
	}
	asleep, switching, offs, ons := r.nodes.powerTotals(end)
	cols = append(cols,
		floatCol("energy_j", energyJ),
		floatCol("energy_kwh", energyJ/3.6e6),
		floatCol("energy_cost", cost),
		floatCol("carbon_kg", carbon),
		floatCol("node_asleep_s", asleep.Seconds()),
		floatCol("node_switching_s", switching.Seconds()),
		intCol("switch_offs", offs),
		intCol("switch_ons", ons),
		floatCol("wall_s", final.WallSeconds),
		intCol("events", events),
		floatCol("events_per_s", perWall(events)),
		floatCol("jobs_per_s", perWall(t.submitted)),
	)
	for _, l := range r.opt.Labels {
		cols = append(cols, col{name: l.Name, kind: arrow.STRING, s: l.Value})
	}
	return cols
}

// makespan runs from the first submit to end; 0 before any submit.
func (r *Recorder) makespan(end sim.Time) sim.Time {
	if r.tally.submitted == 0 {
		return 0
	}
	return end - r.tally.firstSubmit
}

// summarySchema declares the summary table from its columns, with the
// calendar's metadata when the epoch is known.
func summarySchema(cols []col, cal calendar) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Nullable: c.kind == arrow.FLOAT64}
		switch c.kind {
		case arrow.INT64:
			fields[i].Type = arrow.PrimitiveTypes.Int64
		case arrow.FLOAT64:
			fields[i].Type = arrow.PrimitiveTypes.Float64
		default:
			fields[i].Type = arrow.BinaryTypes.String
		}
	}
	return cal.schema(fields)
}

// writeSummary sends the one summary row to tb, whose schema is
// summarySchema(cols).
func writeSummary(tb *table, cols []col) error {
	return tb.send(func(rb *array.RecordBuilder) {
		for i, c := range cols {
			switch b := rb.Field(i).(type) {
			case *array.Int64Builder:
				b.Append(c.i)
			case *array.Float64Builder:
				if c.null {
					b.AppendNull()
				} else {
					b.Append(c.f)
				}
			case *array.StringBuilder:
				b.Append(c.s)
			}
		}
	})
}

// checkSummaryNames rejects a label that would shadow a summary column
// (or a utilization_<res> column of this cluster).
func checkSummaryNames(cols []col) error {
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		if seen[c.name] {
			return fmt.Errorf("metrics: summary column %q defined twice (a label shadows a column?)", c.name)
		}
		seen[c.name] = true
	}
	return nil
}
