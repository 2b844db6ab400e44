package swf

import (
	"os"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// FuzzReader: whatever the bytes, the reader never panics, yields jobs in
// submit order with sane fields (a recorded start no earlier than the
// submit), and ends.
func FuzzReader(f *testing.F) {
	if data, err := os.ReadFile(sample); err == nil {
		f.Add(data, false)
		f.Add(data, true)
	}
	f.Add([]byte("; MaxNodes: 2\n1 0 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n"), false)
	f.Add([]byte("1 1e3 -1 .5 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"), true)
	f.Add([]byte("; MaxProcs: 4\n1 0 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n2 1 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 1 2.5\n"), true)
	f.Add([]byte{0x1f, 0x8b, 0, 0}, false)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		for _, m := range []Model{Pool, Nodes} {
			r, err := OpenBytes("fuzz", data, Options{Options: traces.Options{Strict: strict}, Model: m, ProcsPerNode: 3})
			if err != nil {
				return
			}
			// Strict stops at a bad record; both stop at a broken gzip
			// stream. Either way the error says where.
			tracetest.FuzzRead(t, r, len(data), func(j *sim.Job) bool {
				return j.Runtime >= 0 && j.Tasks >= 1 && j.Walltime >= 0 && j.RequestedProcs >= 1 &&
					(!j.Recorded || j.RecordedStart >= j.Submit)
			})
		}
	})
}
