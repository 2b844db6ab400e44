package tune

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/sim/sweep"
)

// WriteFiles writes tune's files into dir: summary.csv and
// summary.parquet, convergence.csv and, when a profile meets the
// constraints, best-profile.yaml, best.yaml and best-<run>.yaml.
func (t *Tuning) WriteFiles(dir string, res *Result) error {
	if err := writeOutputs(dir, res, t.order); err != nil {
		return err
	}
	if res.Best == nil {
		return nil
	}
	return writeBestSpecs(dir, res, t.Runs)
}

// writeOutputs writes DIR/summary.{csv,parquet}, convergence.csv and
// best-profile.yaml, each atomically.
func writeOutputs(dir string, res *Result, order []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := metrics.WriteSweepSummary(dir, res.SummaryColumns(order)); err != nil {
		return err
	}
	err := metrics.WriteFileAtomic(filepath.Join(dir, "convergence.csv"), func(w io.Writer) error {
		fmt.Fprintf(w, "iteration,profiles,best_%s\n", res.Config.Objective)
		for _, st := range res.Convergence {
			best := ""
			if !math.IsNaN(st.Best) {
				best = strconv.FormatFloat(st.Best, 'g', -1, 64)
			}
			if _, err := fmt.Fprintf(w, "%d,%d,%s\n", st.Iteration, st.Evaluations, best); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || res.Best == nil {
		return err
	}
	return sweep.WriteProfile(filepath.Join(dir, "best-profile.yaml"), ProfileYAML(TunedName, res.Best.Profile))
}

// writeBestSpecs writes best.yaml: the first run of the experiment as a
// complete run spec (the keys of run.Spec, its lattice: block included)
// with the best profile, so that `schedsim replay --config best.yaml`
// replays exactly what tune evaluated. With several runs (the objective
// is their mean) each also gets best-<run>.yaml. Paths are relative to
// the directory, where best-profile.yaml is.
func writeBestSpecs(dir string, res *Result, runs []sweep.Run) error {
	profile := "best-profile.yaml"
	if b, ok := lattice.Builtin(res.Best.Profile.Name); ok && b == res.Best.Profile {
		profile = b.Name
	}
	for i, r := range runs {
		cfg := r.Spec
		cfg.Out, cfg.Quiet = "", false
		run.ArgsOf[lattice.Args](&cfg, "lattice").Probe = nil
		if err := relativeTo(dir, &cfg); err != nil {
			return err
		}
		cfg.SetProfile(profile) // a built-in name, or the file beside best.yaml
		var doc yaml.Node
		if err := doc.Encode(&cfg); err != nil {
			return err
		}
		doc.HeadComment = bestSpecComment(res, r.Key, len(runs))
		names := []string{"best-" + r.Key + ".yaml"}
		if i == 0 {
			names = append([]string{"best.yaml"}, names...)
		}
		if len(runs) == 1 {
			names = names[:1]
		}
		for _, name := range names {
			err := metrics.WriteFileAtomic(filepath.Join(dir, name), func(w io.Writer) error {
				enc := yaml.NewEncoder(w)
				enc.SetIndent(2)
				if err := enc.Encode(&doc); err != nil {
					return err
				}
				return enc.Close()
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// bestSpecComment heads a best spec: what it reproduces and which weights
// were not searched.
func bestSpecComment(res *Result, key string, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schedsim tune's best profile (%s) as a run spec: schedsim replay --config FILE\n", profileLabel(res))
	if runs == 1 {
		fmt.Fprintf(&b, "replays to %s = %s, the score tune reported.\n", res.Config.Objective, strconv.FormatFloat(res.Best.Objective, 'g', -1, 64))
	} else {
		fmt.Fprintf(&b, "run %s, one of %d; tune reported %s = %s, their mean.\n", key, runs, res.Config.Objective, strconv.FormatFloat(res.Best.Objective, 'g', -1, 64))
	}
	if txt := res.InertText(""); txt != "" {
		b.WriteString(txt)
	}
	return strings.TrimRight(b.String(), "\n")
}

func profileLabel(res *Result) string {
	if res.Best.Name != "" {
		return "the named profile " + res.Best.Name
	}
	return "best-profile.yaml"
}

// relativeTo makes a spec's file paths relative to dir (run.Load resolves
// them against the spec file's directory).
func relativeTo(dir string, c *run.Spec) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	// The lattice block's paths include its profile when that names a file.
	paths := append([]*string{&c.Trace, &c.Cluster, &c.Platform, &c.Script.Path, &c.NodeEvents, &c.Price, &c.Carbon}, run.ArgsOf[lattice.Args](c, "lattice").Paths()...)
	for _, p := range paths {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(absDir, abs); err == nil {
			*p = rel
		}
	}
	return nil
}
