package metrics

import (
	"slices"
	"testing"
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
