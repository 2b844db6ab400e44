package openb

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

const testdata = "../../testdata/openb"

var strict = traces.Options{Strict: true}

func TestReadTestdata(t *testing.T) {
	nodes, _, err := ReadNodes(filepath.Join(testdata, "nodes.csv"), strict)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 14 || nodes[0] != (Node{"openb-node-0000", 64000, 262144, 2, "P100"}) {
		t.Errorf("nodes: %d, first %+v", len(nodes), nodes[0])
	}
	pods, _, err := ReadPods(filepath.Join(testdata, "pods.csv"), strict)
	if err != nil {
		t.Fatal(err)
	}
	if len(pods) != 70 {
		t.Fatalf("%d pods", len(pods))
	}
	// openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
	want := Pod{Name: "openb-pod-0001", CPUMilli: 6000, MemoryMiB: 12288, NumGPU: 1, GPUMilli: 460, QoS: "LS", Phase: "Running",
		Creation: 427061, Deletion: 12902960, Scheduled: 427061}
	if !reflect.DeepEqual(pods[1], want) || !pods[1].Share() || pods[1].TotalGPUMilli() != 460 {
		t.Errorf("pod 1 = %+v", pods[1])
	}
	var multi, whole int
	for _, p := range pods {
		if len(p.GPUSpec) > 1 {
			multi++
		}
		if p.NumGPU >= 2 && !p.Share() && p.TotalGPUMilli() == int64(p.NumGPU)*1000 {
			whole++
		}
	}
	if multi < 6 || whole < 4 {
		t.Errorf("%d multi-model pods, %d multi-GPU pods", multi, whole)
	}
}

func TestSpecSplit(t *testing.T) {
	// The gpuspec lists repeat models ("V100M16|V100M32|V100M32").
	if got := splitSpec("V100M16|V100M32|V100M32| "); !reflect.DeepEqual(got, []string{"V100M16", "V100M32"}) {
		t.Errorf("got %q", got)
	}
}

func TestOptionalColumnsAndTimes(t *testing.T) {
	// The multigpu lists stop after gpu_milli; pending pods lack scheduled_time.
	pods, _, err := ParsePods("m.csv", strings.NewReader("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,2,8,1000\n"), strict)
	if err != nil || pods[0].NumGPU != 8 || pods[0].Creation != Unknown || pods[0].GPUSpec != nil {
		t.Fatalf("%+v %v", pods, err)
	}
	pods, _, err = ParsePods("p.csv", strings.NewReader(
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"+
			"p,1,2,1,50,T4,BE,Pending,10,20,\n"), strict)
	if err != nil || pods[0].Scheduled != Unknown || pods[0].Deletion != 20 || pods[0].GPUSpec[0] != "T4" {
		t.Fatalf("%+v %v", pods, err)
	}
}

func TestErrorsNameFileLineField(t *testing.T) {
	const podHead = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	const nodeHead = "sn,cpu_milli,memory_mib,gpu,model\n"
	for _, tc := range []struct {
		nodes      bool
		in, where  string
		line       int
		field, msg string
	}{
		{false, podHead + "p,1,1,1,500\np,x,1,1,500\n", "cpu", 3, "cpu_milli", "not an integer"},
		{false, podHead + "p,1,1,2,500\n", "share of 2", 2, "gpu_milli", "shares are of one GPU"},
		{false, podHead + "p,1,1,0,500\n", "milli without GPUs", 2, "gpu_milli", "num_gpu 0"},
		{false, podHead + "p,1,1,1,0\n", "no milli", 2, "gpu_milli", "0 milli"},
		{false, podHead + "p,1,1,1,1001\n", "over 1000", 2, "gpu_milli", "out of range"},
		{false, podHead + "p,-1,1,1,500\n", "negative", 2, "cpu_milli", "out of range"},
		{false, podHead + ",1,1,1,500\n", "no name", 2, "name", "empty"},
		{false, podHead + "p,1,1,1\n", "short", 2, "gpu_milli", "empty"},
		{false, "name,cpu_milli,memory_mib,num_gpu\n", "header", 1, "gpu_milli", "missing"},
		{false, podHead + "p,1,1,1,500,\"x\n", "quote", 2, "", "quote"},
		{false, "", "empty", 1, "", "no header"},
		{true, nodeHead + "n,1,1,2,\n", "no model", 2, "model", "needs a model"},
		{true, nodeHead + "n,1,1,0,T4\n", "model without GPUs", 2, "model", "without GPUs"},
		{true, nodeHead + "n,1,1,0,\nn,1,1,0,\n", "twice", 3, "sn", "already listed on line 2"},
	} {
		var err error
		if tc.nodes {
			_, _, err = ParseNodes("f.csv", strings.NewReader(tc.in), strict)
		} else {
			_, _, err = ParsePods("f.csv", strings.NewReader(tc.in), strict)
		}
		var pe *traces.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not a ParseError", tc.where, err)
			continue
		}
		if pe.File != "f.csv" || pe.Line != tc.line || pe.Field != tc.field || !strings.Contains(pe.Error(), tc.msg) {
			t.Errorf("%s: got %q (line %d, field %q), want line %d field %q with %q", tc.where, pe.Error(), pe.Line, pe.Field, tc.line, tc.field, tc.msg)
		}
	}
}

func TestLenientSkipsAndCounts(t *testing.T) {
	in := "name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1,1,1,500\nb,1,1,3,500\nc,1,1,1,x\nd,1,1,0,0\n"
	pods, skips, err := ParsePods("f.csv", strings.NewReader(in), traces.Options{})
	if err != nil || len(pods) != 2 || skips.Total != 2 || skips.First.Line != 3 {
		t.Errorf("pods %d, skips %+v, err %v", len(pods), skips, err)
	}
}

func TestNodeSpecs(t *testing.T) {
	specs := NodeSpecs([]Node{{"g", 64000, 262144, 2, "P100"}, {"c", 96000, 1024, 0, ""}})
	if a, _ := sim.Get(specs[0].Capacity, "cpu"); a != 64000 {
		t.Errorf("cpu %v: want 64 cores = Amount 64000", a)
	}
	if a, _ := sim.Get(specs[0].Capacity, "gpu"); a != sim.Units(2) {
		t.Errorf("gpu %v", a)
	}
	if a, _ := sim.Get(specs[0].Capacity, "mem"); a != sim.Units(262144) {
		t.Errorf("mem %v", a)
	}
	if specs[0].Attributes[ModelAttribute] != "P100" || specs[1].Attributes != nil {
		t.Errorf("attributes %v %v", specs[0].Attributes, specs[1].Attributes)
	}
	if _, ok := sim.Get(specs[1].Capacity, "gpu"); ok {
		t.Error("a CPU node has a gpu resource")
	}
	if _, err := sim.NewCluster(specs); err != nil {
		t.Error(err)
	}
}

// TestSharedLists reads every openb list in ../shared strictly.
func TestSharedLists(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/traces/openb/*.csv")
	if len(files) == 0 {
		t.Skip("../shared/traces/openb not present")
	}
	for _, f := range files {
		var n int
		var err error
		if strings.Contains(f, "node_list") {
			var nodes []Node
			nodes, _, err = ReadNodes(f, strict)
			n = len(nodes)
		} else {
			var pods []Pod
			pods, _, err = ReadPods(f, strict)
			n = len(pods)
		}
		if err != nil || n == 0 {
			t.Errorf("%s: %d records, %v", f, n, err)
		}
	}
	nodes, _, _ := ReadNodes("../../../shared/traces/openb/openb_node_list_gpu_node.csv", strict)
	gpus := 0
	for _, n := range nodes {
		gpus += n.GPUs
	}
	if len(nodes) != 1213 || gpus != 6212 {
		t.Errorf("%d GPU nodes, %d GPUs; the README says 1,213 and 6,212", len(nodes), gpus)
	}
}

// FuzzParse: whatever the bytes, the readers never panic, and an error is a
// ParseError with a location.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"nodes.csv", "pods.csv"} {
		if b, err := os.ReadFile(filepath.Join(testdata, name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np,1,1,1,5,\"A|B\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []traces.Options{{}, strict} {
			for _, parse := range []func() error{
				func() error { _, _, err := ParseNodes("fuzz", strings.NewReader(string(data)), opt); return err },
				func() error {
					pods, _, err := ParsePods("fuzz", strings.NewReader(string(data)), opt)
					for _, p := range pods {
						if p.NumGPU < 0 || p.GPUMilli < 0 || p.GPUMilli > MilliPerGPU || (p.NumGPU > 1 && p.GPUMilli != MilliPerGPU) {
							t.Fatalf("bad pod accepted: %+v", p)
						}
					}
					return err
				},
			} {
				if err := parse(); err != nil {
					var pe *traces.ParseError
					if !errors.As(err, &pe) {
						t.Fatalf("error without a location: %v", err)
					}
				}
			}
		}
	})
}
