package report

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/sim/experiment"
)

// Comparisons computes, with package compare, what a report of sweeps
// shows first (Options.Answers, Options.Comparisons): each target's answer
// over every sweep's groups (targets given as --target texts, else the
// sweeps' experiment.yaml), and the effects of every other sweep against
// the first. The statistics are compare's, so the report, compare and the
// notebooks give the same numbers.
func Comparisons(in *Inputs, targetFlags []string) (answers []Answer, comparisons []Comparison, err error) {
	var sides []*compare.Side
	for _, s := range in.Sweeps {
		side, err := compare.Load(s.Dir)
		if err != nil {
			return nil, nil, err
		}
		sides = append(sides, side)
	}
	targets, err := reportTargets(in, targetFlags)
	if err != nil {
		return nil, nil, err
	}
	if len(targets) > 0 && len(sides) == 0 {
		return nil, nil, fmt.Errorf("--target: answered over sweeps; give sweep directories (run directories have one replica each)")
	}
	for _, t := range targets {
		a, err := compare.AnswerSides(t, sides...)
		if err != nil {
			return nil, nil, err
		}
		answers = append(answers, reportAnswer(a))
	}
	for i := 1; i < len(sides); i++ {
		c, err := reportComparison(sides[0], sides[i], len(sides) > 2)
		if err != nil {
			return nil, nil, err
		}
		comparisons = append(comparisons, c)
	}
	return answers, comparisons, nil
}

// reportTargets are the --target flags, else the distinct targets of the
// sweeps' experiment.yaml.
func reportTargets(in *Inputs, flags []string) ([]compare.Target, error) {
	texts := flags
	if len(texts) == 0 {
		for _, s := range in.Sweeps {
			if t := sweepTarget(s.Dir); t != "" && !slices.Contains(texts, t) {
				texts = append(texts, t)
			}
		}
	}
	var targets []compare.Target
	for _, text := range texts {
		t, err := compare.ParseTarget(text)
		if err != nil {
			return nil, fmt.Errorf("--target: %w", err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// sweepTarget reads the target of a sweep's experiment.yaml; "" when it
// has none (or no readable spec: the sweep was made before targets).
func sweepTarget(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, experiment.SpecFile))
	if err != nil {
		return ""
	}
	var spec struct {
		Target string `yaml:"target"`
	}
	if yaml.Unmarshal(data, &spec) != nil {
		return ""
	}
	return spec.Target
}

// reportAnswer turns compare's answer into the report's.
func reportAnswer(a compare.Answer) Answer {
	out := Answer{Target: a.Target.String(), Metric: a.Target.Metric, Op: a.Target.Op, Value: a.Target.Value, Sentence: a.Sentence()}
	for _, s := range a.Scenarios {
		name := s.Name
		if s.Label != "" && s.Label != "(all runs)" && len(a.Scenarios) > len(distinctNames(a.Scenarios)) {
			name += "\n" + s.Label
		}
		lo, hi := math.NaN(), math.NaN()
		if s.Interval.Has() {
			lo, hi = s.Interval.Lo, s.Interval.Hi
		}
		out.Scenarios = append(out.Scenarios, AnswerScenario{Name: name, Values: s.Values, Met: s.Met, Mean: s.Mean, Lo: lo, Hi: hi})
	}
	return out
}

func distinctNames(ss []compare.Scenario) []string {
	var names []string
	for _, s := range ss {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// reportComparison compares cand with base on compare's default metrics
// (those both summaries have) and keeps its CSV.
func reportComparison(base, cand *compare.Side, several bool) (Comparison, error) {
	title := filepath.Base(base.Path) + " → " + filepath.Base(cand.Path)
	res, err := compare.Compare(base, cand, compare.DefaultTolerances(), compare.Options{})
	// A report may draw sweeps of different traces, or over different
	// parameters, side by side; their effects are not computed.
	var dw *compare.DifferentWorkloadsError
	var nm *compare.NoMatchError
	switch {
	case errors.As(err, &dw):
		return Comparison{Title: title, Setup: "Not compared: " + err.Error() + "."}, nil
	case errors.As(err, &nm):
		return Comparison{Title: title, Setup: "Not compared: no group of one sweep matches a group of the other " +
			"(they vary other parameters), so no change is computed."}, nil
	}
	if err != nil {
		return Comparison{}, fmt.Errorf("comparing %s with %s: %w", cand.Path, base.Path, err)
	}
	c := Comparison{Title: title, File: "effects.csv"}
	if several {
		c.File = "effects_" + filepath.Base(cand.Path) + ".csv"
	}
	var setup strings.Builder
	setup.WriteString("Comparing " + res.SetupText())
	for _, n := range res.NotComparable {
		setup.WriteString("; not comparable: " + n)
	}
	c.Setup = setup.String()
	for _, sec := range res.Sections {
		for _, row := range sec.Rows {
			e := Effect{Metric: sec.Metric.Name, Group: row.Label, BaseMean: row.Base, CandMean: row.Cand, RelPct: row.Rel,
				LoPct: math.NaN(), HiPct: math.NaN(), Interval: row.Interval.Method, N: strconv.Itoa(row.BaseN), Verdict: row.Verdict.String()}
			if row.BaseN != row.CandN {
				e.N += "/" + strconv.Itoa(row.CandN)
			}
			if row.Interval.Has() && row.Base != 0 {
				e.LoPct, e.HiPct = 100*row.Interval.Lo/math.Abs(row.Base), 100*row.Interval.Hi/math.Abs(row.Base)
			} else if !row.Interval.Has() {
				e.Interval = "none: " + row.Interval.Why
			}
			c.Effects = append(c.Effects, e)
		}
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf); err != nil {
		return c, err
	}
	c.CSV = buf.Bytes()
	return c, nil
}
