package alibaba

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

func formatMachines(m *Machines) string {
	var b strings.Builder
	for _, n := range m.Nodes {
		var capa, attrs []string
		for _, q := range n.Capacity {
			capa = append(capa, q.Resource+":"+q.Amount.String())
		}
		for k, v := range n.Attributes {
			attrs = append(attrs, k+"="+v)
		}
		sort.Strings(attrs)
		fmt.Fprintf(&b, "node %s capacity=%s attrs=%s\n", n.Name, strings.Join(capa, ","), strings.Join(attrs, ";"))
	}
	for _, e := range m.Events {
		fmt.Fprintf(&b, "event %s %s %s\n", sim.FormatSeconds(e.At), e.Node, e.Kind)
	}
	return b.String()
}

func TestMachinesGolden(t *testing.T) {
	m, err := ReadMachines(filepath.Join(testdata, "machine_meta.csv"), traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "machines.txt", formatMachines(m))
	// m_4 first shows up at 200 s: down from 0 until then.
	want := []sim.NodeEvent{{At: 0, Node: "m_4", Kind: sim.NodeFail}, {At: 200 * sim.Second, Node: "m_4", Kind: sim.NodeRecover}}
	if !slices.Equal(m.Events, want) {
		t.Errorf("events %v, want %v", m.Events, want)
	}
}

// TestMachineStatus: USING and IDLE keep a machine up; another status
// takes it down until a later row puts it back. Rows are read in time
// order whatever the file order; the capacity is the earliest row's.
func TestMachineStatus(t *testing.T) {
	text := strings.Join([]string{
		"m_1,300,1,a,96,100,USING",
		"m_1,0,1,a,96,100,USING",
		"m_1,100,1,a,64,100,OFFLINE", // hypothetical status: out of service
		"m_1,200,1,a,96,100,idle",
		"m_2,50,2,b,32,50,ERROR", // first seen at 50, not in service
		"m_2,400,2,b,32,50,USING",
	}, "\n") + "\n"
	m, err := ParseMachines(strings.NewReader(text), "machine_meta.csv", traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	got := formatMachines(m)
	want := "node m_1 capacity=cpu:96,mem:100 attrs=failure_domain_1=1;failure_domain_2=a\n" +
		"node m_2 capacity=cpu:32,mem:50 attrs=failure_domain_1=2;failure_domain_2=b\n" +
		"event 0 m_2 fail\n" + // absent before 50 s, and not in service then either
		"event 100 m_1 fail\n" + "event 200 m_1 recover\n" + "event 400 m_2 recover\n"
	if got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
}
