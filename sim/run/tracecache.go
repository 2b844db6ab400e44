package run

import (
	"sync"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/formats"
)

// TraceCacheJobs bounds the jobs a trace cache holds, all traces together.
// A cached job takes 248 bytes (CEA-Curie's 312,807 jobs: 74 MB), so
// 125 MB at most; the collector's headroom for sweeps (5× the live heap,
// within 1 GiB a worker) multiplies that in the peak memory. A trace that
// would not fit is streamed by every run, as replay does.
const TraceCacheJobs = 500_000

// TraceCache keeps parsed traces in memory for a command that replays the
// same trace many times (sweep, tune): a run of a 20,000-job SWF log spent
// about a tenth of its CPU time checksumming and parsing it, on a reading
// goroutine that kept a second core busy, so two workers could not double
// the throughput of one. Runs share the cached jobs read-only (the engine
// keeps its state in JobRun; transform.Checkpoints copies a job before changing it).
// Results are those of streaming the trace: the same jobs in the same order.
type TraceCache struct {
	mu      sync.Mutex
	entries map[formats.Key]*cachedTrace
	jobs    int // held by entries, against TraceCacheJobs
	limit   int
}

// cachedTrace is one trace read to its end, or to the error that stopped
// it (strict mode), with what openTrace found out about it.
type cachedTrace struct {
	ready   chan struct{} // closed once loaded
	ok      bool          // cached; else runs open the trace themselves
	openErr error         // openTrace's own error: each run reports it
	w       Workload      // open replaces its source, skips and close (the reader's, closed)
	jobs    []*sim.Job
	endErr  error // the source's last error: io.EOF or a parse error
	skips   traces.Skips
}

func NewTraceCache() *TraceCache {
	return &TraceCache{entries: map[formats.Key]*cachedTrace{}, limit: TraceCacheJobs}
}

// cacheableFormat: opening a trace of this format depends only on its
// formats.Key (the registry says which).
func cacheableFormat(format string) bool {
	f, ok := formats.Lookup(format)
	return ok && f.Cacheable
}

// open returns the workload of c from the cache, loading it on first use;
// a trace the cache cannot hold is opened as replay does.
func (tc *TraceCache) open(c *Spec) (*Workload, error) {
	if tc == nil || c.Trace == "" || (c.TraceFormat != "" && !cacheableFormat(c.TraceFormat)) {
		return OpenTrace(c)
	}
	key := c.request().Key()
	tc.mu.Lock()
	e, found := tc.entries[key]
	if !found {
		e = &cachedTrace{ready: make(chan struct{})}
		tc.entries[key] = e
	}
	tc.mu.Unlock()
	if !found {
		tc.load(e, c)
		close(e.ready)
	}
	<-e.ready
	switch {
	case e.openErr != nil:
		return nil, e.openErr
	case !e.ok:
		return OpenTrace(c)
	}
	w := e.w
	w.Source = &cachedSource{jobs: e.jobs, end: e.endErr}
	w.Skips = func() traces.Skips { return e.skips }
	w.Close = func() {}
	return &w, nil
}

// load reads the trace into e when its format allows and it fits what is
// left of the budget.
func (tc *TraceCache) load(e *cachedTrace, c *Spec) {
	format := c.TraceFormat
	if format == "" {
		var err error
		if format, err = formats.Sniff(c.Trace, nil); err != nil {
			return // each run reports it
		}
	}
	if !cacheableFormat(format) {
		return
	}
	w, err := OpenTrace(c)
	if err != nil {
		e.openErr = err
		return
	}
	defer w.Close()
	tc.mu.Lock()
	room := tc.limit - tc.jobs
	tc.mu.Unlock()
	if w.Records > room {
		return // known too large before reading
	}
	var jobs []*sim.Job
	if w.Records > 0 {
		jobs = make([]*sim.Job, 0, w.Records)
	}
	for {
		j, err := w.Source.Next()
		if err != nil {
			e.endErr = err
			break
		}
		if len(jobs) >= room {
			return
		}
		jobs = append(jobs, j)
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.jobs+len(jobs) > tc.limit {
		return // another trace took the room meanwhile
	}
	tc.jobs += len(jobs)
	e.w, e.jobs, e.skips, e.ok = *w, jobs, w.Skips(), true
}

// cachedSource serves one run the cached jobs, then the error that ended
// the reading.
type cachedSource struct {
	jobs []*sim.Job
	i    int
	end  error
}

func (s *cachedSource) Next() (*sim.Job, error) {
	if s.i >= len(s.jobs) {
		return nil, s.end
	}
	s.i++
	return s.jobs[s.i-1], nil
}
