package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// newCalibrateCommand is `schedsim calibrate TRACE --space SPACE.yaml`:
// replays every candidate baseline of a declared space and ranks them by
// how well they reproduce the recorded waits.
func newCalibrateCommand() *cobra.Command {
	cfg := run.Default()
	var spacePath, out string
	var holdout float64
	var workers int
	cmd := &cobra.Command{
		Use:   "calibrate [TRACE] --space SPACE.yaml",
		Short: "Rank candidate baselines by how well they reproduce a trace's recorded waits, checked on held-out months",
		Long: `calibrate replays every candidate baseline of a search space (SPACE.yaml) on a trace that
records its jobs' real starts, and ranks them by

    objective = calib_wait_ks + |ln calib_mean_wait_ratio| + |ln calib_p95_wait_ratio|

(0 is a replay whose wait distribution, mean and 95th percentile all match the record; a
candidate whose metrics are null ranks last). Waits are compared at the trace's recorded time
resolution, detected from its recorded waits: the largest of 3600, 600, 300, 60, 30, 10, 5, 2, 1 s
that divides 99 % of the nonzero ones (--calib-resolution sets it).

With --holdout H (default 0.4) the trace's submit span is cut at its (1 − H) point: candidates
are chosen on the jobs submitted before (fit_*) and every metric is reported on those after
(holdout_*), which the choice never saw. Each candidate replays the whole trace once per part.
--holdout 0 chooses and reports on the whole log: in-sample, and labelled so.

SPACE.yaml (see docs/what-if.md):

    base: {swf_model: nodes}            # run spec keys every candidate shares (optional)
    axes:                               # run spec keys, each a list of values
      queue: [fcfs, sjf]
      backfill: [easy, none]
      scheduling_interval_s: [0, 60]
      availability: [off, on, 0.3/2]    # inferred availability (schedsim availability) as node events: on is
                                        # its default rule, 0.3/2 at most 30 % busy for at least 2 h
      max_jobs_per_user: [0, inferred]  # inferred: the most any user had running at once in the record

Flags set the run spec the candidates start from, as for replay. It writes into --out:
calibration.csv (one row a candidate, ranked, every calibration metric of each part),
best.yaml (the best candidate's complete run spec: 'schedsim replay --config best.yaml'
reproduces its holdout_* columns, or with --holdout 0 its all_* ones), calibration.png, and
runs/ (each candidate's summary; an interrupted calibrate resumes from them).

Exit status: 0 done, 1 a replay failed, 2 bad input.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				cfg.Trace = args[0]
			}
			if spacePath == "" {
				return run.BadInput(errors.New("--space: give the search space YAML file"))
			}
			if holdout < 0 || holdout >= 1 {
				return run.BadInput(fmt.Errorf("--holdout: want a share in [0, 1), got %g", holdout))
			}
			if workers < 1 {
				return run.BadInput(fmt.Errorf("--workers: want ≥ 1, got %d", workers))
			}
			out, cfg.Out = cfg.Out, ""
			if out == "" {
				return run.BadInput(errors.New("--out: give the directory to write into"))
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			space, err := loadSpace(spacePath)
			if err != nil {
				return run.BadInput(err)
			}
			defer runtimeForManyRuns(workers)()
			ctx, stop := interruptible()
			defer stop()
			c := &calibrator{base: cfg, space: space, out: out, holdout: holdout, workers: workers,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), resolutionSet: cmd.Flags().Changed("calib-resolution")}
			if cfg.Quiet {
				c.stdout = io.Discard // --quiet: the files say it all
			}
			return c.run(ctx)
		},
	}
	cfg.BindFlags(cmd.Flags())
	cmd.Flags().Lookup("out").Usage = "directory for calibration.csv, best.yaml, calibration.png and runs/ (resumed when it holds an earlier calibrate's runs)"
	cmd.Flags().StringVar(&spacePath, "space", "", "search space YAML: base: and axes: of run spec keys (see --help)")
	cmd.Flags().Float64Var(&holdout, "holdout", 0.4, "choose on the earlier 1−H of the submit span, report on the later H (0: in-sample)")
	cmd.Flags().IntVar(&workers, "workers", runtime.NumCPU(), "replays at once")
	return cmd
}

// calibObjective is the ranking objective of a part's metrics.
func calibObjective(ks, meanRatio, p95Ratio float64) float64 {
	return ks + math.Abs(math.Log(meanRatio)) + math.Abs(math.Log(p95Ratio))
}

// calibColumns are the summary columns a candidate's part reports.
var calibColumns = []string{"calib_jobs", "calib_wait_ks", "calib_mean_wait_ratio", "calib_p95_wait_ratio",
	"calib_start_error_median_s", "calib_start_error_p90_s", "mean_wait_s", "p95_wait_s", "utilization"}

// space is a search space file.
type space struct {
	file string
	base *yaml.Node
	axes []axis
}

type axis struct {
	key    string
	values []*yaml.Node
}

func loadSpace(path string) (*space, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--space: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:1: want a mapping with axes: (and optionally base:)", path)
	}
	s := &space{file: path}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "base":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d: base: want a mapping of run spec keys", path, v.Line)
			}
			s.base = v
		case "axes":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d: axes: want a mapping of run spec keys to lists of values", path, v.Line)
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ak, av := v.Content[j], v.Content[j+1]
				if av.Kind != yaml.SequenceNode || len(av.Content) == 0 {
					return nil, fmt.Errorf("%s:%d: axes.%s: want a list of values", path, av.Line, ak.Value)
				}
				s.axes = append(s.axes, axis{key: ak.Value, values: av.Content})
			}
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q (known: base, axes)", path, k.Line, k.Value)
		}
	}
	if len(s.axes) == 0 {
		return nil, fmt.Errorf("%s: no axes: nothing to search", path)
	}
	return s, nil
}

// candidate is one point of the space: its axis values (as written) and
// its run spec for each part.
type candidate struct {
	id     string
	values []string
	parts  map[string]run.Spec // fit, holdout, or all
	result map[string][]string // part → the calibColumns' values as summary.csv wrote them
	score  float64             // the objective on the choosing part; NaN when null
}

type calibrator struct {
	base          run.Spec
	space         *space
	out           string
	holdout       float64
	workers       int
	stdout        io.Writer
	stderr        io.Writer
	resolutionSet bool

	record *recordFacts
	events map[string]string // cluster key → node-events file of its inferred availability
}

func (c *calibrator) run(ctx context.Context) error {
	if err := os.MkdirAll(filepath.Join(c.out, "runs"), 0o755); err != nil {
		return run.Failed(err)
	}
	facts, err := readRecord(c.base)
	if err != nil {
		return err
	}
	c.record = facts
	if !c.resolutionSet {
		c.base.CalibResolutionS = facts.resolution
	}
	cands, err := c.candidates()
	if err != nil {
		return run.BadInput(err)
	}
	parts := c.partNames()
	fmt.Fprintf(c.stdout, "calibrate %s: %d candidates × %d parts; recorded resolution %s; %s\n",
		facts.trace, len(cands), len(parts), resolutionText(c.base.CalibResolutionS, c.resolutionSet), c.splitText())
	type job struct {
		cand *candidate
		part string
	}
	var todo []job
	for _, cd := range cands {
		for _, p := range parts {
			// Reuse a finished run only if it replayed this very spec:
			// an edited space renumbers or changes the candidates.
			if vals, ok := readResult(c.runDir(cd, p)); ok && sameSpec(c.runDir(cd, p), cd.parts[p]) {
				cd.result[p] = vals
				continue
			}
			todo = append(todo, job{cd, p})
		}
	}
	var bar *progressbar.ProgressBar
	if run.IsTerminal(os.Stderr) && len(todo) > 0 {
		bar = progressbar.NewOptions(len(todo), progressbar.OptionSetWriter(c.stderr), progressbar.OptionSetDescription("calibrate"),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString("runs"), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, c.workers)
	var wg sync.WaitGroup
	for _, j := range todo {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			vals, err := c.replay(ctx, j.cand, j.part)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("candidate %s (%s): %w", j.cand.id, j.part, err)
				}
				return
			}
			j.cand.result[j.part] = vals
			if bar != nil {
				bar.Add(1)
			}
		}()
	}
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	if ctx.Err() != nil {
		return run.Failed(fmt.Errorf("interrupted: the finished candidates are kept in %s; run the same command to resume", filepath.Join(c.out, "runs")))
	}
	if firstErr != nil {
		return run.Failed(firstErr)
	}
	choose := parts[0]
	for _, cd := range cands {
		cd.score = partObjective(cd.result[choose])
	}
	ranked := slices.Clone(cands)
	slices.SortStableFunc(ranked, func(a, b *candidate) int {
		switch an, bn := math.IsNaN(a.score), math.IsNaN(b.score); {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		}
		if a.score < b.score {
			return -1
		}
		if a.score > b.score {
			return 1
		}
		return 0
	})
	if err := c.writeCSV(ranked, parts); err != nil {
		return run.Failed(err)
	}
	best := ranked[0]
	report := parts[len(parts)-1]
	if err := run.WriteSpec(filepath.Join(c.out, "best.yaml"), best.parts[report]); err != nil {
		return run.Failed(err)
	}
	if err := calibrationFigure(filepath.Join(c.out, "calibration.png"), facts.trace, ranked, parts, c.space.axes); err != nil {
		return run.Failed(err)
	}
	c.printTable(ranked, parts)
	return nil
}

func resolutionText(r float64, set bool) string {
	how := "detected"
	if set {
		how = "given"
	}
	if r == 0 {
		return "exact (" + how + ")"
	}
	return fmt.Sprintf("%g s (%s)", r, how)
}

func (c *calibrator) splitText() string {
	if c.holdout == 0 {
		return "chosen and reported on the whole log (in-sample)"
	}
	return fmt.Sprintf("chosen on the jobs submitted before %.0f s (the first %.0f %% of the submit span), reported on those after (held out)",
		c.record.cut(c.holdout), 100*(1-c.holdout))
}

// partNames are the parts each candidate replays: the choosing part
// first, the reported one last.
func (c *calibrator) partNames() []string {
	if c.holdout == 0 {
		return []string{"all"}
	}
	return []string{"fit", "holdout"}
}

// candidates expands the space over the base spec.
func (c *calibrator) candidates() ([]*candidate, error) {
	base := c.base
	if c.space.base != nil {
		if err := base.Overlay(c.space.file, c.space.base); err != nil {
			return nil, err
		}
	}
	n := 1
	for _, a := range c.space.axes {
		n *= len(a.values)
	}
	if n > 100000 {
		return nil, fmt.Errorf("%s: %d candidates: more than 100,000", c.space.file, n)
	}
	var out []*candidate
	idx := make([]int, len(c.space.axes))
	for k := 0; k < n; k++ {
		rem := k
		for i := len(c.space.axes) - 1; i >= 0; i-- {
			idx[i] = rem % len(c.space.axes[i].values)
			rem /= len(c.space.axes[i].values)
		}
		cd := &candidate{id: fmt.Sprintf("c%04d", k), parts: map[string]run.Spec{}, result: map[string][]string{}}
		spec := base
		over := &yaml.Node{Kind: yaml.MappingNode}
		var rule *availability.Rule // inferred availability on, by this rule
		for i, a := range c.space.axes {
			v := a.values[idx[i]]
			cd.values = append(cd.values, axisValueText(v))
			switch {
			case a.key == "availability":
				r, on, err := availabilityRule(v.Value)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: axes.availability: %v", c.space.file, v.Line, err)
				}
				rule = r
				if !on {
					rule = nil
				}
				continue
			case v.Value == "inferred" && (a.key == "max_jobs_per_user" || a.key == "max_procs_per_user"):
				lim := c.record.maxJobsPerUser
				if a.key == "max_procs_per_user" {
					lim = c.record.maxProcsPerUser
				}
				v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(lim, 10), Line: v.Line}
			}
			over.Content = append(over.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: a.key, Line: v.Line}, v)
		}
		if err := spec.Overlay(c.space.file, over); err != nil {
			return nil, err
		}
		if rule != nil {
			path, err := c.availabilityFor(spec, *rule)
			if err != nil {
				return nil, err
			}
			spec.NodeEvents = path
		}
		spec.Format, spec.Quiet, spec.Out = metrics.FormatCSV, true, ""
		for _, p := range c.partNames() {
			ps := spec
			switch p {
			case "fit":
				ps.CalibFromS, ps.CalibUntilS = 0, c.record.cut(c.holdout)
			case "holdout":
				ps.CalibFromS, ps.CalibUntilS = c.record.cut(c.holdout), 0
			}
			if err := ps.Validate(); err != nil {
				return nil, fmt.Errorf("candidate %s (%s): %w", cd.id, strings.Join(cd.values, ", "), err)
			}
			cd.parts[p] = ps
		}
		out = append(out, cd)
	}
	return out, nil
}

// availabilityRule reads a value of the availability axis: off, on (the
// default rule: at most 20 % busy for at least an hour), or a rule of its
// own as BUSY_SHARE/MIN_HOURS (0.3/2: at most 30 % busy for at least 2 h).
func availabilityRule(v string) (*availability.Rule, bool, error) {
	switch v {
	case "off", "false":
		return nil, false, nil
	case "on", "true":
		r := availability.DefaultRule
		return &r, true, nil
	}
	share, hours, ok := strings.Cut(v, "/")
	b, err1 := strconv.ParseFloat(share, 64)
	h, err2 := strconv.ParseFloat(hours, 64)
	if !ok || err1 != nil || err2 != nil || !(b > 0 && b < 1) || !(h > 0 && h <= 1e6) {
		return nil, false, fmt.Errorf("want off, on, or BUSY_SHARE/MIN_HOURS with a share in (0, 1) and hours > 0 (0.3/2), got %q", v)
	}
	d, err := sim.CheckSeconds(h * 3600)
	if err != nil {
		return nil, false, fmt.Errorf("%q: %v", v, err)
	}
	return &availability.Rule{BusyShare: b, MinDuration: d}, true, nil
}

// axisValueText is how calibration.csv and the table print an axis value:
// a scalar as written, a list in YAML's flow style ([submit, end]).
func axisValueText(v *yaml.Node) string {
	if v.Kind != yaml.SequenceNode {
		return v.Value
	}
	var items []string
	for _, it := range v.Content {
		items = append(items, axisValueText(it))
	}
	return "[" + strings.Join(items, ", ") + "]"
}

func (c *calibrator) runDir(cd *candidate, part string) string {
	return filepath.Join(c.out, "runs", cd.id+"-"+part)
}

// replay runs one part of a candidate into a staging directory renamed
// into place once complete, and returns its calibColumns.
func (c *calibrator) replay(ctx context.Context, cd *candidate, part string) ([]string, error) {
	final := c.runDir(cd, part)
	stage := final + ".partial"
	os.RemoveAll(stage)
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return nil, err
	}
	spec := cd.parts[part]
	if _, err := run.Replay(ctx, &spec, run.Options{Dir: stage}); err != nil {
		os.RemoveAll(stage)
		return nil, err
	}
	// What resumes need: the summary and the spec's fingerprint; the
	// tables are the bulk.
	for _, f := range []string{"jobs.csv", "timeseries.csv", "nodes.csv", "tenants.csv"} {
		os.Remove(filepath.Join(stage, f))
	}
	fp, err := specFingerprint(spec)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(stage, specFingerprintFile), []byte(fp+"\n"), 0o644); err != nil {
		return nil, err
	}
	os.RemoveAll(final)
	if err := os.Rename(stage, final); err != nil {
		return nil, err
	}
	vals, ok := readResult(final)
	if !ok {
		return nil, fmt.Errorf("%s: no summary.csv with the calibration columns", final)
	}
	return vals, nil
}

// specFingerprintFile holds, in a candidate's run directory, the SHA-256
// of the spec it replayed.
const specFingerprintFile = "spec.sha256"

// specFingerprint is the SHA-256 of a spec as YAML.
func specFingerprint(spec run.Spec) (string, error) {
	data, err := yaml.Marshal(&spec)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// sameSpec says whether the run in dir replayed spec.
func sameSpec(dir string, spec run.Spec) bool {
	data, err := os.ReadFile(filepath.Join(dir, specFingerprintFile))
	fp, ferr := specFingerprint(spec)
	return err == nil && ferr == nil && strings.TrimSpace(string(data)) == fp
}

// readResult reads a finished run's calibColumns from its summary.csv.
func readResult(dir string) ([]string, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if err != nil {
		return nil, false
	}
	return summaryValues(data, calibColumns)
}

// summaryValues picks columns of a one-row summary.csv, as written.
func summaryValues(data []byte, cols []string) ([]string, bool) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) != 2 {
		return nil, false
	}
	var out []string
	for _, name := range cols {
		i := slices.Index(rows[0], name)
		if i < 0 {
			return nil, false
		}
		out = append(out, rows[1][i])
	}
	return out, true
}

// partObjective is the objective of a part's values (NaN when null).
func partObjective(vals []string) float64 {
	num := func(name string) float64 {
		i := slices.Index(calibColumns, name)
		f, err := strconv.ParseFloat(vals[i], 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	if vals == nil {
		return math.NaN()
	}
	return calibObjective(num("calib_wait_ks"), num("calib_mean_wait_ratio"), num("calib_p95_wait_ratio"))
}

func (c *calibrator) writeCSV(ranked []*candidate, parts []string) error {
	return metrics.WriteFileAtomic(filepath.Join(c.out, "calibration.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"rank", "candidate"}
		for _, a := range c.space.axes {
			head = append(head, a.key)
		}
		for _, p := range parts {
			head = append(head, p+"_objective")
			for _, col := range calibColumns {
				head = append(head, p+"_"+col)
			}
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		for i, cd := range ranked {
			row := append([]string{strconv.Itoa(i + 1), cd.id}, cd.values...)
			for _, p := range parts {
				obj := partObjective(cd.result[p])
				if math.IsNaN(obj) {
					row = append(row, "")
				} else {
					row = append(row, strconv.FormatFloat(obj, 'g', 6, 64))
				}
				row = append(row, cd.result[p]...)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// printTable prints the best candidates.
func (c *calibrator) printTable(ranked []*candidate, parts []string) {
	fmt.Fprintf(c.stdout, "objective = wait KS + |ln mean-wait ratio| + |ln p95-wait ratio|, chosen on %s\n", parts[0])
	var keys []string
	for _, a := range c.space.axes {
		keys = append(keys, a.key)
	}
	fmt.Fprintf(c.stdout, "%-5s %-40s", "rank", strings.Join(keys, " / "))
	for _, p := range parts {
		fmt.Fprintf(c.stdout, " | %-7s %9s %6s %6s %6s", p, "objective", "KS", "mean", "p95")
	}
	fmt.Fprintln(c.stdout)
	for i, cd := range ranked {
		if i == 10 {
			fmt.Fprintf(c.stdout, "… %d more in calibration.csv\n", len(ranked)-10)
			break
		}
		fmt.Fprintf(c.stdout, "%-5d %-40s", i+1, strings.Join(cd.values, " / "))
		for _, p := range parts {
			v := cd.result[p]
			fmt.Fprintf(c.stdout, " | %-7s %9s %6s %6s %6s", "", fmtNum(partObjective(v)), short(v[1]), short(v[2]), short(v[3]))
		}
		fmt.Fprintln(c.stdout)
	}
	fmt.Fprintf(c.stdout, "best: %s → %s (schedsim replay --config %s reproduces its %s columns)\n",
		strings.Join(ranked[0].values, " / "), filepath.Join(c.out, "best.yaml"), filepath.Join(c.out, "best.yaml"), parts[len(parts)-1])
}

func fmtNum(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

func short(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "n/a"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}
