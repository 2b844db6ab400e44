package transform

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/schedsim/schedsim/sim"
)

// maxTime bounds the times a transform may make, as the trace readers
// bound the times they read: far inside sim.Time's range, so that sums
// of them (an end is start + runtime) cannot overflow.
const maxTime = 1_000_000_000_000 * sim.Second

// RewriteError is a job that a transform would turn into nonsense: a
// time beyond ±1e12 s, or a positive runtime made 0 or negative. Setting
// is the run.yaml key of the transform (runtime_factor, load_factor,
// jitter_runtime, jitter_submit_s, walltime_model).
type RewriteError struct {
	Setting string
	Job     string
	Err     error
}

func (e *RewriteError) Error() string {
	return fmt.Sprintf("%s: job %s: %v", e.Setting, printable(e.Job), e.Err)
}

func (e *RewriteError) Unwrap() error { return e.Err }

// JobName is the job's id, quoted when it holds control characters.
func (e *RewriteError) JobName() string { return printable(e.Job) }

// checkRewrite compares the job as traced (j) with its rewrite (cp).
func checkRewrite(j, cp *sim.Job, s *Stream) error {
	runtimeSetting := "runtime_factor"
	if s.Jitter.RuntimeSigma > 0 {
		runtimeSetting = "jitter_runtime"
		if !factorIsOne(s.RuntimeFactor) {
			runtimeSetting = "runtime_factor, jitter_runtime"
		}
	}
	switch {
	case cp.Runtime > maxTime || cp.Runtime < -maxTime:
		return &RewriteError{runtimeSetting, j.ID, fmt.Errorf("the runtime of %s s becomes more than 1e12 s", j.Runtime)}
	case j.Runtime > 0 && cp.Runtime <= 0:
		return &RewriteError{runtimeSetting, j.ID, fmt.Errorf("the runtime of %s s becomes %s s", j.Runtime, cp.Runtime)}
	case cp.Submit > maxTime || cp.Submit < -maxTime:
		setting := "load_factor"
		if s.Jitter.SubmitSpread > 0 {
			setting = "load_factor, jitter_submit_s"
		}
		return &RewriteError{setting, j.ID, fmt.Errorf("the submit time of %s s becomes more than 1e12 s from 0", j.Submit)}
	case cp.Walltime != sim.NoWalltime && (cp.Walltime > maxTime || cp.Walltime < 0):
		return &RewriteError{"walltime_model", j.ID, fmt.Errorf("the walltime of %s s becomes beyond 0 to 1e12 s", j.Walltime)}
	}
	return nil
}

// printable is s, quoted when it holds control characters, which must not
// reach a terminal raw.
func printable(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strconv.Quote(s)
}
