package openb

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/schedsim/schedsim/traces"
)

// Unknown marks a time the list leaves empty.
const Unknown int64 = -1

// MilliPerGPU is one whole GPU in gpu_milli.
const MilliPerGPU = 1000

// Pod is one line of a pod list.
type Pod struct {
	Name      string
	CPUMilli  int64 // CPU request, thousandths of a core
	MemoryMiB int64 // memory request, MiB
	NumGPU    int   // GPUs asked for; 0 for a CPU-only pod
	// GPUMilli is the thousandths of each GPU: 1–999 is a share of one GPU
	// (NumGPU is then 1), 1000 is NumGPU whole GPUs, 0 is CPU-only.
	GPUMilli int64
	// GPUSpec lists the GPU models the pod may run on, in file order
	// without duplicates; nil means any model.
	GPUSpec []string
	QoS     string
	Phase   string
	// Times in seconds; Unknown when the list leaves them empty.
	Creation, Deletion, Scheduled int64
}

// Share tells whether the pod asks for a share of one GPU.
func (p Pod) Share() bool { return p.NumGPU == 1 && p.GPUMilli < MilliPerGPU }

// TotalGPUMilli is the GPU the pod requests, in milli (a share counts its
// share, whole GPUs count 1000 each).
func (p Pod) TotalGPUMilli() int64 { return int64(p.NumGPU) * p.GPUMilli }

// Pod-list columns.
const (
	colName      = "name"
	colNumGPU    = "num_gpu"
	colGPUMilli  = "gpu_milli"
	colSpec      = "gpu_spec"
	colQoS       = "qos"
	colPhase     = "pod_phase"
	colCreation  = "creation_time"
	colDeletion  = "deletion_time"
	colScheduled = "scheduled_time"
	maxPodGPUs   = 64
)

// ReadPods reads a pod list file.
func ReadPods(path string, opt traces.Options) ([]Pod, traces.Skips, error) {
	f, err := open(path)
	if err != nil {
		return nil, traces.Skips{}, err
	}
	defer f.Close()
	return ParsePods(path, f, opt)
}

// ParsePods reads a pod list; name is used in messages.
func ParsePods(name string, r io.Reader, opt traces.Options) ([]Pod, traces.Skips, error) {
	t, err := newTable(name, r, []string{colName, colCPU, colMem, colNumGPU, colGPUMilli})
	if err != nil {
		return nil, traces.Skips{}, err
	}
	var pods []Pod
	specs := map[string][]string{} // interned: thousands of pods share a few specs
	skips, err := collect(t, opt, func() *traces.ParseError {
		p, pe := parsePod(t, specs)
		if pe != nil {
			return pe
		}
		pods = append(pods, p)
		return nil
	})
	return pods, skips, err
}

func parsePod(t *table, specs map[string][]string) (Pod, *traces.ParseError) {
	var p Pod
	if p.Name = t.str(colName); p.Name == "" {
		return p, t.fail(colName, errors.New("empty"))
	}
	var pe *traces.ParseError
	if p.CPUMilli, pe = t.int(colCPU, 0, maxMilli); pe != nil {
		return p, pe
	}
	if p.MemoryMiB, pe = t.int(colMem, 0, maxMilli); pe != nil {
		return p, pe
	}
	n, pe := t.int(colNumGPU, 0, maxPodGPUs)
	if pe != nil {
		return p, pe
	}
	p.NumGPU = int(n)
	if p.GPUMilli, pe = t.int(colGPUMilli, 0, MilliPerGPU); pe != nil {
		return p, pe
	}
	switch {
	case p.NumGPU == 0 && p.GPUMilli != 0:
		return p, t.fail(colGPUMilli, fmt.Errorf("%d milli of GPU with num_gpu 0", p.GPUMilli))
	case p.NumGPU > 0 && p.GPUMilli == 0:
		return p, t.fail(colGPUMilli, fmt.Errorf("0 milli of GPU with num_gpu %d", p.NumGPU))
	case p.NumGPU > 1 && p.GPUMilli != MilliPerGPU:
		// A share is of one GPU: several GPUs are always whole.
		return p, t.fail(colGPUMilli, fmt.Errorf("a share (%d milli) of %d GPUs; shares are of one GPU", p.GPUMilli, p.NumGPU))
	}
	if s := t.str(colSpec); s != "" {
		spec, ok := specs[s]
		if !ok {
			spec = splitSpec(s)
			specs[s] = spec
		}
		p.GPUSpec = spec
	}
	p.QoS, p.Phase = t.str(colQoS), t.str(colPhase)
	if p.Creation, pe = t.optTime(colCreation); pe != nil {
		return p, pe
	}
	if p.Deletion, pe = t.optTime(colDeletion); pe != nil {
		return p, pe
	}
	if p.Scheduled, pe = t.optTime(colScheduled); pe != nil {
		return p, pe
	}
	return p, nil
}

// splitSpec splits "V100M16|V100M32|V100M32" into distinct models; the
// lists repeat models at times.
func splitSpec(s string) []string {
	var out []string
	for _, m := range strings.Split(s, "|") {
		m = strings.TrimSpace(m)
		if m == "" || contains(out, m) {
			continue
		}
		out = append(out, m)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
