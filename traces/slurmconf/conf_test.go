package slurmconf

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// describe prints a node as "name cpu=… mem=… [gpu=…] [tags] {attrs}".
func describe(n sim.NodeSpec) string {
	var b strings.Builder
	b.WriteString(n.Name)
	for _, q := range n.Capacity {
		fmt.Fprintf(&b, " %s=%s", q.Resource, q.Amount)
	}
	keys := make([]string, 0, len(n.Attributes))
	for k := range n.Attributes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s:%s", k, n.Attributes[k])
	}
	return b.String()
}

func TestSlurmConf(t *testing.T) {
	c, err := Load("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// DEFAULT RealMemory=256000 Feature=ib; the line's own Feature wins.
		"c001 cpu=64 mem=256000 partition:batch=0 partition:all=0 feature.ib:yes feature.zen3:yes features:ib,zen3 partitions:batch,all weight:10",
		"c002 cpu=64 mem=256000 partition:batch=0 partition:all=0 feature.ib:yes feature.zen3:yes features:ib,zen3 partitions:batch,all weight:10",
		"c003 cpu=64 mem=256000 partition:batch=0 partition:long=0 partition:all=0 feature.ib:yes feature.zen3:yes features:ib,zen3 partitions:batch,long,all weight:10",
		"c004 cpu=64 mem=256000 partition:batch=0 partition:long=0 partition:all=0 feature.ib:yes feature.zen3:yes features:ib,zen3 partitions:batch,long,all weight:10",
		// CPUs from 2 sockets × 16 cores × 2 threads; a continued line;
		// lower-case keys; Feature=ib from DEFAULT.
		"gpu1 cpu=64 mem=256000 gpu=4 partition:gpu=0 partition:all=0 feature.ib:yes features:ib gpu_model:a100 gres:gpu:a100:4 partitions:gpu,all weight:50",
		"gpu2 cpu=64 mem=256000 gpu=4 partition:gpu=0 partition:all=0 feature.ib:yes features:ib gpu_model:a100 gres:gpu:a100:4 partitions:gpu,all weight:50",
		// The second DEFAULT line replaces RealMemory, keeps Feature.
		"fat01 cpu=128 mem=512000 gpu=2 partition:batch=0 partition:all=0 feature.ib:yes features:ib gpu_model:v100 gres:gpu:v100:2(S:0-1),mps:200 partitions:batch,all",
	}
	if len(c.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(c.Nodes), len(want))
	}
	for i, n := range c.Nodes {
		if got := describe(n); got != want[i] {
			t.Errorf("node %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
	if c.Default != "batch" {
		t.Errorf("default partition %q, want batch", c.Default)
	}
	h := sim.Second * 3600
	wantParts := []struct {
		name       string
		nodes      int
		max, deflt sim.Time
		line       int
	}{
		{"batch", 5, 24 * h, h, 15},                          // MaxTime from DEFAULT
		{"gpu", 2, 60*h + 0, sim.NoWalltime, 16},             // 2-12:00:00
		{"long", 2, sim.NoWalltime, sim.NoWalltime, 17},      // UNLIMITED
		{"all", 7, 90 * 60 * sim.Second, sim.NoWalltime, 18}, // minutes
	}
	if len(c.Partitions) != len(wantParts) {
		t.Fatalf("%d partitions, want %d", len(c.Partitions), len(wantParts))
	}
	for i, w := range wantParts {
		p := c.Partitions[i]
		if p.Name != w.name || len(p.Nodes) != w.nodes || p.MaxTime != w.max || p.DefaultTime != w.deflt || p.Line != w.line {
			t.Errorf("partition %d = %s %d nodes max %v default %v line %d, want %+v", i, p.Name, len(p.Nodes), p.MaxTime, p.DefaultTime, p.Line, w)
		}
	}
	limits := c.TimeLimits()
	if len(limits) != 3 || limits["batch"] != h || limits["gpu"] != 60*h || limits["all"] != 90*60*sim.Second {
		t.Errorf("time limits %v", limits)
	}
	if _, err := sim.NewCluster(c.Nodes); err != nil {
		t.Errorf("the nodes do not compile: %v", err)
	}
}

func TestScontrolOutput(t *testing.T) {
	nodes, err := os.ReadFile("testdata/scontrol-nodes.txt")
	if err != nil {
		t.Fatal(err)
	}
	parts, err := os.ReadFile("testdata/scontrol-partitions.txt")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("scontrol.txt", append(nodes, parts...))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// CPUEfctv (less specialized cores) over CPUTot; the OS value's
		// blanks and '#' do not cut the line before RealMemory.
		"c001 cpu=62 mem=256000 gpu=4 partition:batch=0 partition:gpu=0 arch:x86_64 feature.ib:yes feature.zen3:yes features:ib,zen3 gpu_model:a100 gres:gpu:a100:4(S:0-1) partitions:batch,gpu weight:1",
		"c002 cpu=32 mem=128000 partition:batch=0 arch:x86_64 partitions:batch weight:1",
	}
	for i, n := range c.Nodes {
		if got := describe(n); i >= len(want) || got != want[i] {
			t.Errorf("node %d: %s", i, got)
		}
	}
	if len(c.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(c.Nodes), len(want))
	}
	// batch is named by the nodes first, then by the partition line,
	// which gives its MaxTime and Default; gpu only by a node.
	if len(c.Partitions) != 2 || c.Partitions[0].MaxTime != 48*3600*sim.Second || c.Partitions[0].Line != 3 ||
		c.Partitions[1].Name != "gpu" || c.Partitions[1].MaxTime != sim.NoWalltime || c.Default != "batch" {
		t.Errorf("partitions %+v default %q", c.Partitions, c.Default)
	}
}

func TestErrorsNameFileLineAndKey(t *testing.T) {
	_, err := Load("testdata/bad.conf")
	if err == nil {
		t.Fatal("bad.conf parsed")
	}
	want := []string{
		"testdata/bad.conf:1: field CPUs: want a whole number ≥ 1, got \"sixty-four\"",
		"testdata/bad.conf:2: field NodeName: \"d[5-1]\": [5-1]: range \"5-1\" goes down",
		"testdata/bad.conf:3: field NodeName: node c003 is defined twice",
		"testdata/bad.conf:4: field MaxTime: not a Slurm time",
		"testdata/bad.conf:5: field Default: want YES or NO, got \"maybe\"",
		"testdata/bad.conf:4: field Nodes: node c005 is not defined by a NodeName line",
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	var pe *traces.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Field != "CPUs" {
		t.Errorf("first error is not a ParseError at line 1, field CPUs: %#v", pe)
	}
}

func TestSmallFiles(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"no nodes", "ClusterName=x\n", "no nodes"},
		{"include", "Include /etc/slurm/nodes.conf\n", "Include is not followed"},
		{"stray word", "NodeName=a CPUs=1\n\\\nstray\n", "not Key=Value"},
		{"bad gres", "NodeName=a Gres=:4\n", "field Gres: a gres entry has no name"},
		{"twice", "NodeName=a\nPartitionName=p Nodes=a\nPartitionName=p Nodes=a\n", "partition p is defined twice (line 2)"},
		{"bad partition name", "NodeName=a\nPartitionName=p,q Nodes=a\n", "want one partition name"},
		{"bad hostlist", "NodeName=a\nPartitionName=p Nodes=a[\n", "field Nodes"},
	} {
		_, err := Parse("x.conf", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Defaults: one CPU and 1 MB, as Slurm's; continuation without a
	// trailing blank; quoted values with blanks.
	c, err := Parse("x.conf", []byte("NodeName=a\\\n Weight=3 Feature=\"x y\"\nNodeName=b Boards=2 SocketsPerBoard=2 CoresPerSocket=4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(c.Nodes[0]); got != "a cpu=1 mem=1 feature.x y:yes features:x y weight:3" {
		t.Errorf("a: %s", got)
	}
	if got := describe(c.Nodes[1]); got != "b cpu=16 mem=1" {
		t.Errorf("b: %s", got)
	}
}

func TestSniff(t *testing.T) {
	for text, want := range map[string]bool{
		"# slurm.conf\n\nClusterName=x\n":       true,
		"nodename=c[1-2] CPUs=4\n":              true,
		"NodeName=c001 Arch=x86_64 CPUTot=64\n": true,
		"name: example\nnode_groups:\n":         false,
		"# only comments\n":                     false,
		"JobID|Submit\n":                        false,
	} {
		if got := Sniff([]byte(text)); got != want {
			t.Errorf("Sniff(%q) = %v", text, got)
		}
	}
}
