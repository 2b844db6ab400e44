package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/schedsim/schedsim/metrics"
)

// Inputs are the directories of one report: run directories, drawn one
// line or box per run; sweep directories, drawn as weight heatmaps (or a
// tuning run's evaluated weights) and a Pareto front each; and openb
// outputs, drawn as allocation and fragmentation curves per policy.
type Inputs struct {
	Runs   []*Run
	Sweeps []*Sweep
	Openb  []*Openb
}

// Options tune the figures.
type Options struct {
	// Size is every figure's size; zero fields take DefaultSize's.
	Size Size
	// GanttWindow is the span of the Gantt charts, in seconds since the
	// run's first event: [from, to). Zero: the whole run when it has at
	// most ganttMaxJobs jobs, else its first day.
	GanttWindow [2]float64
	// TimeZone, when set, is the zone of every calendar axis instead of
	// each trace's own (run.yaml's provenance), UTC when it has none.
	TimeZone *time.Location
	// GanttColor colours the Gantt bars: "user" (the default) or "state".
	GanttColor string

	// HeatmapMetrics are the sweep summary columns drawn as weight
	// heatmaps, one figure each; when empty, those of
	// DefaultHeatmapMetrics the summary has.
	HeatmapMetrics []string
	// HeatmapWeights are the two weights (w_age or param_w_age) on the
	// heatmaps' axes; when empty, the two swept weights with the most
	// values.
	HeatmapWeights []string

	// Answers are the planner's questions answered over the inputs
	// (compare's targets): drawn first, each a figure and a sentence.
	Answers []Answer
	// Differs, when set, says whether two values of a summary column
	// differ by more than their tolerance: the summary table marks a best
	// run only where it does.
	Differs Differs
	// Comparisons are the effects of each other sweep against the first,
	// as compare computes them: a table each, after the answers, and its
	// CSV written beside the figures.
	Comparisons []Comparison
}

// Comparison is one candidate sweep against the base sweep: what differs,
// its effects, and compare's CSV of them.
type Comparison struct {
	Title   string // "today-1.3x → plus20-1.3x"
	Setup   string // "a what-if on the same workload (…): cluster_factor: none → 1.2"
	Effects []Effect
	File    string // "effects.csv"; "" when the sweeps were not compared
	CSV     []byte
}

// DefaultHeatmapMetrics are the Pareto front's first two objectives: the
// heatmaps show where in weight space each is good.
var DefaultHeatmapMetrics = []string{metrics.ColMeanWait, metrics.ColJainBSLD}

// Generate reads the directories and writes the report into out (see
// Write).
func Generate(dirs []string, out string, opts Options) ([]string, error) {
	in, err := LoadInputs(dirs)
	if err != nil {
		return nil, err
	}
	return Write(in, out, opts)
}

// LoadInputs reads run and sweep directories in order (the i-th run gets
// colour i) and makes the runs' labels unique. A sweep directory is
// recognised by its summary.csv's `run` column. The CLI calls it apart
// from Write so that a bad directory is a usage error and a failed write
// is a run error.
func LoadInputs(dirs []string) (*Inputs, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("report: no run or sweep directory")
	}
	in := &Inputs{}
	for _, d := range dirs {
		if isOpenb(d) {
			o, err := LoadOpenb(d)
			if err != nil {
				return nil, err
			}
			in.Openb = append(in.Openb, o)
			continue
		}
		if isSweep(d) {
			s, err := LoadSweep(d)
			if err != nil {
				return nil, err
			}
			in.Sweeps = append(in.Sweeps, s)
			continue
		}
		r, err := Load(d)
		if err != nil {
			return nil, err
		}
		in.Runs = append(in.Runs, r)
	}
	uniqueLabels(in.Runs)
	return in, nil
}

// Write writes into out one PNG and one SVG per figure and index.html.
// Every file is written atomically (temp + rename), index.html last, so
// its presence means the report is complete. It returns the paths
// written, in order.
func Write(in *Inputs, out string, opts Options) ([]string, error) {
	var runFigs []Figure
	if len(in.Runs) > 0 {
		var err error
		if runFigs, err = Figures(in.Runs, opts); err != nil {
			return nil, err
		}
	}
	var answerFigs []Figure
	for i, a := range opts.Answers {
		f, err := answerFigure(a, i)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		answerFigs = append(answerFigs, f)
	}
	figs := append(slices.Clone(answerFigs), runFigs...)
	views := make([]*sweepView, len(in.Sweeps))
	for i, s := range in.Sweeps {
		v, err := sweepFigures(s, sweepPrefix(i, len(in.Sweeps)), opts)
		if err != nil {
			return nil, err
		}
		views[i] = v
		figs = append(figs, v.Figures...)
	}
	compared, err := compareFigures(in.Sweeps)
	if err != nil {
		return nil, err
	}
	figs = append(figs, compared...)
	var openbFigs [][]Figure
	for i, o := range in.Openb {
		prefix := ""
		if len(in.Openb) > 1 {
			prefix = fmt.Sprintf("openb%d_", i+1)
		}
		fs, err := openbFigures(o, prefix)
		if err != nil {
			return nil, err
		}
		openbFigs = append(openbFigs, fs)
		figs = append(figs, fs...)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var written []string
	write := func(name string, data []byte) error {
		path := filepath.Join(out, name)
		err := metrics.WriteFileAtomic(path, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			return err
		}
		written = append(written, path)
		return nil
	}
	pngs := map[string][]byte{}
	for _, f := range figs {
		for _, ext := range []string{"png", "svg"} {
			data, err := f.renderAt(ext, opts.Size)
			if err != nil {
				return nil, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			if ext == "png" {
				pngs[f.Name] = data
			}
			if err := write(f.Name+"."+ext, data); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range opts.Comparisons {
		if c.File == "" {
			continue // not compared (different workloads)
		}
		if err := write(c.File, c.CSV); err != nil {
			return nil, err
		}
	}
	page, err := renderIndex(in, runFigs, views, compared, openbFigs, pngs, lead{answers: opts.Answers, figures: answerFigs, comparisons: opts.Comparisons, differs: opts.Differs})
	if err != nil {
		return nil, err
	}
	if err := write("index.html", page); err != nil {
		return nil, err
	}
	return written, nil
}

// sweepPrefix names the figures of sweep i: "sweep_" alone, or with the
// sweep's number when there are several.
func sweepPrefix(i, n int) string {
	if n == 1 {
		return "sweep_"
	}
	return fmt.Sprintf("sweep%d_", i+1)
}
