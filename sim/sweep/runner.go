package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/sync/errgroup"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// Sweeper runs the runs of a sweep, or of one shard of it, on a pool of
// goroutines into its directory.
type Sweeper struct {
	Dir     string
	Workers int // runs at once, ≥ 1
	// Stderr receives each failed run and the warnings (nil: discarded);
	// with Progress, a progress bar too.
	Stderr   io.Writer
	Progress bool
	Quiet    bool            // no warnings
	Traces   *run.TraceCache // traces read once for every run (nil: each run reads its own)

	ctx       context.Context
	interrupt <-chan struct{}
	stderr    io.Writer

	mu       sync.Mutex
	bar      *progressbar.ProgressBar
	ran      int
	failures []runFailure
}

// Outcome is what a sweep of a shard did.
type Outcome struct {
	Index, Count int // shard Index of Count (0 of 1: the whole sweep)
	Runs         int // the shard's runs
	Ran          int // replayed now
	AlreadyDone  int // kept from an earlier sweep
	Elapsed      time.Duration
	// Summaries are the files written: DIR/summary.csv and
	// DIR/summary.parquet, or the shard's summary.
	Summaries []string
}

// Where is " of shard i/n" for a shard of a sharded sweep, else "".
func (o *Outcome) Where() string { return shardText(o.Index, o.Count) }

func shardText(index, count int) string {
	if count > 1 {
		return fmt.Sprintf(" of shard %d/%d", index, count)
	}
	return ""
}

type runFailure struct {
	key string
	err error
}

// Sweep runs shard index of count of the spec's runs into s.Dir (the runs
// already complete there are kept), then writes the summary: the sweep's
// (count 1) or the shard's. When ctx is cancelled it stops starting runs
// and waits for those running. One Sweeper runs one sweep.
//
// The runs are planned one at a time, in passes over the experiment's
// Plan (each pass makes the runs again, in the same order): one checks
// every run's settings before anything is written, one counts those done
// already, one replays the others, and the summary reads them all. Only
// counts are kept between passes, and the summary's rows.
func (s *Sweeper) Sweep(ctx context.Context, spec *experiment.Spec, index, count int) (*Outcome, error) {
	s.ctx, s.interrupt = ctx, ctx.Done()
	plan, pl, data, err := s.plan(spec, index, count)
	if err != nil {
		return nil, err
	}
	release, err := lockShard(s.Dir, index, count)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := os.MkdirAll(filepath.Join(s.Dir, experiment.RunsDir), 0o755); err != nil {
		return nil, run.Failed(err)
	}
	if err := writeSpecCopy(s.Dir, data, spec.File); err != nil {
		return nil, err
	}
	mine := plan.Shard(index, count)
	total, todo := plan.ShardLen(index, count), 0
	for _, r := range mine {
		// A run killed mid-write left its stage: start it over.
		os.RemoveAll(experiment.StageDir(s.Dir, r.Key))
		if !experiment.Done(s.Dir, r.Key) {
			todo++
		}
	}
	start := time.Now()
	s.runAll(pl, mine, todo)
	interrupted := false
	select {
	case <-s.interrupt:
		interrupted = true
	default:
	}
	missing, first := experiment.Missing(s.Dir, mine, 1)
	where := shardText(index, count)
	switch {
	case interrupted:
		return nil, run.Failed(fmt.Errorf("interrupted: %d of %d runs%s finished; run the same command again to finish the rest",
			total-missing, total, where))
	case len(s.failures) > 0:
		return nil, run.Failed(fmt.Errorf("%d of %d runs%s failed (listed above); run the same command again to retry them",
			len(s.failures), total, where))
	case missing > 0: // removed behind our back
		return nil, run.Failed(fmt.Errorf("%d runs%s are not complete, e.g. %s", missing, where, first[0].Key))
	}
	o := &Outcome{Index: index, Count: count, Runs: total, Ran: s.ran, AlreadyDone: total - todo}
	if count == 1 {
		if err := writeSummary(s.Dir, spec, plan.All()); err != nil {
			return nil, run.Failed(err)
		}
		o.Summaries = []string{filepath.Join(s.Dir, "summary.csv"), filepath.Join(s.Dir, "summary.parquet")}
	} else {
		path := ShardSummaryPath(s.Dir, index, count)
		if err := writeShardSummary(path, spec, s.Dir, mine); err != nil {
			return nil, run.Failed(err)
		}
		o.Summaries = []string{path}
	}
	o.Elapsed = time.Since(start)
	return o, nil
}

// DryRun plans shard index of count as Sweep does first, every run's
// settings checked, and counts its runs already done in s.Dir, without
// replaying or writing anything.
func (s *Sweeper) DryRun(spec *experiment.Spec, index, count int) (*Outcome, error) {
	plan, _, _, err := s.plan(spec, index, count)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Index: index, Count: count, Runs: plan.ShardLen(index, count)}
	for _, r := range plan.Shard(index, count) {
		if experiment.Done(s.Dir, r.Key) {
			o.AlreadyDone++
		}
	}
	return o, nil
}

// plan makes the experiment's plan and checks the settings of every run
// of the shard, warning when its replicas are identical, then that s.Dir
// may hold the sweep; data is the experiment as run (experiment.yaml).
func (s *Sweeper) plan(spec *experiment.Spec, index, count int) (plan *experiment.Plan, pl *planner, data []byte, err error) {
	s.stderr = s.Stderr
	if s.stderr == nil {
		s.stderr = io.Discard
	}
	if plan, err = spec.Plan(); err != nil {
		return nil, nil, nil, run.BadInput(err)
	}
	if pl, err = newPlanner(spec, s.Dir); err != nil {
		return nil, nil, nil, run.BadInput(err)
	}
	var replicas replicaCheck
	if err := pl.check(plan.Shard(index, count), replicas.add); err != nil {
		return nil, nil, nil, run.BadInput(err)
	}
	if !s.Quiet {
		replicas.warn(s.stderr, spec.Seeds)
	}
	if data, err = spec.Marshal(); err != nil {
		return nil, nil, nil, run.Failed(err)
	}
	if err := checkSweepDir(s.Dir, spec.File, data); err != nil {
		return nil, nil, nil, err
	}
	return plan, pl, data, nil
}

// replicaCheck counts the runs that draw no random number.
type replicaCheck struct{ fixed, runs int }

func (c *replicaCheck) add(r *Run) {
	c.runs++
	if !r.Spec.DrawsRandom() {
		c.fixed++
	}
}

// warn warns when an experiment asks for several seeds but some of its
// runs draw no random number: their replicas are the same run, and a
// comparison over them has no interval.
func (c *replicaCheck) warn(w io.Writer, seeds int) {
	if seeds > 1 && c.fixed > 0 {
		fmt.Fprintf(w, "schedsim sweep: warning: seeds: %d, but %d of %d runs draw no random number, so their replicas are identical; "+
			"give them jitter (jitter_submit_s, jitter_runtime), random failures (mtbf_s) or a random placement\n", seeds, c.fixed, c.runs)
	}
}

// runAll replays the runs of runs not done yet (todo of them) on
// s.workers goroutines, each resolved as it starts, stopping early on
// interrupt.
func (s *Sweeper) runAll(pl *planner, runs iter.Seq2[int, experiment.Run], todo int) {
	if todo == 0 {
		return
	}
	if s.Progress {
		s.bar = progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(s.stderr),
			progressbar.OptionSetDescription("sweep"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("runs"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		defer s.bar.Finish()
	}
	// A failed run is counted and the others go on: the group's
	// functions never fail; an interrupt stops feeding it.
	var g errgroup.Group
	g.SetLimit(s.Workers)
	for _, er := range runs {
		select {
		case <-s.interrupt:
			waitAll(&g)
			return
		default:
		}
		if experiment.Done(s.Dir, er.Key) {
			continue
		}
		r, err := pl.resolve(er)
		if err != nil { // checked before: only a file changed since
			s.finished(er.Key, err)
			continue
		}
		g.Go(func() error {
			select {
			case <-s.interrupt:
				return nil
			default:
			}
			s.finished(r.Key, s.runOne(&r))
			return nil
		})
	}
	waitAll(&g)
}

// waitAll waits for the runs started; their outcomes are counted by
// finished, not returned.
func waitAll(g *errgroup.Group) { _ = g.Wait() }

// finished counts a run's outcome and reports a failure.
func (s *Sweeper) finished(key string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(err, sim.ErrInterrupted) {
		return
	}
	if err != nil {
		s.failures = append(s.failures, runFailure{key, err})
		if s.bar != nil {
			s.bar.Clear()
		}
		fmt.Fprintf(s.stderr, "schedsim sweep: run %s failed: %s\n", key, run.Escape(err.Error()))
	} else {
		s.ran++
	}
	if s.bar != nil {
		if n := len(s.failures); n > 0 {
			s.bar.Describe(fmt.Sprintf("sweep (%d failed)", n))
		}
		s.bar.Add(1)
	}
}

// runOne replays one run into its stage directory and renames it into
// place whole: DIR/runs/<key> exists only once complete. A panic of the
// run is its failure, not the sweep's.
func (s *Sweeper) runOne(r *Run) (err error) {
	stage := experiment.StageDir(s.Dir, r.Key)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		if err != nil {
			os.RemoveAll(stage)
		}
	}()
	select {
	case <-s.interrupt:
		return sim.ErrInterrupted
	default:
	}
	if r.Profile != nil {
		if err := WriteProfile(r.Spec.Profile(), r.Profile); err != nil {
			return err
		}
	}
	cfg := r.Spec
	if _, err := run.Replay(s.ctx, &cfg, run.Options{Dir: stage, Traces: s.Traces}); err != nil {
		return err
	}
	final := experiment.RunDir(s.Dir, r.Key)
	if err := os.RemoveAll(final); err != nil { // an incomplete leftover, not Done
		return err
	}
	if err := os.Rename(stage, final); err != nil {
		return err
	}
	metrics.SyncDir(filepath.Dir(final))
	return nil
}

// writeSpecCopy writes DIR/experiment.yaml, or checks that the one there
// is this experiment's: finished runs of another experiment must not be
// mistaken for this one's.
func writeSpecCopy(dir string, data []byte, specFile string) error {
	path := filepath.Join(dir, experiment.SpecFile)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, data):
		return nil
	case err == nil:
		return run.BadInput(fmt.Errorf("%s holds another experiment than %s (%s differs): use another --out, or remove it", dir, specFile, path))
	case !errors.Is(err, os.ErrNotExist):
		return run.Failed(err)
	}
	return metrics.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
