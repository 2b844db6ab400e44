package compare

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// CSVHeader are the columns of WriteCSV, one row per metric and group.
// rel_pct, ci_lo_pct and ci_hi_pct are the change and its interval in %
// of |base|; ci_* are empty without an interval, and base, candidate and
// the changes are empty where a side has no value.
var CSVHeader = []string{"metric", "group", "base", "candidate", "delta", "rel_pct", "ci_lo", "ci_hi", "ci_lo_pct", "ci_hi_pct",
	"interval", "n_base", "n_candidate", "paired", "verdict", "why"}

// WriteCSV writes the comparison as CSV, for tools and notebooks: the
// same numbers as the text, unrounded.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, s := range r.Sections {
		for _, row := range s.Rows {
			iv := row.Interval
			pct := func(v float64) float64 { return 100 * v / math.Abs(row.Base) }
			why := row.Why
			if row.Verdict != NoData && !iv.Has() {
				why = iv.Why
			}
			rec := []string{s.Metric.Name, row.Label, f(row.Base), f(row.Cand), f(row.Delta), f(row.Rel),
				f(iv.Lo), f(iv.Hi), f(pct(iv.Lo)), f(pct(iv.Hi)), iv.Method,
				strconv.Itoa(row.BaseN), strconv.Itoa(row.CandN), strconv.FormatBool(row.Paired), row.Verdict.String(), why}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
