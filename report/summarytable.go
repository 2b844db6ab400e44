package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// summaryMetric is a row of the curated summary table: a summary column,
// how to show it and which way is better.
type summaryMetric struct {
	Name, Col string
	format    func(float64) string
	better    int // lowerBetter, higherBetter, nearOneBetter or 0: neither
}

const (
	lowerBetter   = -1
	higherBetter  = +1
	nearOneBetter = 2 // a ratio of simulated to recorded: closest to 1
)

// closer says whether v is better than best for m.
func (m summaryMetric) closer(v, best float64) bool {
	if m.better == nearOneBetter {
		return math.Abs(v-1) < math.Abs(best-1)
	}
	return float64(m.better)*(v-best) > 0
}

// summaryMetrics are the rows a planner reads first, in reading order.
var summaryMetrics = []summaryMetric{
	{"jobs", metrics.ColJobs, func(v float64) string { return groupThousands(v) }, 0},
	{"jobs killed", metrics.ColJobsKilled, func(v float64) string { return groupThousands(v) }, -1},
	{"mean wait", metrics.ColMeanWait, durationText, -1},
	{"p95 wait", metrics.ColP95Wait, durationText, -1},
	{"max wait", metrics.ColMaxWait, durationText, -1},
	{"mean bounded slowdown", metrics.ColMeanBSLD, compact, -1},
	{"utilization", metrics.ColUtilization, percentText, +1},
	{"energy", metrics.ColEnergyKWh, func(v float64) string { return groupThousands(math.Round(v)) + " kWh" }, -1},
	{"Jain's index of bsld", metrics.ColJainBSLD, func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }, +1},
	// Calibration, for runs whose trace records when jobs started.
	{"start error, median (vs recorded)", metrics.ColCalibStartErrorMedian, durationText, lowerBetter},
	{"start error, p90 (vs recorded)", metrics.ColCalibStartErrorP90, durationText, lowerBetter},
	{"wait KS distance (vs recorded)", metrics.ColCalibWaitKS, func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }, lowerBetter},
	{"mean wait ÷ recorded", metrics.ColCalibMeanWaitRatio, ratioText, nearOneBetter},
	{"p95 wait ÷ recorded", metrics.ColCalibP95WaitRatio, ratioText, nearOneBetter},
	{"recorded utilization", metrics.ColCalibRecordedUtilization, percentText, 0},
}

func ratioText(v float64) string   { return strconv.FormatFloat(v, 'f', 2, 64) + "×" }
func percentText(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + " %" }

// summaryTable is the page's summary: the curated rows that tell the runs
// apart (the best run of each marked), the curated metrics every run has
// alike (one line), and every column of summary.csv with its exact value.
type summaryTable struct {
	Rows    []pageRow
	Same    []string // "jobs 28,475"
	Details []pageRow
}

// Differs says whether two values of a summary column differ by more than
// the tolerance a comparison gives it (compare's); nil: any difference
// counts.
type Differs func(col string, a, b float64) bool

// buildSummary lays out the summary table. A curated metric no run has a
// value for is left out; one that is zero in every run, or the same in
// every run of several, moves to Same. The best value of a row is marked
// in every run that has it, when it beats every other run's by more than
// the tolerance (differs).
func buildSummary(runs []*Run, differs Differs) summaryTable {
	var st summaryTable
	for _, m := range summaryMetrics {
		vals := make([]float64, len(runs))
		any, allZero, same := false, true, true
		for i, r := range runs {
			vals[i] = math.NaN()
			if v, err := strconv.ParseFloat(r.SummaryVals[m.Col], 64); err == nil && !math.IsNaN(v) {
				vals[i] = v
				any = true
				allZero = allZero && v == 0
			}
			if i > 0 && r.SummaryVals[m.Col] != runs[0].SummaryVals[m.Col] {
				same = false
			}
		}
		if !any {
			continue
		}
		if allZero || (same && len(runs) > 1) {
			st.Same = append(st.Same, m.Name+" "+m.format(vals[0]))
			continue
		}
		best := math.NaN()
		if m.better != 0 {
			for _, v := range vals {
				if !math.IsNaN(v) && (math.IsNaN(best) || m.closer(v, best)) {
					best = v
				}
			}
		}
		// Best is marked as shown: every run whose rounded value is the
		// best's, and none when all read the same.
		bestText, distinct := "", map[string]bool{}
		if !math.IsNaN(best) {
			bestText = m.format(best)
		}
		row := pageRow{Name: m.Name}
		for i, v := range vals {
			c := pageCell{Exact: runs[i].SummaryVals[m.Col], Text: "n/a"}
			if !math.IsNaN(v) {
				c.Text = m.format(v)
			}
			distinct[c.Text] = true
			row.Values = append(row.Values, c)
		}
		apart := len(distinct) > 1 && bestText != ""
		for _, v := range vals {
			if apart && differs != nil && !math.IsNaN(v) && m.format(v) != bestText && !differs(m.Col, v, best) {
				apart = false // a run within the tolerance of the best: no winner
			}
		}
		for i := range row.Values {
			row.Values[i].Best = apart && row.Values[i].Text == bestText
		}
		st.Rows = append(st.Rows, row)
	}
	seen := map[string]bool{}
	for _, r := range runs {
		for _, c := range r.SummaryCols {
			if seen[c] {
				continue
			}
			seen[c] = true
			row := pageRow{Name: c}
			for _, r2 := range runs {
				row.Values = append(row.Values, pageCell{Text: r2.SummaryVals[c]})
			}
			st.Details = append(st.Details, row)
		}
	}
	return st
}

// groupThousands writes an integer with thin separators: 28,475.
func groupThousands(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
