package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/schedsim/schedsim/metrics"
)

// SWFRun is one replay of the swf suite and what it measured.
type SWFRun struct {
	Trace, Model, Backfill string
	Times
	Jobs, Events float64 // from the run's summary
	Err          error
}

// SWF replays every trace × model × backfill in a child process each
// (self replay --quiet, writing format into tmp), workers at a time, and
// returns the runs in that order with the elapsed time of them all.
func SWF(self, tmp string, traces, models, backfills []string, format string, workers int) ([]*SWFRun, time.Duration) {
	var runs []*SWFRun
	for _, tr := range traces {
		for _, model := range models {
			for _, bf := range backfills {
				runs = append(runs, &SWFRun{Trace: tr, Model: model, Backfill: bf})
			}
		}
	}
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs[i].replay(self, filepath.Join(tmp, fmt.Sprintf("run%d-%d", w, i)), format)
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	return runs, time.Since(start)
}

// replay times the run in a child process writing to runDir, and reads the
// job and event counts from its summary.
func (r *SWFRun) replay(self, runDir, format string) {
	r.Times, r.Err = Child(nil, nil, self, "replay", "--quiet", "--trace", r.Trace, "--swf-model", r.Model,
		"--backfill", r.Backfill, "--format", format, "--out", runDir)
	if r.Err != nil {
		return
	}
	sum, err := metrics.ReadRunSummary(runDir)
	if err != nil {
		r.Err = err
		return
	}
	r.Jobs, r.Events = sum.Float(metrics.ColJobs), sum.Float(metrics.ColEvents)
	r.Err = os.RemoveAll(runDir)
}
