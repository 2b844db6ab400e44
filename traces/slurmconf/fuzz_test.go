package slurmconf

import (
	"errors"
	"os"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// FuzzSlurmConf: whatever the bytes, Parse never panics; it returns nodes
// that compile into a cluster, or errors that each name the file.
func FuzzSlurmConf(f *testing.F) {
	for _, name := range []string{"testdata/slurm.conf", "testdata/scontrol-nodes.txt", "testdata/scontrol-partitions.txt", "testdata/bad.conf"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("NodeName=DEFAULT CPUs=2\nNodeName=a[1-2] Gres=gpu:2\nPartitionName=p Nodes=ALL Default=YES\n"))
	f.Add([]byte("NodeName=x[1-3]y[01-02] \\\n RealMemory=10 # c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.conf", data)
		if err != nil {
			var pe *traces.ParseError
			if !errors.As(err, &pe) || pe.File != "fuzz.conf" {
				t.Fatalf("error without a location: %v", err)
			}
			return
		}
		if _, err := sim.NewCluster(c.Nodes); err != nil {
			t.Fatalf("nodes do not compile: %v", err)
		}
		for _, p := range c.Partitions {
			if p.MaxTime < sim.NoWalltime || p.DefaultTime < sim.NoWalltime {
				t.Fatalf("partition %s: bad limits %v %v", p.Name, p.MaxTime, p.DefaultTime)
			}
		}
	})
}
