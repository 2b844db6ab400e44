package report

import (
	"fmt"
	"strings"

	"github.com/schedsim/schedsim/internal/words"
)

// sweepView is what the page shows of a sweep: its figures, its points
// (parameter combinations averaged over seeds) with the Pareto front
// marked, and a note when a figure could not be drawn.
type sweepView struct {
	Sweep   *Sweep
	Figures []Figure
	Points  []*paretoPoint
	Notes   []string
}

// sweepFigures draws a sweep's weight heatmaps (one per metric, faceted
// by its other parameters), or for a tuning run the scatter of the
// weights it evaluated, and its Pareto front, prefixing the figure names
// with prefix.
func sweepFigures(s *Sweep, prefix string, opts Options) (*sweepView, error) {
	v := &sweepView{Sweep: s}
	if len(s.Rows) == 0 {
		v.Notes = append(v.Notes, "The sweep has no finished run yet.")
		return v, nil
	}
	xw, yw, ok, err := s.heatmapWeights(opts.HeatmapWeights)
	if err != nil {
		return nil, err
	}
	hasPareto := s.hasColumn(paretoWait) && s.hasColumn(paretoFairness)
	if hasPareto {
		if v.Points, err = s.paretoPoints(); err != nil {
			return nil, err
		}
	}
	switch {
	case ok && s.isTune():
		var front map[string]bool
		if hasPareto {
			front = map[string]bool{}
			for _, pt := range v.Points {
				for _, r := range pt.Runs {
					front[r] = pt.Front
				}
			}
		}
		f, err := tuneFigure(s, prefix+"tune_weights", xw, yw, front)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", f.Name, err)
		}
		v.Figures = append(v.Figures, f)
	case ok:
		for _, m := range heatmapMetrics(s, opts) {
			f, err := heatmapFigure(s, prefix+"heatmap_"+figureSafe(m), xw, yw, m)
			if err != nil {
				return nil, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			v.Figures = append(v.Figures, f)
		}
	default:
		v.Notes = append(v.Notes, fmt.Sprintf("No weight heatmap: the sweep varies %d numeric weight(s) (param_w_<factor>), a heatmap needs two.",
			len(s.sweptWeights())))
	}
	if !hasPareto {
		for _, c := range []string{paretoWait, paretoFairness} {
			if !s.hasColumn(c) {
				v.Notes = append(v.Notes, fmt.Sprintf("No Pareto front: the sweep summary has no %s (an experiment's metrics: list can leave it out).", c))
				return v, nil
			}
		}
	}
	f, ok, err := paretoFigure(s, prefix+"pareto", v.Points)
	if err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	if ok {
		v.Figures = append(v.Figures, f)
	} else {
		switch n := len(v.Points); {
		case n > 0 && n < minParetoPoints:
			v.Notes = append(v.Notes, fmt.Sprintf("No Pareto front: %s of parameters, fewer than %d; the summary table compares them.",
				words.Count(n, "combination"), minParetoPoints))
		default:
			v.Notes = append(v.Notes, "No Pareto front: no run has both a mean wait and a Jain index (jain_bsld is null without tenants).")
		}
	}
	return v, nil
}

// figureSafe keeps a metric name usable as a file stem.
func figureSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// heatmapMetrics are the metrics to draw as heatmaps: the ones asked for,
// else those of DefaultHeatmapMetrics the sweep summary has (an
// experiment's metrics: list may leave some out).
func heatmapMetrics(s *Sweep, opts Options) []string {
	if len(opts.HeatmapMetrics) > 0 {
		return opts.HeatmapMetrics
	}
	var out []string
	for _, m := range DefaultHeatmapMetrics {
		if s.hasColumn(m) {
			out = append(out, m)
		}
	}
	return out
}

// CheckOptions reports, before anything is drawn, an option the figures
// cannot use: a figure size out of bounds, an unknown Gantt colouring,
// heatmap weights a sweep does not vary, a heatmap metric asked for that
// its summary lacks.
func CheckOptions(in *Inputs, opts Options) error {
	if err := opts.Size.Check(); err != nil {
		return err
	}
	if c := opts.GanttColor; c != "" && c != "user" && c != "state" {
		return fmt.Errorf("--gantt-color %q: want user or state", c)
	}
	for _, s := range in.Sweeps {
		if len(s.Rows) == 0 {
			continue
		}
		_, _, ok, err := s.heatmapWeights(opts.HeatmapWeights)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		for _, c := range opts.HeatmapMetrics {
			if err := s.requireColumn(c); err != nil {
				return err
			}
		}
	}
	return nil
}
