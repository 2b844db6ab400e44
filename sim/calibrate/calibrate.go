package calibrate

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/availability"
)

// Objective is the ranking objective of a part's metrics: 0 for a replay
// whose wait distribution, mean and 95th percentile match the record.
func Objective(ks, meanRatio, p95Ratio float64) float64 {
	return ks + math.Abs(math.Log(meanRatio)) + math.Abs(math.Log(p95Ratio))
}

// Columns are the summary columns a candidate's part reports.
var Columns = []string{metrics.ColCalibJobs, metrics.ColCalibWaitKS, metrics.ColCalibMeanWaitRatio, metrics.ColCalibP95WaitRatio,
	metrics.ColCalibStartErrorMedian, metrics.ColCalibStartErrorP90, metrics.ColMeanWait, metrics.ColP95Wait, metrics.ColUtilization}

// Candidate is one point of the space: its axis values (as written) and
// its run spec for each part.
type Candidate struct {
	ID     string
	Values []string
	Parts  map[string]run.Spec // fit, holdout, or all
	Result map[string][]string // part → the Columns' values as summary.csv wrote them
	Score  float64             // the choice objective (rule.go); NaN when null
	Choice Choice
}

// Value is the cell of column col (one of Columns) of the candidate's
// part, as summary.csv wrote it; "" when not known.
func (cd *Candidate) Value(part, col string) string {
	vals := cd.Result[part]
	if i := slices.Index(Columns, col); i >= 0 && vals != nil {
		return vals[i]
	}
	return ""
}

// Calibration is a calibrate run: the record's facts, the candidates and
// the parts each replays, in Out.
type Calibration struct {
	Base    run.Spec // the candidates' starting spec, its resolution detected unless given
	Space   *Space
	Out     string
	Holdout float64
	Record  *Record
	// Candidates are the space's points over Base; Parts what each
	// replays: the choosing part first, the reported one last; Blocks
	// the choosing part's blocks the rule chooses by (rule.go), each
	// replayed as a part of its own (none without blocks).
	Candidates []*Candidate
	Parts      []string
	Blocks     []string

	blocks int               // the choosing part's blocks for the rule (rule.go); 0: none
	events map[string]string // cluster key → node-events file of its inferred availability
}

// New reads the record of base's trace (its recorded waits' resolution,
// which becomes base's unless resolutionSet, its submit span and the
// users of the choosing part) and expands the space over base into
// candidates, writing into out. blocks is the number of blocks the
// choosing part is cut into for the rule (0: none; never 1).
func New(base run.Spec, space *Space, out string, holdout float64, blocks int, resolutionSet bool) (*Calibration, error) {
	c := &Calibration{Base: base, Space: space, Out: out, Holdout: holdout, blocks: blocks}
	if err := os.MkdirAll(filepath.Join(out, "runs"), 0o755); err != nil {
		return nil, run.Failed(err)
	}
	facts, err := readRecord(c.Base, c.Holdout)
	if err != nil {
		return nil, err
	}
	c.Record = facts
	if !resolutionSet {
		c.Base.CalibResolutionS = facts.Resolution
	}
	c.Parts, c.Blocks = c.partNames(), c.blockNames()
	if c.Candidates, err = c.candidates(); err != nil {
		return nil, run.BadInput(err)
	}
	return c, nil
}

// Cut is the submit time that splits the fit part from the held-out one.
func (c *Calibration) Cut() float64 { return c.Record.cut(c.Holdout) }

// Run replays every part and block of every candidate not already
// replayed in Out (workers at once; a progress bar on progress, when not
// nil), ranks the candidates by the rule (rule.go) and writes
// calibration.csv, best.yaml and calibration.png. It returns the
// candidates ranked, the chosen first.
func (c *Calibration) Run(ctx context.Context, workers int, progress io.Writer) ([]*Candidate, error) {
	cands, parts := c.Candidates, c.Parts
	all := append(slices.Clone(parts), c.Blocks...)
	type job struct {
		cand *Candidate
		part string
	}
	var todo []job
	for _, cd := range cands {
		for _, p := range all {
			// Reuse a finished run only if it replayed this very spec:
			// an edited space renumbers or changes the candidates.
			if vals, ok := readResult(c.runDir(cd, p)); ok && sameSpec(c.runDir(cd, p), cd.Parts[p]) {
				cd.Result[p] = vals
				continue
			}
			todo = append(todo, job{cd, p})
		}
	}
	var bar *progressbar.ProgressBar
	if progress != nil && len(todo) > 0 {
		bar = progressbar.NewOptions(len(todo), progressbar.OptionSetWriter(progress), progressbar.OptionSetDescription("calibrate"),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString("runs"), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, workers)
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
					firstErr = fmt.Errorf("candidate %s (%s): %w", j.cand.ID, j.part, err)
				}
				return
			}
			j.cand.Result[j.part] = vals
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
		return nil, run.Failed(fmt.Errorf("interrupted: the finished candidates are kept in %s; run the same command to resume", filepath.Join(c.Out, "runs")))
	}
	if firstErr != nil {
		return nil, run.Failed(firstErr)
	}
	ranked := c.choose(cands)
	if err := c.writeCSV(ranked, all); err != nil {
		return nil, run.Failed(err)
	}
	best := ranked[0]
	report := parts[len(parts)-1]
	if err := run.WriteSpec(filepath.Join(c.Out, "best.yaml"), best.Parts[report]); err != nil {
		return nil, run.Failed(err)
	}
	if err := calibrationFigure(filepath.Join(c.Out, "calibration.png"), c.Record.Trace, ranked, parts, c.Space.axes, c.choiceAxisLabel()); err != nil {
		return nil, run.Failed(err)
	}
	return ranked, nil
}

// partNames are the parts each candidate replays: the choosing part
// first, the reported one last.
func (c *Calibration) partNames() []string {
	if c.Holdout == 0 {
		return []string{"all"}
	}
	return []string{"fit", "holdout"}
}

// candidates expands the space over the base spec.
func (c *Calibration) candidates() ([]*Candidate, error) {
	base := c.Base
	if c.Space.base != nil {
		if err := base.OverlayFrom(c.Space.file, c.Space.base); err != nil {
			return nil, err
		}
	}
	n := 1
	for _, a := range c.Space.axes {
		n *= len(a.values)
	}
	if n > 100000 {
		return nil, fmt.Errorf("%s: %d candidates: more than 100,000", c.Space.file, n)
	}
	var out []*Candidate
	idx := make([]int, len(c.Space.axes))
	for k := 0; k < n; k++ {
		rem := k
		for i := len(c.Space.axes) - 1; i >= 0; i-- {
			idx[i] = rem % len(c.Space.axes[i].values)
			rem /= len(c.Space.axes[i].values)
		}
		cd := &Candidate{ID: fmt.Sprintf("c%04d", k), Parts: map[string]run.Spec{}, Result: map[string][]string{}}
		spec := base
		over := &yaml.Node{Kind: yaml.MappingNode}
		var rule *availability.Rule // inferred availability on, by this rule
		for i, a := range c.Space.axes {
			v := a.values[idx[i]]
			cd.Values = append(cd.Values, axisValueText(v))
			switch {
			case a.key == "availability":
				r, on, err := availabilityRule(v.Value)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: axes.availability: %v", c.Space.file, v.Line, err)
				}
				rule = r
				if !on {
					rule = nil
				}
				continue
			case v.Value == "inferred" && (a.key == "max_jobs_per_user" || a.key == "max_procs_per_user"):
				lim := c.Record.MaxJobsPerUser
				if a.key == "max_procs_per_user" {
					lim = c.Record.MaxProcsPerUser
				}
				v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(lim, 10), Line: v.Line}
			}
			over.Content = append(over.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: a.key, Line: v.Line}, v)
		}
		if err := spec.OverlayFrom(c.Space.file, over); err != nil {
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
		for _, p := range append(c.partNames(), c.blockNames()...) {
			ps := spec
			switch p {
			case "fit":
				ps.CalibFromS, ps.CalibUntilS = 0, c.Record.cut(c.Holdout)
			case "holdout":
				ps.CalibFromS, ps.CalibUntilS = c.Record.cut(c.Holdout), 0
			default: // a block of the choosing part
				ps.CalibFromS, ps.CalibUntilS = c.blockWindow(slices.Index(c.blockNames(), p))
			}
			if err := ps.Validate(); err != nil {
				return nil, fmt.Errorf("candidate %s (%s): %w", cd.ID, strings.Join(cd.Values, ", "), err)
			}
			cd.Parts[p] = ps
		}
		out = append(out, cd)
	}
	return out, nil
}

func (c *Calibration) runDir(cd *Candidate, part string) string {
	return filepath.Join(c.Out, "runs", cd.ID+"-"+part)
}

// replay runs one part of a candidate into a staging directory renamed
// into place once complete, and returns its Columns.
func (c *Calibration) replay(ctx context.Context, cd *Candidate, part string) ([]string, error) {
	final := c.runDir(cd, part)
	stage := final + ".partial"
	os.RemoveAll(stage)
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return nil, err
	}
	spec := cd.Parts[part]
	res, err := run.Replay(ctx, &spec, run.Options{Dir: stage})
	if err != nil {
		os.RemoveAll(stage)
		return nil, err
	}
	vals, ok := pick(res.Summary, Columns)
	if !ok {
		os.RemoveAll(stage)
		return nil, fmt.Errorf("%s: the summary lacks the calibration columns", final)
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

// readResult reads a finished run's Columns from its summary.
func readResult(dir string) ([]string, bool) {
	row, err := metrics.ReadRunSummary(dir)
	if err != nil {
		return nil, false
	}
	return pick(row, Columns)
}

// pick is a summary row's cells of cols, as written; false when one is
// missing.
func pick(row metrics.SummaryRow, cols []string) ([]string, bool) {
	out := make([]string, len(cols))
	for i, name := range cols {
		if !row.Has(name) {
			return nil, false
		}
		out[i] = row.Text(name)
	}
	return out, true
}

// PartObjective is the objective of a part's values (NaN when null).
func PartObjective(vals []string) float64 {
	num := func(name string) float64 {
		i := slices.Index(Columns, name)
		f, err := strconv.ParseFloat(vals[i], 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	if vals == nil {
		return math.NaN()
	}
	return Objective(num(metrics.ColCalibWaitKS), num(metrics.ColCalibMeanWaitRatio), num(metrics.ColCalibP95WaitRatio))
}

func (c *Calibration) writeCSV(ranked []*Candidate, parts []string) error {
	return metrics.WriteFileAtomic(filepath.Join(c.Out, "calibration.csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		head := []string{"rank", "candidate"}
		for _, a := range c.Space.axes {
			head = append(head, a.key)
		}
		head = append(head, "choice_objective", "choice_se", "knobs", "left_waiting")
		for _, p := range parts {
			head = append(head, p+"_objective")
			for _, col := range Columns {
				head = append(head, p+"_"+col)
			}
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		for i, cd := range ranked {
			row := append([]string{strconv.Itoa(i + 1), cd.ID}, cd.Values...)
			row = append(row, csvNum(cd.Choice.Objective), csvNum(cd.Choice.SE), strconv.Itoa(cd.Choice.Knobs), strconv.FormatInt(cd.Choice.Left, 10))
			for _, p := range parts {
				obj := PartObjective(cd.Result[p])
				if math.IsNaN(obj) {
					row = append(row, "")
				} else {
					row = append(row, strconv.FormatFloat(obj, 'g', 6, 64))
				}
				row = append(row, cd.Result[p]...)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
