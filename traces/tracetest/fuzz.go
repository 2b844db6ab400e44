package tracetest

import (
	"errors"
	"io"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// FuzzRead reads src to its end as the readers' fuzz targets do, and fails
// the test when the reader misbehaves on the fuzzed bytes: an error that
// is not a *traces.ParseError naming its file (an error must say where),
// jobs out of submit order, a job sane says is not, or more than maxJobs
// jobs (a reader that never ends: the input's length in bytes bounds what
// any reader may yield). An error, located, ends the reading.
func FuzzRead(t *testing.T, src sim.Source, maxJobs int, sane func(*sim.Job) bool) {
	t.Helper()
	last := sim.Time(-1)
	for n := 0; ; n++ {
		j, err := src.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *traces.ParseError
			if !errors.As(err, &pe) || pe.File == "" {
				t.Fatalf("error without a location: %v", err)
			}
			return
		}
		if j.Submit < last || !sane(j) {
			t.Fatalf("bad job %+v (last submit %d)", j, last)
		}
		last = j.Submit
		if n > maxJobs {
			t.Fatal("more jobs than bytes")
		}
	}
}
