package metrics

import (
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"cpu": "cpu", "GPU Mem": "gpu_mem", "nvidia.com/gpu": "nvidia_com_gpu", "__x__": "x", "": "", "é": "",
		"licence-X2": "licence_x2",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
	got := resourceNames([]string{"GPU", "gpu", "g p u", "", "mem"})
	want := []string{"gpu", "gpu_2", "g_p_u", "r3", "mem"}
	if !slices.Equal(got, want) {
		t.Errorf("resourceNames = %v, want %v", got, want)
	}
	if mainResource([]string{"mem", "cpu"}) != 1 || mainResource([]string{"mem"}) != 0 || mainResource(nil) != -1 {
		t.Error("mainResource")
	}
}

func TestNodeRanges(t *testing.T) {
	for _, c := range []struct {
		nodes []int32
		want  string
		n     int
	}{
		{nil, "", 0},
		{[]int32{3}, "3", 1},
		{[]int32{3, 1, 2, 0, 7}, "0-3,7", 5},
		{[]int32{5, 5, 5, 6}, "5-6", 2}, // several tasks on one node count once
		{[]int32{9, 1, 4, 2}, "1-2,4,9", 4},
	} {
		buf, n := appendNodeRanges(nil, slices.Clone(c.nodes))
		if string(buf) != c.want || n != c.n {
			t.Errorf("%v → %q, %d; want %q, %d", c.nodes, buf, n, c.want, c.n)
		}
	}
}

// TestRequestText: amounts print as sim.Amount.String does, in the
// trace's order.
func TestRequestText(t *testing.T) {
	req := []sim.Quantity{
		{Resource: "cpu", Amount: sim.Units(4)}, {Resource: "mem", Amount: sim.Units(2048)},
		{Resource: "gpu", Amount: 500}, {Resource: "x", Amount: 1}, {Resource: "y", Amount: 1230}, {Resource: "z", Amount: -2500},
	}
	if got, want := string(appendRequest(nil, req)), "cpu=4,mem=2048,gpu=0.5,x=0.001,y=1.23,z=-2.5"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, a := range []sim.Amount{0, 1, 10, 999, 1000, 1001, 123456789, -7} {
		if got := string(appendAmount(nil, a)); got != a.String() {
			t.Errorf("appendAmount(%d) = %q, String %q", a, got, a.String())
		}
	}
	if got := appendRequest(nil, nil); len(got) != 0 {
		t.Errorf("no request: %q", got)
	}
}
