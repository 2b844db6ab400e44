package clusterconfig

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testdata = "../../testdata/clusters"

// dump prints nodes one per line, attributes sorted by key, amounts in
// thousandths, so that a golden file shows exactly what was loaded.
func dump(nodes []sim.NodeSpec) string {
	var b strings.Builder
	for i, n := range nodes {
		fmt.Fprintf(&b, "%d %s [", i, n.Name)
		for j, q := range n.Capacity {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%d", q.Resource, q.Amount)
		}
		b.WriteString("] {")
		keys := make([]string, 0, len(n.Attributes))
		for k := range n.Attributes {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for j, k := range keys {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s=%s", k, n.Attributes[k])
		}
		fmt.Fprintf(&b, "} power=%g/%g/%q", n.Power.IdleW, n.Power.MaxW, n.Power.Resource)
		if n.Parent != "" {
			fmt.Fprintf(&b, " parent=%s", n.Parent)
		}
		for _, t := range n.Taints {
			fmt.Fprintf(&b, " taint=%s=%s:%s", t.Key, t.Value, t.Effect)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestExamples loads every example, checks that sim.NewCluster accepts it
// and compares it with its golden dump (go test -update rewrites them).
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "*.yaml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			nodes, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sim.NewCluster(nodes); err != nil {
				t.Fatalf("sim.NewCluster: %v", err)
			}
			got := dump(nodes)
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestSmall(t *testing.T) {
	nodes, err := Load(filepath.Join(testdata, "small.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var want []sim.NodeSpec
	for i := range 4 {
		want = append(want, sim.NodeSpec{Name: fmt.Sprintf("node%d", i),
			Capacity: []sim.Quantity{{Resource: "cpu", Amount: 16000}, {Resource: "mem", Amount: 65536000}}})
	}
	if !reflect.DeepEqual(nodes, want) {
		t.Errorf("got %+v", nodes)
	}
}

func TestHetero(t *testing.T) {
	nodes, err := Load(filepath.Join(testdata, "hetero.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	// 8 + 4 + 1 nodes; widths of 7 and 4 are 1 digit; the gpu group starts at 1.
	want := "cpu0 cpu1 cpu2 cpu3 cpu4 cpu5 cpu6 cpu7 gpu1 gpu2 gpu3 gpu4 fat1"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("names %s", got)
	}
	// Resources are numbered in the order the file first writes them.
	if got := strings.Join(c.Resources, " "); got != "cpu mem gpu ib scratch" {
		t.Errorf("resources %s", got)
	}
	if a, _ := sim.Get(nodes[12].Capacity, "scratch"); a != 500 {
		t.Errorf("scratch 0.5 = %d", a)
	}
	if got := nodes[8].Attributes["model"]; got != "A100" {
		t.Errorf("model %q", got)
	}
}

func TestPower(t *testing.T) {
	nodes, err := Load(filepath.Join(testdata, "power.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		node int
		want sim.PowerModel
	}{
		{0, sim.PowerModel{IdleW: 100, MaxW: 250, Resource: "cpu"}}, // the default
		{16, sim.PowerModel{IdleW: 60, MaxW: 200, Resource: "gpu"}}, // eco0: its group's own
		{18, sim.PowerModel{IdleW: 95, MaxW: 190, Resource: ""}},    // fat1: replaced as a whole
	} {
		if got := nodes[c.node].Power; got != c.want {
			t.Errorf("node %d (%s): %+v, want %+v", c.node, nodes[c.node].Name, got, c.want)
		}
	}
	cl, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	// fat1 at half its cpu: 95 + (190 − 95) · 0.5 = 142.5 W.
	if w := cl.NodeWatts(18, 64000); w != 142.5 {
		t.Errorf("fat1 at 64 cpu: %g W", w)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		count, start int
		first, last  string
	}{
		{16, 0, "cn00", "cn15"}, // width of 15
		{10, 0, "cn0", "cn9"},   // width of 9
		{11, 0, "cn00", "cn10"}, // width of 10
		{10, 1, "cn01", "cn10"}, // width of the last index, 10
		{1, 0, "cn0", "cn0"},    // one node
		{3, 998, "cn0998", "cn1000"},
	} {
		yaml := fmt.Sprintf("node_groups:\n  - {prefix: cn, count: %d, start: %d}\n", c.count, c.start)
		nodes, err := Parse([]byte(yaml), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) != c.count || nodes[0].Name != c.first || nodes[len(nodes)-1].Name != c.last {
			t.Errorf("count %d start %d: %d nodes %s … %s", c.count, c.start, len(nodes), nodes[0].Name, nodes[len(nodes)-1].Name)
		}
	}
}

// TestAliases: anchors share blocks.
func TestAliases(t *testing.T) {
	in := `
node_groups:
  - prefix: a
    count: 2
    resources: &std {cpu: 8, mem: 1024}
nodes:
  - {name: b, resources: *std}
`
	nodes, err := Parse([]byte(in), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(nodes); got != "0 a0 [cpu:8000 mem:1024000] {} power=0/0/\"\"\n1 a1 [cpu:8000 mem:1024000] {} power=0/0/\"\"\n2 b [cpu:8000 mem:1024000] {} power=0/0/\"\"\n" {
		t.Errorf("%s", got)
	}
}

func TestAmounts(t *testing.T) {
	in := `nodes: [{name: a, resources: {i: 131072, f: 0.5, q: "0.25", e: 1e3, z: 0, h: 0x10, u: 1_000, r: 0.0004}}]`
	nodes, err := Parse([]byte(in), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := "[{i 131072} {f 0.5} {q 0.25} {e 1000} {z 0} {h 16} {u 1000} {r 0}]"
	if got := fmt.Sprint(nodes[0].Capacity); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// errCases: each input and its whole error message.
var errCases = []struct {
	name, in, want string
}{
	{"unknown top key", "nodes: [{name: a}]\nnode_group: []\n",
		`t.yaml:2: unknown key "node_group" (did you mean "node_groups"?)`},
	{"key with a line break, quoted in the message", "nodes: [{name: a}]\n\"node\\ngroups\": []\n",
		`t.yaml:2: unknown key "\"node\\ngroups\"" (did you mean "node_groups"?)`},
	{"unknown group key", `
node_groups:
  - prefix: cn
    count: 2
    resorces: {cpu: 1}
`, `t.yaml:5: unknown key "node_groups[0].resorces" (did you mean "node_groups[0].resources"?)`},
	{"unknown node key", "nodes:\n  - name: a\n    atributes: {}\n",
		`t.yaml:3: unknown key "nodes[0].atributes" (did you mean "nodes[0].attributes"?)`},
	{"unknown power key", "power: {idle_w: 1, max_w: 2, idle: 3}\nnodes: [{name: a}]\n",
		`t.yaml:1: unknown key "power.idle" (did you mean "power.idle_w"?)`},
	{"parent unknown", "nodes:\n  - name: a\n    parent: rack9\n",
		"t.yaml:3: nodes[0].parent: rack9 is not a node of the cluster"},
	{"parent cycle", "nodes:\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n",
		"t.yaml:2: nodes[0].parent: parents form a cycle through a"},
	{"bad taint effect", "nodes:\n  - name: a\n    taints: [{key: gpu, effect: Never}]\n",
		"t.yaml:3: nodes[0].taints[0].effect: must be NoSchedule or PreferNoSchedule, not \"Never\""},
	{"amount type", "nodes:\n  - name: a\n    resources: {cpu: lots}\n",
		"t.yaml:3: nodes[0].resources.cpu: must be a number, not a string"},
	{"infinite amount", "nodes:\n  - name: a\n    resources: {cpu: .inf}\n",
		"t.yaml:3: nodes[0].resources.cpu: must be a number, not a number"},
	{"huge amount", "nodes:\n  - name: a\n    resources: {cpu: 10000000000000000}\n",
		"t.yaml:3: nodes[0].resources.cpu: must be at most 9000000000000000"},
	{"total overflow", "node_groups:\n  - {prefix: a, count: 10, resources: {mem: 1000000000000000}}\n",
		"t.yaml:2: node_groups[0].resources.mem: the cluster's total of mem exceeds 9000000000000000"},
	{"resources list", "nodes:\n  - name: a\n    resources: [cpu]\n",
		"t.yaml:3: nodes[0].resources: must be a mapping, not a list"},
	{"count zero", "node_groups:\n  - prefix: cn\n    count: 0\n",
		"t.yaml:3: node_groups[0].count: must be ≥ 1"},
	{"count missing", "node_groups:\n  - prefix: cn\n",
		"t.yaml:2: node_groups[0]: missing count"},
	{"count text", "node_groups:\n  - {prefix: cn, count: many}\n",
		"t.yaml:2: node_groups[0].count: must be an integer, not a string"},
	{"count fraction", "node_groups:\n  - {prefix: cn, count: 1.5}\n",
		"t.yaml:2: node_groups[0].count: must be an integer, not a number"},
	{"count huge", "node_groups:\n  - {prefix: cn, count: 1000001}\n",
		"t.yaml:2: node_groups[0].count: must be at most 1000000"},
	{"too many nodes", "node_groups:\n  - {prefix: a, count: 600000}\n  - {prefix: b, count: 600000}\n",
		"t.yaml:1: the cluster has 1200000 nodes, more than 1000000"},
	{"negative start", "node_groups:\n  - {prefix: cn, count: 1, start: -1}\n",
		"t.yaml:2: node_groups[0].start: must be between 0 and 1000000000"},
	{"empty prefix", "node_groups:\n  - prefix: \"\"\n    count: 1\n",
		"t.yaml:2: node_groups[0].prefix: must not be empty"},
	{"missing prefix", "node_groups:\n  - count: 1\n",
		"t.yaml:2: node_groups[0]: missing prefix"},
	{"missing name", "nodes:\n  - resources: {cpu: 1}\n",
		"t.yaml:2: nodes[0]: missing name"},
	{"numeric name", "nodes:\n  - name: 7\n",
		"t.yaml:2: nodes[0].name: must be a string, not a number (quote it)"},
	{"duplicate nodes", "nodes:\n  - name: a\n  - name: a\n",
		"t.yaml:3: nodes[1].name: node name a is also made by nodes[0]"},
	{"group and node clash", "node_groups:\n  - {prefix: cn, count: 4}\nnodes:\n  - name: cn2\n",
		"t.yaml:4: nodes[0].name: node name cn2 is also made by node_groups[0]"},
	{"groups clash", "node_groups:\n  - {prefix: cn, count: 20}\n  - {prefix: cn1, count: 3}\n",
		"t.yaml:3: node_groups[1]: node name cn10 is also made by node_groups[0]"},
	{"max below idle", "power:\n  idle_w: 100\n  max_w: 50\nnodes: [{name: a}]\n",
		"t.yaml:3: power.max_w: must be ≥ idle_w (100)"},
	{"negative idle", "nodes:\n  - name: a\n    power: {idle_w: -1, max_w: 5}\n",
		"t.yaml:3: nodes[0].power.idle_w: must be ≥ 0"},
	{"missing max", "nodes:\n  - name: a\n    power: {idle_w: 1}\n",
		"t.yaml:3: nodes[0].power: missing max_w"},
	{"watts text", "nodes:\n  - name: a\n    power: {idle_w: low, max_w: 5}\n",
		"t.yaml:3: nodes[0].power.idle_w: must be a number, not a string"},
	{"power resource missing", "nodes:\n  - name: a\n    resources: {mem: 1}\n    power: {idle_w: 1, max_w: 2, resource: cpu}\n",
		"t.yaml:4: nodes[0].power.resource: cpu is not among the node's resources"},
	{"default power resource missing", "power: {idle_w: 1, max_w: 2, resource: gpu}\nnode_groups:\n  - {prefix: a, count: 1, resources: {gpu: 1}}\n  - {prefix: b, count: 1, resources: {cpu: 1}}\n",
		"t.yaml:4: node_groups[1]: power.resource gpu (from the top-level power) is not among the node's resources"},
	{"attribute number", "nodes:\n  - name: a\n    attributes: {rack: 1}\n",
		"t.yaml:3: nodes[0].attributes.rack: must be a string, not a number (quote it)"},
	{"attribute list", "nodes:\n  - name: a\n    attributes: {rack: [1]}\n",
		"t.yaml:3: nodes[0].attributes.rack: must be a string, not a list"},
	{"attribute date", "nodes:\n  - name: a\n    attributes: {since: 2024-01-01}\n",
		"t.yaml:3: nodes[0].attributes.since: must be a string, not a date (quote it)"},
	{"key twice", "nodes:\n  - name: a\n    resources:\n      cpu: 1\n      cpu: 2\n",
		"t.yaml:5: nodes[0].resources.cpu: given twice"},
	{"merge key", "base: &b {cpu: 1}\nnodes:\n  - name: a\n    resources: {<<: *b}\n",
		`t.yaml:1: unknown key "base" (did you mean "name"?)` + "\nt.yaml:4: nodes[0].resources.<<: merge keys (<<) are not supported"},
	{"not a mapping", "- a\n- b\n",
		"t.yaml:1: a cluster file must be a mapping with node_groups and/or nodes, not a list"},
	{"group not a mapping", "node_groups: [cn]\n",
		"t.yaml:1: node_groups[0]: must be a mapping, not a string"},
	{"no nodes", "name: empty\n",
		"t.yaml:1: no nodes: add node_groups or nodes"},
	{"empty file", "# nothing\n",
		"t.yaml: empty file: want a mapping with node_groups and/or nodes"},
	{"two documents", "nodes: [{name: a}]\n---\nnodes: [{name: b}]\n",
		"t.yaml:2: a second YAML document; a cluster file holds one"},
	{"bad yaml", "nodes:\n  - name: a\n   bad: [\n",
		"t.yaml: bad YAML: line 1: did not find expected '-' indicator"},
	{"tab indent", "nodes:\n\t- name: a\n",
		"t.yaml: bad YAML: line 2: found character that cannot start any token"},
}

func TestErrors(t *testing.T) {
	for _, c := range errCases {
		t.Run(c.name, func(t *testing.T) {
			nodes, err := Parse([]byte(c.in), "t.yaml")
			if err == nil {
				t.Fatalf("no error; nodes:\n%s", dump(nodes))
			}
			if err.Error() != c.want {
				t.Errorf("\n got %s\nwant %s", err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%T holds no *Error", err)
			}
		})
	}
}

// TestEveryProblem: one file, every problem, one line each, in line order.
func TestEveryProblem(t *testing.T) {
	in := `name: [broken]
power: {idle_w: 100, max_w: 50}
node_groups:
  - prefix: cn
    count: 0
    resorces: {cpu: 1}
  - prefix: ""
    count: 2
    resources: {cpu: -4, mem: 1}
    attributes: {rack: 3}
nodes:
  - name: fat
    resources: {cpu: 1}
  - name: fat
    power: {idle_w: 1, max_w: 2, resource: gpu}
`
	want := strings.Join([]string{
		"t.yaml:1: name: must be a string, not a list",
		"t.yaml:2: power.max_w: must be ≥ idle_w (100)",
		"t.yaml:5: node_groups[0].count: must be ≥ 1",
		`t.yaml:6: unknown key "node_groups[0].resorces" (did you mean "node_groups[0].resources"?)`,
		"t.yaml:7: node_groups[1].prefix: must not be empty",
		"t.yaml:9: node_groups[1].resources.cpu: -4 is negative, but nodes[0] has cpu to offer: a negative amount is a shortcoming or ward, only of a resource no node offers (docs/scheduling.md, resource semantics)",
		"t.yaml:10: node_groups[1].attributes.rack: must be a string, not a number (quote it)",
		"t.yaml:14: nodes[1].name: node name fat is also made by nodes[0]",
		"t.yaml:15: nodes[1].power.resource: gpu is not among the node's resources",
	}, "\n")
	_, err := Parse([]byte(in), "t.yaml")
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
	// Decode alone reports only the structure.
	c, err := Decode([]byte(in), "t.yaml")
	if c == nil || err == nil || err.Error() != "t.yaml:1: name: must be a string, not a list\n"+
		`t.yaml:6: unknown key "node_groups[0].resorces" (did you mean "node_groups[0].resources"?)`+"\n"+
		"t.yaml:10: node_groups[1].attributes.rack: must be a string, not a number (quote it)" {
		t.Errorf("Decode: %v", err)
	}
}

// TestValidateHandBuilt: a Config made in Go has no lines; messages say
// where by key path alone.
func TestValidateHandBuilt(t *testing.T) {
	c := &Config{
		File:  "built",
		Power: &Power{IdleW: 10, MaxW: 5},
		NodeGroups: []NodeGroup{
			{Prefix: "a", Count: 2, Resources: []sim.Quantity{{Resource: "cpu", Amount: -1}}},
			{Count: 1},
		},
		Nodes: []Node{{Name: "a1"}},
	}
	want := strings.Join([]string{
		"built: power.max_w: must be ≥ idle_w (10)",
		"built: node_groups[1].prefix: must not be empty",
		"built: nodes[0].name: node name a1 is also made by node_groups[0]",
	}, "\n")
	if err := c.Validate(); err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
	ok := &Config{NodeGroups: []NodeGroup{{Prefix: "n", Count: 3, Resources: []sim.Quantity{{Resource: "cpu", Amount: 1000}}}}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := dump(ok.NodeSpecs()); got != "0 n0 [cpu:1000] {} power=0/0/\"\"\n1 n1 [cpu:1000] {} power=0/0/\"\"\n2 n2 [cpu:1000] {} power=0/0/\"\"\n" {
		t.Errorf("%s", got)
	}
}

// TestNodesDoNotShare: every node gets its own slices and maps.
func TestNodesDoNotShare(t *testing.T) {
	nodes, err := Parse([]byte("node_groups: [{prefix: a, count: 2, resources: {cpu: 1}, attributes: {k: v}}]"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	nodes[0].Capacity[0].Amount = 5
	nodes[0].Attributes["k"] = "w"
	if nodes[1].Capacity[0].Amount != 1000 || nodes[1].Attributes["k"] != "v" {
		t.Error("nodes of a group share their capacity or attributes")
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(testdata, "*.yaml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range errCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if nodes != nil {
				t.Fatal("nodes and an error")
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz.yaml") {
					t.Fatalf("message line without the file: %q", line)
				}
			}
			return
		}
		// What Parse accepts, the engine accepts.
		if _, err := sim.NewCluster(nodes); err != nil {
			t.Fatalf("Parse accepted what sim.NewCluster rejects: %v\n%s", err, data)
		}
		again, err := Parse(data, "fuzz.yaml")
		if err != nil || !reflect.DeepEqual(nodes, again) {
			t.Fatal("not deterministic")
		}
	})
}
