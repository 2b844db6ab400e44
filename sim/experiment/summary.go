package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/metrics"
)

// The layout of a sweep directory.
const (
	RunsDir      = "runs"            // DIR/runs/<key>/: one run directory per run
	SpecFile     = "experiment.yaml" // DIR/experiment.yaml: the experiment as run
	ShardsDir    = "shards"          // DIR/shards/<i>-of-<n>.csv: each shard's summary
	doneFile     = "summary.csv"     // written last by a replay
	tmpRunPrefix = ".tmp-"           // DIR/runs/.tmp-<key>: a run being written
)

// RunDir is run key's directory in sweep directory dir.
func RunDir(dir, key string) string { return filepath.Join(dir, RunsDir, key) }

// StageDir is where run key is written before it is renamed to RunDir.
func StageDir(dir, key string) string { return filepath.Join(dir, RunsDir, tmpRunPrefix+key) }

// Done says whether run key of sweep directory dir is complete: its
// directory exists under its final name (runs are renamed into place whole)
// and holds summary.csv, which a replay writes last.
func Done(dir, key string) bool {
	_, err := os.Stat(filepath.Join(RunDir(dir, key), doneFile))
	return err == nil
}

// Missing counts the runs of runs not Done in dir and returns the first
// keep of them (position and key), in order.
func Missing(dir string, runs iter.Seq2[int, Run], keep int) (n int, first []MissingRun) {
	for pos, r := range runs {
		if !Done(dir, r.Key) {
			if n < keep {
				first = append(first, MissingRun{pos, r.Key})
			}
			n++
		}
	}
	return n, first
}

// MissingRun is a run not complete: its position in key order and key.
type MissingRun struct {
	Pos int
	Key string
}

// Summary builds the sweep summary of runs (in key order, all Done in
// dir): one row per run with the columns run, run_dir, the parameter
// columns (float64 when every value is a number, else strings), seed (the
// replica's number, as in the key) and random_seed (the run's --seed), then
// the columns of the runs' own summary.csv in the order first met (the
// spec's metrics when it lists some), without the machine-timing ones.
// A run lacking a column has a null there. It reads only the run
// directories, so the summary does not depend on how the sweep was split.
// The runs come one at a time; the rows are kept, as the table they are
// (their text, one to two kilobytes a run of 50 columns): a column's type
// is known only once every row is read, and the Parquet file is one row
// group.
func (s *Spec) Summary(dir string, runs iter.Seq2[int, Run]) ([]metrics.SweepColumn, error) {
	run := metrics.SweepColumn{Name: metrics.ColRun}
	runDir := metrics.SweepColumn{Name: metrics.ColRunDir}
	// seed is the replica's number in the run key (seed=2); random_seed
	// the --seed the run was given, derived from the spec's seed and the
	// key (RunSeed).
	seed := metrics.SweepColumn{Name: metrics.ColSeed, Kind: metrics.KindInt}
	randomSeed := metrics.SweepColumn{Name: metrics.ColRandomSeed, Kind: metrics.KindInt}
	names := s.ParamColumns()
	params := make([]metrics.SweepColumn, len(names))
	for i, name := range names {
		params[i] = metrics.SweepColumn{Name: name, Kind: metrics.KindFloat}
	}
	var order []string
	values := map[string][]string{}
	n := 0
	for _, r := range runs {
		row := n
		n++
		run.Values = append(run.Values, r.Key)
		runDir.Values = append(runDir.Values, RunsDir+"/"+r.Key)
		seed.Values = append(seed.Values, strconv.Itoa(r.Replica))
		randomSeed.Values = append(randomSeed.Values, strconv.FormatUint(r.Seed, 10))
		for i, v := range r.Values() {
			params[i].Values = append(params[i].Values, v.String())
			if !v.IsNum {
				params[i].Kind = metrics.KindString
			}
		}
		summary, err := readRunSummary(RunDir(dir, r.Key))
		if err != nil {
			return nil, err
		}
		header, cells := summary.Names, summary.Values
		for i, name := range header {
			if metrics.IsTimingColumn(name) {
				continue
			}
			col, ok := values[name]
			if !ok {
				order = append(order, name)
			}
			values[name] = setCell(col, row, cells[i])
		}
	}
	if len(s.Metrics) > 0 {
		order = s.Metrics
	}
	cols := append([]metrics.SweepColumn{run, runDir}, params...)
	cols = append(cols, seed, randomSeed)
	for _, name := range order {
		v := values[name]
		v = append(v, make([]string, n-len(v))...) // null in the runs after the last that has it
		kind, known := metrics.RunSummaryKind(name)
		switch {
		case known:
		case slices.Contains(runLabels, name):
			kind = metrics.KindString
		default: // a column newer than this binary knows: a number if every value is
			kind = metrics.KindFloat
			for _, x := range v {
				if _, err := strconv.ParseFloat(x, 64); x != "" && err != nil {
					kind = metrics.KindString
				}
			}
		}
		cols = append(cols, metrics.SweepColumn{Name: name, Kind: kind, Values: v})
	}
	return cols, nil
}

// setCell sets row of a column grown one run at a time: the rows of runs
// without the column before it are null ("").
func setCell(col []string, row int, v string) []string {
	if len(col) > row {
		col[row] = v // a column named twice in one run's summary: the last
		return col
	}
	col = append(col, make([]string, row-len(col))...)
	return append(col, v)
}

// readRunSummary reads a finished run's summary.
func readRunSummary(runDir string) (metrics.SummaryRow, error) {
	row, err := metrics.ReadRunSummary(runDir)
	if errors.Is(err, fs.ErrNotExist) {
		return row, fmt.Errorf("%s: run not finished (no summary.csv)", runDir)
	}
	return row, err
}
