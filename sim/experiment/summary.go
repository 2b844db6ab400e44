package experiment

import (
	"errors"
	"fmt"
	"io/fs"
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

// Missing lists the keys of runs not Done in dir, in order.
func Missing(dir string, runs []Run) []string {
	var keys []string
	for _, r := range runs {
		if !Done(dir, r.Key) {
			keys = append(keys, r.Key)
		}
	}
	return keys
}

// Summary builds the sweep summary of runs (sorted by key, all Done in
// dir): one row per run with the columns run, run_dir, the parameter
// columns (float64 when every value is a number, else strings), seed (the
// replica's number, as in the key) and random_seed (the run's --seed), then
// the columns of the runs' own summary.csv in the order first met (the
// spec's metrics when it lists some), without the machine-timing ones.
// A run lacking a column has a null there. It reads only the run
// directories, so the summary does not depend on how the sweep was split.
func (s *Spec) Summary(dir string, runs []Run) ([]metrics.SweepColumn, error) {
	n := len(runs)
	run := metrics.SweepColumn{Name: metrics.ColRun, Values: make([]string, n)}
	runDir := metrics.SweepColumn{Name: metrics.ColRunDir, Values: make([]string, n)}
	// seed is the replica's number in the run key (seed=2); random_seed
	// the --seed the run was given, derived from the spec's seed and the
	// key (RunSeed).
	seed := metrics.SweepColumn{Name: metrics.ColSeed, Kind: metrics.KindInt, Values: make([]string, n)}
	randomSeed := metrics.SweepColumn{Name: metrics.ColRandomSeed, Kind: metrics.KindInt, Values: make([]string, n)}
	names := s.ParamColumns()
	params := make([]metrics.SweepColumn, len(names))
	for i, name := range names {
		params[i] = metrics.SweepColumn{Name: name, Kind: metrics.KindFloat, Values: make([]string, n)}
	}
	var order []string
	values := map[string][]string{}
	for row, r := range runs {
		run.Values[row] = r.Key
		runDir.Values[row] = RunsDir + "/" + r.Key
		seed.Values[row] = strconv.Itoa(r.Replica)
		randomSeed.Values[row] = strconv.FormatUint(r.Seed, 10)
		for i, v := range r.Values() {
			params[i].Values[row] = v.String()
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
				col = make([]string, n)
			}
			col[row] = cells[i]
			values[name] = col
		}
	}
	if len(s.Metrics) > 0 {
		order = s.Metrics
	}
	cols := append([]metrics.SweepColumn{run, runDir}, params...)
	cols = append(cols, seed, randomSeed)
	for _, name := range order {
		v, ok := values[name]
		if !ok {
			v = make([]string, n)
		}
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

// readRunSummary reads a finished run's summary.
func readRunSummary(runDir string) (metrics.SummaryRow, error) {
	row, err := metrics.ReadRunSummary(runDir)
	if errors.Is(err, fs.ErrNotExist) {
		return row, fmt.Errorf("%s: run not finished (no summary.csv)", runDir)
	}
	return row, err
}
