package tune

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/sim/sweep"
)

// Search evaluates the named profiles, then searches the weights (Run),
// scoring each profile by replaying every run of the tuning with it,
// workers replays at once, in a temporary directory removed after.
func (t *Tuning) Search(ctx context.Context, workers int) (*Result, error) {
	tmp, err := os.MkdirTemp("", "schedsim-tune-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ev := &evaluator{runs: t.Runs, tmp: tmp, slots: make(chan struct{}, workers), ctx: ctx, traces: run.NewTraceCache(),
		headers: make([][]string, len(t.Runs))}
	res, err := Run(t.Config, t.Named, ev.evaluate, workers)
	if err != nil {
		return nil, err
	}
	t.order = ev.metricOrder()
	return res, nil
}

// evaluator replays every run with a profile and averages the summaries.
type evaluator struct {
	runs   []sweep.Run
	tmp    string
	slots  chan struct{} // bounds the replays running at once
	ctx    context.Context
	traces *run.TraceCache

	mu      sync.Mutex
	headers [][]string // each run's summary columns, in file order
}

func (e *evaluator) evaluate(p lattice.Profile) (Evaluation, error) {
	id := profileID(p)
	profile := p.Name
	if b, ok := lattice.Builtin(p.Name); !ok || b != p {
		profile = filepath.Join(e.tmp, "profiles", id+".yaml")
		if err := sweep.WriteProfile(profile, ProfileYAML(TunedName, p)); err != nil {
			return Evaluation{}, err
		}
	}
	sums := make([]map[string]float64, len(e.runs))
	variations := make([]lattice.FactorVariation, len(e.runs))
	errs := make([]error, len(e.runs))
	var wg sync.WaitGroup
	for i := range e.runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.slots <- struct{}{}
			defer func() { <-e.slots }()
			sums[i], variations[i], errs[i] = e.replay(i, profile, filepath.Join(e.tmp, "evals", id, e.runs[i].Key))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Evaluation{}, err
	}
	var variation lattice.FactorVariation
	for _, v := range variations {
		variation.Add(v)
	}
	mean := map[string]float64{}
	count := map[string]int{}
	for _, s := range sums {
		for k, v := range s {
			if _, ok := mean[k]; !ok {
				mean[k] = 0
			}
			if !math.IsNaN(v) {
				mean[k] += v
				count[k]++
			}
		}
	}
	for k := range mean {
		if count[k] == 0 {
			mean[k] = math.NaN()
		} else {
			mean[k] /= float64(count[k])
		}
	}
	return Evaluation{Metrics: mean, Variation: variation}, nil
}

// profileID names a profile's files: a hash of its weights and
// conformance rule.
func profileID(p lattice.Profile) string {
	h := sha256.New()
	for _, w := range p.Weights {
		h.Write([]byte(strconv.FormatFloat(w, 'g', -1, 64) + ","))
	}
	fmt.Fprint(h, p.RequireConformance)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// replay runs run i under profile into dir and returns its summary's
// metrics (the machine-timing columns left out) and which lattice factors
// varied across the queue; dir is removed after.
func (e *evaluator) replay(i int, profile, dir string) (map[string]float64, lattice.FactorVariation, error) {
	cfg := e.runs[i].Spec
	cfg.Out, cfg.Format, cfg.Quiet, cfg.Explain = dir, metrics.FormatCSV, true, false
	cfg.SetProfile(profile)
	var sched *lattice.Scheduler
	run.ArgsOf[lattice.Args](&cfg, "lattice").Probe = func(s *lattice.Scheduler) { sched = s }
	defer os.RemoveAll(dir)
	res, err := run.Replay(e.ctx, &cfg, run.Options{Traces: e.traces})
	if err != nil {
		return nil, lattice.FactorVariation{}, fmt.Errorf("run %s: %w", e.runs[i].Key, err)
	}
	var variation lattice.FactorVariation
	if sched != nil {
		variation = sched.Variation()
	}
	m := map[string]float64{}
	var cols []string
	for j, name := range res.Summary.Names {
		if metrics.IsTimingColumn(name) {
			continue
		}
		v := math.NaN()
		if cell := res.Summary.Values[j]; cell != "" {
			x, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				continue // a label (trace, queue, backfill)
			}
			v = x
		}
		m[name] = v
		cols = append(cols, name)
	}
	e.mu.Lock()
	if e.headers[i] == nil {
		e.headers[i] = cols
	}
	e.mu.Unlock()
	return m, variation, nil
}

// metricOrder is the union of the runs' summary columns, run by run.
func (e *evaluator) metricOrder() []string {
	var order []string
	for _, h := range e.headers {
		for _, c := range h {
			if !slices.Contains(order, c) {
				order = append(order, c)
			}
		}
	}
	return order
}
