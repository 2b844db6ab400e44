package report

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// Sweep is a sweep directory (`schedsim sweep … --out DIR`) as the report
// sees it: its summary.csv, one row per run, sorted by key.
type Sweep struct {
	Dir  string
	Name string // the directory's base name, for titles
	// Cols is summary.csv's header; Rows its rows as text, by column.
	Cols []string
	Rows []map[string]string
	// Params are the param_<name> columns in file order; Varying those
	// with more than one distinct value, which label the runs.
	Params  []string
	Varying []string
}

// isSweep reports whether dir holds a sweep summary: a summary whose
// first column is `run` (a run directory's summary has no such column).
func isSweep(dir string) bool {
	t, err := metrics.ReadSummary(dir)
	return err == nil && len(t.Names) > 0 && t.Names[0] == metrics.ColRun
}

// LoadSweep reads a sweep directory's summary. Errors name the file and,
// for a bad row, its line.
func LoadSweep(dir string) (*Sweep, error) {
	t, err := metrics.ReadSummary(dir)
	if err != nil {
		return nil, err
	}
	header := t.Names
	s := &Sweep{Dir: dir, Name: filepath.Base(filepath.Clean(dir)), Cols: header}
	if len(header) < 2 || header[0] != metrics.ColRun || header[1] != metrics.ColRunDir {
		return nil, fmt.Errorf("%s:1: a sweep summary starts with the columns run, run_dir", t.Path)
	}
	for _, c := range header {
		if strings.HasPrefix(c, metrics.ParamPrefix) {
			s.Params = append(s.Params, c)
		}
	}
	for i := range t.Rows {
		s.Rows = append(s.Rows, t.Row(i).Map())
	}
	for _, p := range s.Params {
		if len(s.distinct(p)) > 1 {
			s.Varying = append(s.Varying, p)
		}
	}
	return s, nil
}

// distinct returns the column's distinct values, numerically sorted when
// all are numbers, else as text.
func (s *Sweep) distinct(col string) []string {
	seen := map[string]bool{}
	var vals []string
	for _, row := range s.Rows {
		if v := row[col]; !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	sortValues(vals)
	return vals
}

// sortValues sorts numerically when every value parses as a number.
func sortValues(vals []string) {
	nums := make([]float64, len(vals))
	numeric := true
	for i, v := range vals {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			numeric = false
			break
		}
		nums[i] = x
	}
	if !numeric {
		sort.Strings(vals)
		return
	}
	sort.SliceStable(vals, func(a, b int) bool {
		x, _ := strconv.ParseFloat(vals[a], 64)
		y, _ := strconv.ParseFloat(vals[b], 64)
		return x < y
	})
}

// metric returns a numeric column's value in a row, NaN when empty (a
// null) or not a number.
func metric(row map[string]string, col string) float64 {
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// requireColumn is an error naming the summary file when col is missing.
func (s *Sweep) requireColumn(col string) error {
	for _, c := range s.Cols {
		if c == col {
			return nil
		}
	}
	return fmt.Errorf("%s: no column %q", filepath.Join(s.Dir, "summary.csv"), col)
}

// hasColumn reports whether the summary has col.
func (s *Sweep) hasColumn(col string) bool { return s.requireColumn(col) == nil }

// hasValues reports whether col is in the summary with a number in some
// row.
func (s *Sweep) hasValues(col string) bool {
	if !s.hasColumn(col) {
		return false
	}
	for _, row := range s.Rows {
		if !math.IsNaN(metric(row, col)) {
			return true
		}
	}
	return false
}

// shortParam drops the param_ prefix: param_w_age → w_age.
func shortParam(col string) string { return strings.TrimPrefix(col, metrics.ParamPrefix) }

// point is one parameter combination of a sweep with its metrics averaged
// over the seeds (and every other row sharing its parameters).
type point struct {
	Label   string            // varying parameters, name=value
	Params  map[string]string // param column → value
	Runs    []string          // run keys averaged
	Metrics map[string]float64
}

// points groups the rows by their parameter values (the seed is not a
// parameter) and averages the given metrics over each group, ignoring
// nulls. Points come in the order of their first row, so by key.
func (s *Sweep) points(cols []string) []*point {
	var out []*point
	index := map[string]*point{}
	counts := map[*point]map[string]int{}
	for _, row := range s.Rows {
		var key strings.Builder
		for _, p := range s.Params {
			key.WriteString(row[p])
			key.WriteByte(0)
		}
		pt, ok := index[key.String()]
		if !ok {
			pt = &point{Params: map[string]string{}, Metrics: map[string]float64{}}
			var parts []string
			for _, p := range s.Params {
				pt.Params[p] = row[p]
			}
			for _, p := range s.Varying {
				parts = append(parts, shortParam(p)+"="+row[p])
			}
			pt.Label = strings.Join(parts, " ")
			index[key.String()] = pt
			counts[pt] = map[string]int{}
			out = append(out, pt)
		}
		pt.Runs = append(pt.Runs, row[metrics.ColRun])
		for _, m := range cols {
			if v := metric(row, m); !math.IsNaN(v) && !math.IsInf(v, 0) {
				pt.Metrics[m] += v
				counts[pt][m]++
			}
		}
	}
	for _, pt := range out {
		for _, m := range cols {
			if n := counts[pt][m]; n > 0 {
				pt.Metrics[m] /= float64(n)
			} else {
				pt.Metrics[m] = math.NaN()
			}
		}
	}
	return out
}
