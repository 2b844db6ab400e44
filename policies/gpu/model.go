package gpu

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// MilliPerGPU is the capacity of one GPU in milli-GPU.
const MilliPerGPU = 1000

// MaxGPUs is the most GPUs a node may hold (openb nodes hold at most 8).
const MaxGPUs = 32

// ModelSet is a set of GPU models, as catalog ids. The zero value allows
// every model; a set built from names no node has allows none.
type ModelSet uint64

// AnyModel allows every model.
const AnyModel ModelSet = 0

// constrained marks a non-empty constraint, so that a set naming only
// unknown models is not AnyModel.
const constrained ModelSet = 1 << 63

// maxModels is how many distinct models a catalog holds.
const maxModels = 63

// Allows tells whether a node of model id may host a task with this set.
func (s ModelSet) Allows(id int) bool {
	return s == AnyModel || (id >= 0 && s&(1<<uint(id)) != 0)
}

// Catalog numbers GPU model names.
type Catalog struct {
	names []string
	ids   map[string]int
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog { return &Catalog{ids: map[string]int{}} }

// add returns name's id, numbering it if new.
func (c *Catalog) add(name string) (int, error) {
	if id, ok := c.ids[name]; ok {
		return id, nil
	}
	if len(c.names) == maxModels {
		return -1, fmt.Errorf("more than %d GPU models", maxModels)
	}
	c.ids[name] = len(c.names)
	c.names = append(c.names, name)
	return len(c.names) - 1, nil
}

// Name returns the model of id.
func (c *Catalog) Name(id int) string {
	if id < 0 || id >= len(c.names) {
		return ""
	}
	return c.names[id]
}

// Set builds the set allowing the named models; nil or empty allows any.
// Names no node has are dropped, so a list of only those allows none.
func (c *Catalog) Set(names []string) ModelSet {
	if len(names) == 0 {
		return AnyModel
	}
	s := constrained
	for _, n := range names {
		if id, ok := c.ids[n]; ok {
			s |= 1 << uint(id)
		}
	}
	return s
}

// Names lists the models a set allows ("*" for any).
func (c *Catalog) Names(s ModelSet) string {
	if s == AnyModel {
		return "*"
	}
	var out []string
	for id := range c.names {
		if s.Allows(id) {
			out = append(out, c.names[id])
		}
	}
	return strings.Join(out, "|")
}

// Demand is what one task (an openb pod) asks of a node.
type Demand struct {
	CPU  int64 // milli-CPU
	Mem  int64 // MiB
	GPUs int   // GPUs asked for; 0 for a CPU-only task
	// GPUMilli is the milli-GPU taken on each GPU: 1–999 is a share of
	// one GPU (GPUs is 1), 1000 is GPUs whole GPUs, 0 with GPUs == 0.
	GPUMilli int32
	Models   ModelSet // GPU models allowed; ignored for CPU-only tasks
}

// Share tells whether d asks for a share of one GPU.
func (d Demand) Share() bool { return d.GPUs == 1 && d.GPUMilli < MilliPerGPU }

// TotalGPUMilli is the GPU d asks for in milli.
func (d Demand) TotalGPUMilli() int64 { return int64(d.GPUs) * int64(d.GPUMilli) }

// Validate checks the shape rules above.
func (d Demand) Validate() error {
	switch {
	case d.CPU < 0 || d.Mem < 0:
		return errors.New("negative CPU or memory")
	case d.GPUs < 0 || d.GPUs > MaxGPUs:
		return fmt.Errorf("%d GPUs: need 0–%d", d.GPUs, MaxGPUs)
	case d.GPUs == 0 && d.GPUMilli != 0:
		return fmt.Errorf("%d milli-GPU without GPUs", d.GPUMilli)
	case d.GPUs > 0 && (d.GPUMilli <= 0 || d.GPUMilli > MilliPerGPU):
		return fmt.Errorf("%d milli-GPU per GPU: need 1–%d", d.GPUMilli, MilliPerGPU)
	case d.GPUs > 1 && d.GPUMilli != MilliPerGPU:
		return fmt.Errorf("a share of %d GPUs: shares are of one GPU", d.GPUs)
	}
	return nil
}

// kind is the GPU-clustering affinity of a GPU task: 0 for a share, k for
// k whole GPUs.
func (d Demand) kind() int {
	if d.Share() {
		return 0
	}
	return d.GPUs
}

// GPUSet is a set of GPU indices on one node.
type GPUSet uint32

// Has tells whether GPU i is in the set.
func (g GPUSet) Has(i int) bool { return g&(1<<uint(i)) != 0 }

// Len is the number of GPUs in the set.
func (g GPUSet) Len() int { return bits.OnesCount32(uint32(g)) }

// Indices lists the GPUs in increasing order.
func (g GPUSet) Indices() []int {
	var out []int
	for i := 0; i < MaxGPUs; i++ {
		if g.Has(i) {
			out = append(out, i)
		}
	}
	return out
}
