package nodeevents

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func TestParse(t *testing.T) {
	got, err := Parse([]byte("# maintenance\ntime_s,node,event,deadline_s\n3600,cn07,fail,\n5400.5,cn07,recover\n7200,cn12,drain,9000\n"), "ev.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.NodeEvent{
		{At: 3600 * sim.Second, Node: "cn07", Kind: sim.NodeFail},
		{At: 5400*sim.Second + sim.Second/2, Node: "cn07", Kind: sim.NodeRecover},
		{At: 7200 * sim.Second, Node: "cn12", Kind: sim.NodeDrain, Deadline: 9000 * sim.Second},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "ev.csv:1: empty file"},
		{"time_s,node,when\n", "ev.csv:1: field when: unknown column"},
		{"time_s,event\n", "ev.csv:1: field node: missing column"},
		{"time_s,node,event\n-1,a,fail\n", "ev.csv:2: field time_s: want seconds ≥ 0"},
		{"time_s,node,event\n1,,fail\n", "ev.csv:2: field node: missing"},
		{"time_s,node,event\n1,a,explode\n", `ev.csv:2: field event: unknown node event "explode"`},
		{"time_s,node,event,deadline_s\n1,a,fail,5\n", "ev.csv:2: field deadline_s: only a drain has a deadline"},
		{"time_s,node,event,deadline_s\n10,a,drain,5\n", "ev.csv:2: field deadline_s: want seconds ≥ time_s"},
	} {
		_, err := Parse([]byte(c.in), "ev.csv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s…", c.in, err, c.want)
		}
	}
}
