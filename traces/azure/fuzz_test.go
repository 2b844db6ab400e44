package azure

import (
	"bytes"
	"os"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// FuzzReader: whatever the bytes, the reader never panics, ends, yields
// VMs in creation order with sane fields, and fails only with a located
// *traces.ParseError.
func FuzzReader(f *testing.F) {
	data, _ := os.ReadFile(sample)
	f.Add(data, false, uint8(0))
	f.Add(data, true, uint8(2))
	f.Add([]byte("a,s,d,100,200,1,1,1,U,>24,>64\nb,s,d,50,,1,1,1,U,2,2\n\"\n"), false, uint8(1))
	f.Add([]byte("a,s,d,1e3,2e3,1,1,1,U,2.5,>1e9\n"), true, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, strict bool, window uint8) {
		r := NewReader(bytes.NewReader(data), "vmtable.csv", Options{Options: traces.Options{Strict: strict}, Window: int(window)})
		tracetest.FuzzRead(t, r, len(data), func(j *sim.Job) bool {
			return j.Runtime >= 0 && j.Tasks == 1 && j.ID != "" && len(j.Request) == 2 &&
				j.Request[0].Amount > 0 && j.Request[1].Amount > 0
		})
	})
}
