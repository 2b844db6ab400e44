package experiment

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the experiment reader arbitrary YAML, from the sample
// experiments: it never panics, and an experiment it accepts plans its
// runs (under a small --max-runs) without panicking either, each run
// with a key.
//
//	go test -run X -fuzz FuzzParse ./sim/experiment
func FuzzParse(f *testing.F) {
	for _, p := range []string{"experiments/kth-lattice.yaml", "sweeps/weights.yaml"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("seeds: 3\ntraces: [{name: t, path: t.swf}]\npolicies: {queue: [fcfs], backfill: [easy, none]}\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, filepath.Join(dir, "experiment.yaml"))
		if err != nil {
			return
		}
		s.MaxRuns = 1000
		runs, err := s.Runs()
		if err != nil {
			return
		}
		for _, r := range runs {
			if r.Key == "" {
				t.Fatalf("a run without a key: %+v", r)
			}
		}
	})
}
