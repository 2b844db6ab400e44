package slurmconf

import (
	"github.com/schedsim/schedsim/sim"
)

// Cluster is what a slurm.conf (or scontrol's output) says about the
// machine: its nodes, ready for sim.NewCluster, and its partitions.
type Cluster struct {
	File  string
	Nodes []sim.NodeSpec
	// Partitions in file order: those of PartitionName lines, then those
	// only named by scontrol's Partitions= of a node.
	Partitions []Partition
	// Default is the partition with Default=YES ("" for none): where a job
	// that names no partition goes.
	Default string
}

// Partition is one partition (PartitionName=…).
type Partition struct {
	Name  string
	Nodes []string // node names, in the order of Nodes=
	// MaxTime is the partition's time limit; sim.NoWalltime when it is
	// UNLIMITED or not given.
	MaxTime sim.Time
	// DefaultTime is the limit of a job that sets none; sim.NoWalltime
	// when not given (MaxTime applies then).
	DefaultTime sim.Time
	Line        int // of its PartitionName line; 0 when only scontrol's node lines name it
}

// Names of what the package puts on nodes.
const (
	// PartitionPrefix begins the tag resource marking a node's membership
	// of a partition: "partition:batch" with amount 0 (a tag). A job
	// requesting 0 of it fits only the partition's nodes, under every
	// placement and backfilling, since a task fits only nodes defining
	// every resource it lists.
	PartitionPrefix = "partition:"
	// AttrPartitions lists a node's partitions, comma-separated.
	AttrPartitions = "partitions"
	// AttrFeatures lists a node's features as written, comma-separated;
	// each feature f is also the attribute FeaturePrefix+f = "yes", for
	// node selectors and host-attribute constraints.
	AttrFeatures  = "features"
	FeaturePrefix = "feature."
	// AttrGPUModel is the GPU type of Gres=gpu:TYPE:N (several joined by
	// commas), the attribute the GPU placement policies read.
	AttrGPUModel = "gpu_model"
	// AttrWeight is the node's Slurm Weight (lower is allocated first).
	AttrWeight = "weight"
	// AttrGres is the node's Gres= value as written (other generic
	// resources than GPUs are kept only there).
	AttrGres = "gres"
	// AttrArch is scontrol's Arch=.
	AttrArch = "arch"
)

// PartitionResource is the tag resource of partition p.
func PartitionResource(p string) string { return PartitionPrefix + p }

// TimeLimits maps each partition to the limit of a job that set none
// (sacct's Timelimit Partition_Limit): its DefaultTime, else its MaxTime;
// partitions with neither are left out.
func (c *Cluster) TimeLimits() map[string]sim.Time {
	out := map[string]sim.Time{}
	for _, p := range c.Partitions {
		switch {
		case p.DefaultTime >= 0:
			out[p.Name] = p.DefaultTime
		case p.MaxTime >= 0:
			out[p.Name] = p.MaxTime
		}
	}
	return out
}
