package metrics

import (
	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Measurement (Options.Measured). A what-if replay may leave out of its
// summary the jobs submitted while the system fills (warm-up) and drains
// (cool-down): they are simulated like every other, they hold nodes and
// delay the measured jobs, but the summary's per-job statistics skip
// them. Those are the wait statistics (mean, median, p95 and max wait),
// mean_slowdown, mean_bsld and the calib_* per-job comparisons. The
// counts (jobs, jobs_completed …) still count every job, and jobs_measured
// says how many are measured. What is measured over time rather than over
// jobs (makespan, utilization, fragmentation, energy, node downtime) and
// the tenants' shares stay over the whole run: restricting them to the
// measured jobs' span would need the time series cut where the warm-up
// ends, which the tables let a reader do (timeseries and the jobs table's
// measured column).
//
// Without Options.Measured nothing of this appears: the files are those
// of a run that measures every job, byte for byte.

// jobsMeasuredField is the jobs table's last column when Options.Measured
// is set: whether the summary counts the job.
var jobsMeasuredField = arrow.Field{Name: "measured", Type: arrow.FixedWidthTypes.Boolean}

// measuredArray is the measured column of n rows, from its bitmap.
func measuredArray(bits []byte, n int) arrow.Array {
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{nil, memory.NewBufferBytes(bits)}, nil, 0, 0)
	defer data.Release()
	return array.NewBooleanData(data)
}
