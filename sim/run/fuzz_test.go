package run

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzSpec feeds the run-spec reader (--config files and run.yaml)
// arbitrary YAML, from a sweep run's run.yaml and the Lattice configs: it
// never panics, and a spec it reads validates without panicking.
//
//	go test -run X -fuzz FuzzSpec ./sim/run
func FuzzSpec(f *testing.F) {
	root := filepath.Join("..", "..", "testdata")
	seeds, _ := filepath.Glob(filepath.Join(root, "sweeps", "weights", "runs", "*", "run.yaml"))
	more, _ := filepath.Glob(filepath.Join(root, "lattice", "*.yaml"))
	for _, p := range append(seeds[:min(len(seeds), 1)], more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("queue: fcfs\nbackfill: easy\nscript: {path: x.star, time_budget_ms: 5}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Default()
		if err := c.decode("spec.yaml", data); err != nil {
			return
		}
		_ = c.Validate()
	})
}
