package policies

import (
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/swf"
)

// benchLogs yields the name and path of each SWF log in
// ../shared/traces/swf whose name holds $SCHEDSIM_SWF, in name order; it
// skips the benchmark when there is none.
func benchLogs(b *testing.B) iter.Seq2[string, string] {
	logs, _ := filepath.Glob("../../shared/traces/swf/*.swf.gz")
	if len(logs) == 0 {
		b.Skip("no SWF logs in ../../shared/traces/swf")
	}
	return func(yield func(string, string) bool) {
		for _, path := range logs {
			name := strings.TrimSuffix(filepath.Base(path), ".swf.gz")
			if pick := os.Getenv("SCHEDSIM_SWF"); pick != "" && !strings.Contains(name, pick) {
				continue
			}
			if !yield(name, path) {
				return
			}
		}
	}
}

// BenchmarkSWFConservative replays the SWF logs of ../shared/traces/swf in
// the pool model with conservative backfilling, engine and policy only (no
// output files): the part of `schedsim bench` that dominates its total.
// SCHEDSIM_SWF picks logs by a name substring.
func BenchmarkSWFConservative(b *testing.B) {
	for name, path := range benchLogs(b) {
		b.Run(name, func(b *testing.B) {
			var jobs []*sim.Job
			var nodes []sim.NodeSpec
			r, err := swf.Open(path, swf.Options{Model: swf.Pool})
			if err != nil {
				b.Fatal(err)
			}
			for {
				j, err := r.Next()
				if err != nil {
					break
				}
				jobs = append(jobs, j)
			}
			if nodes, err = r.Header().Cluster(swf.ClusterOptions{Model: swf.Pool}); err != nil {
				b.Fatal(err)
			}
			r.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c, err := sim.NewCluster(nodes)
				if err != nil {
					b.Fatal(err)
				}
				s, _ := NewBatch(Conservative)
				e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true})
				if err := e.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSWFNoOutputs is the floor under `schedsim bench`'s pool model:
// reading each SWF log as a stream and replaying it with each backfill,
// without recording anything (no observer, no files). SCHEDSIM_SWF picks
// logs by a name substring, e.g. SCHEDSIM_SWF=Curie go test -run NONE
// -bench SWFNoOutputs/.*/easy ./policies.
func BenchmarkSWFNoOutputs(b *testing.B) {
	for name, path := range benchLogs(b) {
		for _, bf := range []Backfill{NoBackfill, EASY, Conservative} {
			b.Run(name+"/"+string(bf), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					r, err := swf.Open(path, swf.Options{Model: swf.Pool})
					if err != nil {
						b.Fatal(err)
					}
					nodes, err := r.Header().Cluster(swf.ClusterOptions{Model: swf.Pool})
					if err != nil {
						b.Fatal(err)
					}
					c, err := sim.NewCluster(nodes)
					if err != nil {
						b.Fatal(err)
					}
					s, _ := NewBatch(bf)
					if err := sim.NewEngine(c, r, s, sim.Config{KillAtWalltime: true}).Run(); err != nil {
						b.Fatal(err)
					}
					r.Close()
				}
			})
		}
	}
}
