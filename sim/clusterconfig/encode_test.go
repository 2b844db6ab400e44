package clusterconfig

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestEncodeExamples: every example cluster encodes into a file that
// loads back into the same nodes, in the same order.
func TestEncodeExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatal("no examples", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			nodes, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadConfig(f)
			if err != nil {
				t.Fatal(err)
			}
			data, err := EncodeConfig(nodes, cfg.Defaults, "from "+f)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseConfig(data, "encoded")
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if got, want := dump(back.NodeSpecs()), dump(nodes); got != want {
				t.Errorf("round trip differs:\n%s\nwant:\n%s\nfile:\n%s", got, want, data)
			}
			if !slices.Equal(back.Defaults, cfg.Defaults) {
				t.Errorf("defaults %v, want %v", back.Defaults, cfg.Defaults)
			}
		})
	}
}

// TestEncodeGroups: runs of identical nodes named prefix+index become
// groups until the first node that cannot; the rest stay single nodes so
// that the order is kept.
func TestEncodeGroups(t *testing.T) {
	cpu := func(n int64) []sim.Quantity { return []sim.Quantity{{Resource: "cpu", Amount: sim.Units(n)}} }
	var nodes []sim.NodeSpec
	for i := range 12 { // n00 … n11: one group (width of 11 is 2)
		nodes = append(nodes, sim.NodeSpec{Name: "n" + pad2(i), Capacity: cpu(4), Power: sim.PowerModel{IdleW: 100.5, MaxW: 250}})
	}
	nodes = append(nodes,
		sim.NodeSpec{Name: "big7", Capacity: cpu(64), Attributes: map[string]string{"zone": "b", "n": "1"}},                       // a group of one
		sim.NodeSpec{Name: "fat", Capacity: []sim.Quantity{{Resource: "cpu", Amount: 1500}, {Resource: "bad", Amount: sim.Ward}}}, // no index: a node
		sim.NodeSpec{Name: "m1", Capacity: cpu(1)}, // after a node: stays a node
		sim.NodeSpec{Name: "m2", Capacity: cpu(1), Taints: []sim.Taint{{Key: "gpu", Effect: "PreferNoSchedule"}}},
	)
	data, err := Encode(nodes, "two lines\nof comment")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"# two lines\n# of comment\n", "prefix: n\n    count: 12\n", "prefix: big\n    count: 1\n    start: 7",
		"- name: fat\n", "resources: {cpu: 1.5, bad: -inf}", "- name: m1\n", `n: "1"`, "idle_w: 100.5"} {
		if !strings.Contains(text, want) {
			t.Errorf("encoded file lacks %q:\n%s", want, text)
		}
	}
	back, err := Parse(data, "encoded")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(back), dump(nodes); got != want {
		t.Errorf("round trip differs:\n%s\nwant:\n%s", got, want)
	}
}

func pad2(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// TestEncodeWidth: n1 … n12 are not one group (a group of last index 12
// pads to two digits: n01), so the run stops where the widths agree.
func TestEncodeWidth(t *testing.T) {
	var nodes []sim.NodeSpec
	for i := 1; i <= 12; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: "n" + strings.TrimLeft(pad2(i), "0"), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
	}
	data, err := Encode(nodes, "")
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data, "encoded")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if got, want := dump(back), dump(nodes); got != want {
		t.Errorf("round trip differs:\n%s\nwant:\n%s\nfile:\n%s", got, want, data)
	}
	if !strings.Contains(string(data), "count: 9") {
		t.Errorf("want n1…n9 as one group:\n%s", data)
	}
}

// TestEncodeRejects: what a cluster file cannot say is an error, not a
// different cluster.
func TestEncodeRejects(t *testing.T) {
	for name, n := range map[string]sim.NodeSpec{
		"empty effect":  {Name: "a", Capacity: []sim.Quantity{{Resource: "cpu", Amount: 1000}}, Taints: []sim.Taint{{Key: "k"}}},
		"negative watt": {Name: "a", Capacity: []sim.Quantity{{Resource: "cpu", Amount: 1000}}, Power: sim.PowerModel{IdleW: -1}},
	} {
		if _, err := Encode([]sim.NodeSpec{n}, ""); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Encode(nil, ""); err == nil {
		t.Error("no nodes: no error")
	}
}
