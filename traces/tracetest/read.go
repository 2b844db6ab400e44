package tracetest

import (
	"errors"
	"io"
	"iter"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Drain reads jobs from src until io.EOF or an error, and returns the jobs
// read before it, without their source lines (Job.Line), which differ
// between encodings of the same jobs: a test of lines reads them itself.
func Drain(src sim.Source) ([]*sim.Job, error) {
	var jobs []*sim.Job
	for {
		j, err := src.Next()
		if err == io.EOF {
			return jobs, nil
		}
		if err != nil {
			return jobs, err
		}
		j.Line = 0
		jobs = append(jobs, j)
	}
}

// Jobs yields the jobs of src to its end, failing the test on an error.
// Unlike All it holds none of them: for benchmarks and large traces.
func Jobs(t testing.TB, src sim.Source) iter.Seq[*sim.Job] {
	return func(yield func(*sim.Job) bool) {
		for {
			j, err := src.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if !yield(j) {
				return
			}
		}
	}
}

// Count reads src to its end and returns how many jobs it yielded,
// failing the test on an error: what a benchmark of a reader checks.
func Count(t testing.TB, src sim.Source) int {
	n := 0
	for range Jobs(t, src) {
		n++
	}
	return n
}

// All drains src, failing the test on an error.
func All(t testing.TB, src sim.Source) []*sim.Job {
	t.Helper()
	jobs, err := Drain(src)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return jobs
}

// ParseErr asserts that err is a *traces.ParseError and returns it.
func ParseErr(t testing.TB, err error) *traces.ParseError {
	t.Helper()
	var pe *traces.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *traces.ParseError", err, err)
	}
	return pe
}
