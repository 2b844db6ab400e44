package nodeevents

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the node-event reader arbitrary bytes, from the
// maintenance sample: it never panics, and what it accepts keeps its
// promises (times ≥ 0, a node, a drain's deadline not before its time).
//
//	go test -run X -fuzz FuzzParse ./traces/nodeevents
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "nodeevents", "maintenance.csv")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("time_s,node,event,deadline_s\n0,n0,drain,10\n5,n1,fail,\n"))
	f.Add([]byte("node,event,time_s\nn,recover,1e3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := Parse(data, "events.csv")
		if err != nil {
			return
		}
		for i, ev := range evs {
			if ev.At < 0 || ev.Node == "" || (ev.Deadline != 0 && ev.Deadline < ev.At) {
				t.Fatalf("event %d accepted: %+v", i, ev)
			}
		}
	})
}
