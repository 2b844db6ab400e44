package compare

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// Side is one side of a comparison: the runs of a sweep directory, of one
// run directory, or of a list of run directories.
type Side struct {
	Path string
	Kind string // "sweep", "run" or "runs"
	Runs []Run
	// Columns are the numeric columns every run has, in file order.
	Columns []string
}

// Run is one row of a summary.
type Run struct {
	Key   string // the sweep's run key, or the run directory
	Group string // what identifies the run but its seed: runs that differ by seed only share it
	Label string // how the group is printed
	Seed  string // "" when unknown
	// Values holds the numeric columns; an empty cell (a statistic over no
	// jobs) is NaN.
	Values map[string]float64
	// Prov is what the run's run.yaml says of how it was made.
	Prov Provenance
}

// Load reads one side. path is a sweep directory (summary.csv with a run
// column), a run directory (summary.csv with one row), a directory whose
// subdirectories are run directories, or several of those joined by
// commas.
func Load(path string) (*Side, error) {
	if strings.Contains(path, ",") {
		return loadList(path, strings.Split(path, ","))
	}
	summary := filepath.Join(path, "summary.csv")
	if _, err := os.Stat(summary); err == nil {
		header, rows, err := readSummary(path)
		if err != nil {
			return nil, err
		}
		if indexOf(header, metrics.ColRun) >= 0 {
			return loadSweep(path, summary, header, rows)
		}
		return loadList(path, []string{path})
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", path)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		sub := filepath.Join(path, e.Name())
		if _, err := os.Stat(filepath.Join(sub, "summary.csv")); e.IsDir() && err == nil {
			dirs = append(dirs, sub)
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s: no summary.csv: not a sweep directory, a run directory, nor a directory of run directories", path)
	}
	return loadList(path, dirs) // ReadDir sorts by name
}

// readSummary reads dir's summary: its header and rows, at least one.
func readSummary(dir string) (header []string, rows [][]string, err error) {
	t, err := metrics.ReadSummary(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no rows", t.Path)
	}
	return t.Names, t.Rows, nil
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// numericColumns returns, in header order, the columns whose every
// non-empty cell is a number, except those in skip, and the rows' values.
func numericColumns(header []string, rows [][]string, skip func(string) bool) ([]string, []map[string]float64) {
	values := make([]map[string]float64, len(rows))
	for i := range values {
		values[i] = map[string]float64{}
	}
	var cols []string
	for c, name := range header {
		if skip(name) {
			continue
		}
		numeric := true
		for i, row := range rows {
			cell := row[c]
			if cell == "" {
				values[i][name] = math.NaN()
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				numeric = false
				break
			}
			values[i][name] = v
		}
		if !numeric {
			for i := range values {
				delete(values[i], name)
			}
			continue
		}
		cols = append(cols, name)
	}
	return cols, values
}

// loadSweep reads a sweep's summary: a run's group is its parameter
// values (the param_ columns); the seed column is what varies inside it.
func loadSweep(dir, file string, header []string, rows [][]string) (*Side, error) {
	runCol, seedCol, dirCol := indexOf(header, metrics.ColRun), indexOf(header, metrics.ColSeed), indexOf(header, metrics.ColRunDir)
	var params []int
	for i, name := range header {
		if strings.HasPrefix(name, metrics.ParamPrefix) {
			params = append(params, i)
		}
	}
	cols, values := numericColumns(header, rows, func(name string) bool {
		return name == metrics.ColRun || name == metrics.ColRunDir || name == metrics.ColSeed || name == metrics.ColRandomSeed || strings.HasPrefix(name, metrics.ParamPrefix)
	})
	s := &Side{Path: dir, Kind: "sweep", Columns: cols}
	seen := map[string]int{}
	for i, row := range rows {
		r := Run{Key: row[runCol], Values: values[i]}
		if line, dup := seen[r.Key]; dup {
			return nil, fmt.Errorf("%s:%d: run %q also on line %d", file, i+2, r.Key, line)
		}
		seen[r.Key] = i + 2
		if seedCol >= 0 {
			r.Seed = row[seedCol]
		}
		if dirCol >= 0 && row[dirCol] != "" {
			prov, err := readProvenance(filepath.Join(dir, filepath.FromSlash(row[dirCol])))
			if err != nil {
				return nil, err
			}
			r.Prov = prov
		}
		var id, label []string
		for _, c := range params {
			id = append(id, header[c]+"="+row[c])
			label = append(label, row[c])
		}
		r.Group = strings.Join(id, "\x1f")
		r.Label = keyWithoutSeed(r.Key, strings.Join(label, "__"))
		s.Runs = append(s.Runs, r)
	}
	return s, nil
}

// keyWithoutSeed drops the seed=… segment of a sweep key
// (kth__easy__seed=2 → kth__easy); a key without one (shortened with a
// hash) gives way to the parameter values.
func keyWithoutSeed(key, fallback string) string {
	parts := strings.Split(key, "__")
	kept := parts[:0]
	found := false
	for _, p := range parts {
		if strings.HasPrefix(p, "seed=") {
			found = true
			continue
		}
		kept = append(kept, p)
	}
	switch {
	case found && len(kept) > 0:
		return strings.Join(kept, "__")
	case fallback != "":
		return fallback
	}
	return "(all runs)"
}

// loadList reads run directories: a run's group is its summary's labels
// (trace, queue, backfill) and its profile; its seed is run.yaml's.
func loadList(path string, dirs []string) (*Side, error) {
	s := &Side{Path: path, Kind: "runs"}
	if len(dirs) == 1 {
		s.Kind = "run"
	}
	var errs []error
	common := map[string]int{}
	for _, dir := range dirs {
		dir = strings.TrimSpace(dir)
		file := filepath.Join(dir, "summary.csv")
		header, rows, err := readSummary(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(rows) != 1 {
			errs = append(errs, fmt.Errorf("%s: a run directory's summary has one row, this has %d (and no run column)", file, len(rows)))
			continue
		}
		cols, values := numericColumns(header, rows, func(string) bool { return false })
		var labels []string
		for c, name := range header {
			if indexOf(cols, name) < 0 {
				labels = append(labels, rows[0][c])
			}
		}
		prov, err := readProvenance(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r := Run{Key: dir, Values: values[0], Prov: prov, Seed: prov.Seed}
		if prov.Profile != "" {
			labels = append(labels, filepath.Base(prov.Profile))
		}
		r.Label = strings.Join(labels, "__")
		if r.Label == "" {
			r.Label = filepath.Base(dir)
		}
		r.Group = r.Label
		s.Runs = append(s.Runs, r)
		for _, c := range cols {
			common[c]++
		}
		if len(s.Runs) == 1 {
			s.Columns = cols
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	kept := s.Columns[:0]
	for _, c := range s.Columns {
		if common[c] == len(s.Runs) {
			kept = append(kept, c)
		}
	}
	s.Columns = kept
	sort.SliceStable(s.Runs, func(a, b int) bool { return s.Runs[a].Key < s.Runs[b].Key })
	return s, nil
}
