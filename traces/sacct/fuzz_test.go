package sacct

import (
	"errors"
	"os"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// FuzzSacct: whatever the bytes, the reader never panics, yields jobs in
// submit order with sane fields, and ends; its errors name the file.
func FuzzSacct(f *testing.F) {
	for _, name := range []string{"testdata/allocations.txt", "testdata/dependencies.txt", "testdata/bad.txt"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, false)
			f.Add(data, true)
		}
	}
	f.Add([]byte("JobID|Submit|Start|Elapsed|NCPUS|ReqMem\n1|1000|1010|1-00:00:00|4|2Gc\n"), false)
	f.Add([]byte("JobIDRaw|Submit|Start|End|ReqTRES|Dependency\n2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:00|cpu=1|afterok:1\n"), true)
	f.Add([]byte{0x1f, 0x8b, 0, 0}, false)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		r, err := OpenBytes("fuzz", data, Options{Options: traces.Options{Strict: strict}, ConfinePartitions: true})
		if err != nil {
			var pe *traces.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("open error without a location: %v", err)
			}
			return
		}
		tracetest.FuzzRead(t, r, len(data), func(j *sim.Job) bool {
			for _, q := range j.Request {
				if q.Amount < 0 {
					t.Fatalf("negative request %+v", j)
				}
			}
			return j.Submit >= 0 && j.Runtime >= 0 && j.Tasks >= 1 && j.Walltime >= sim.NoWalltime && j.Recorded && j.RecordedStart >= j.Submit
		})
	})
}
