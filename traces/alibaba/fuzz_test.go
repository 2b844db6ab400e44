package alibaba

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// FuzzReader: whatever the bytes, the reader never panics, ends, yields
// jobs in submit order with sane fields, each depending only on jobs it
// yielded before, and fails only with a located *traces.ParseError.
func FuzzReader(f *testing.F) {
	tasks, _ := os.ReadFile(filepath.Join(testdata, "batch_task.csv"))
	inst, _ := os.ReadFile(filepath.Join(testdata, "batch_instance.csv"))
	f.Add(tasks, inst, false, uint8(0))
	f.Add(tasks, inst, true, uint8(1))
	f.Add(tasks, []byte{}, false, uint8(2))
	f.Add([]byte("M1,1,a,1,T,10,20,100,1\nM2_1,1,a,1,T,5,30,100,1\nM3_2,1,b,1,T,1,2,1,1\n"), []byte("i,M1,a,1,T,10,15,m,1,1,1,1,1,1\n"), true, uint8(1))
	f.Add([]byte("M2_3,1,a,1,T,10,20,100,1\nM3_2,1,a,1,T,10,20,100,1\nR2_,1,a,1,T,1,2,1,1\n\"x\n"), []byte("\"\n,,\n"), false, uint8(3))
	f.Fuzz(func(t *testing.T, tasks, inst []byte, strict bool, window uint8) {
		var ir io.Reader
		if len(inst) > 0 {
			ir = bytes.NewReader(inst)
		}
		r := NewReader(bytes.NewReader(tasks), "batch_task.csv", ir, "batch_instance.csv",
			Options{Options: traces.Options{Strict: strict}, Window: int(window)})
		seen := map[string]bool{}
		tracetest.FuzzRead(t, r, len(tasks), func(j *sim.Job) bool {
			for _, d := range j.DependsOn {
				if !seen[d.ID] {
					t.Fatalf("%s depends on %s, not yielded before", j.ID, d.ID)
				}
			}
			seen[j.ID] = true
			return j.Runtime >= 0 && j.Tasks >= 1 && j.ID != ""
		})
	})
}

// FuzzMachines: machine_meta never panics the reader; nodes have a name
// and positive capacity; events name known nodes, in time order.
func FuzzMachines(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join(testdata, "machine_meta.csv"))
	f.Add(data, false)
	f.Add([]byte("m_1,300,1,a,96,100,USING\nm_1,100,1,a,64,100,OFF\nm_2,5,,,1,0.5,X\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		m, err := ParseMachines(bytes.NewReader(data), "machine_meta.csv", traces.Options{Strict: strict})
		if err != nil {
			var pe *traces.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error without a location: %v", err)
			}
			return
		}
		names := map[string]bool{}
		for _, n := range m.Nodes {
			if n.Name == "" || names[n.Name] || n.Capacity[0].Amount <= 0 || n.Capacity[1].Amount <= 0 {
				t.Fatalf("bad node %+v", n)
			}
			names[n.Name] = true
		}
		for i, e := range m.Events {
			if !names[e.Node] || (i > 0 && e.At < m.Events[i-1].At) {
				t.Fatalf("bad event %d: %+v", i, e)
			}
		}
	})
}
