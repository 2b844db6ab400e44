package metrics

import (
	"fmt"
	"math"
	"strconv"

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
		intCol(ColJobs, t.submitted),
		intCol(ColJobsCompleted, t.completed),
		intCol(ColJobsKilled, t.killed),
		intCol(ColJobsRejected, t.rejected),
		intCol(ColJobsUnfinished, t.unfinished),
		intCol(ColJobsSkipped, final.Skipped),
	}
	if r.opt.Measured != nil {
		cols = append(cols, intCol(ColJobsMeasured, t.measured))
	}
	cols = append(cols,
		floatCol(ColMakespan, m),
		floatCol(ColMeanWait, mean(t.waitSum, int64(len(waits)))),
		floatCol(ColMedianWait, Quantile(waits, 0.5)),
		floatCol(ColP95Wait, Quantile(waits, 0.95)),
		floatCol(ColMaxWait, maxWait),
		floatCol(ColMeanSlowdown, mean(t.sdSum, t.sdN)),
		floatCol(ColMeanBSLD, mean(t.bsldSum, t.bsldN)),
		intCol(ColRestarts, t.restarts),
		intCol(ColPreemptions, t.preemptions),
		floatCol(ColLostWork, t.lostWork.Seconds()),
		floatCol(ColLostNodeHours, t.lostNodeSeconds/3600),
		floatCol(ColCheckpointOverhead, t.overhead.Seconds()),
		floatCol(ColNodeDowntime, r.nodes.downtime(end).Seconds()),
	)
	jainBsld, jainUsage := jains(r.ten.rows())
	cols = append(cols, floatCol(ColJainBSLD, jainBsld), floatCol(ColJainUsageShare, jainUsage))
	mainU := nan
	if i := mainResourceOf(r.c); i >= 0 {
		mainU = util[i]
	}
	cols = append(cols, floatCol(ColUtilization, mainU))
	for i, name := range r.res {
		cols = append(cols, floatCol(UtilizationPrefix+name, util[i]))
	}
	for i, name := range r.res {
		cols = append(cols, floatCol(FragPrefix+name, r.frag.mean(i)))
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
		floatCol(ColEnergyJ, energyJ),
		floatCol(ColEnergyKWh, energyJ/3.6e6),
		floatCol(ColEnergyCost, cost),
		floatCol(ColCarbonKg, carbon),
		floatCol(ColNodeAsleep, asleep.Seconds()),
		floatCol(ColNodeSwitching, switching.Seconds()),
		intCol(ColSwitchOffs, offs),
		intCol(ColSwitchOns, ons),
		floatCol(ColWall, final.WallSeconds),
		intCol(ColEvents, events),
		floatCol(ColEventsPerWallS, perWall(events)),
		floatCol(ColJobsPerWallS, perWall(t.submitted)),
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

// Summary is the summary row Close wrote, each cell as summary.csv holds
// it; empty before Close succeeded.
func (r *Recorder) Summary() SummaryRow {
	row := SummaryRow{Names: make([]string, len(r.summary)), Values: make([]string, len(r.summary))}
	for i, c := range r.summary {
		row.Names[i] = c.name
		switch {
		case c.null:
		case c.kind == arrow.INT64:
			row.Values[i] = strconv.FormatInt(c.i, 10)
		case c.kind == arrow.FLOAT64:
			row.Values[i] = string(appendFloat(nil, c.f))
		default:
			row.Values[i] = c.s
		}
	}
	return row
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
