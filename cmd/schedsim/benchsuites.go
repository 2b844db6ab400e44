package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/internal/bench"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim/run"
)

// benchPlacement prints placement throughput, measured in process.
func benchPlacement(out io.Writer) error {
	fmt.Fprintln(out, "| cluster | search | placements/s |")
	fmt.Fprintln(out, "|---|---|---:|")
	for _, c := range []struct {
		name  string
		limit placement.Limit
		count int
	}{{"full scan", 0, 3000}, {"candidate limit (auto: 14)", placement.Auto, 100000}} {
		rate, err := placement.Throughput(10000, c.limit, c.count)
		if err != nil {
			return run.Failed(err)
		}
		fmt.Fprintf(out, "| 10,000 nodes, 70%% used | %s | %.0f |\n", c.name, rate)
	}
	return nil
}

// benchOpenb times the openb experiment in child processes.
func benchOpenb(out io.Writer) error {
	self, tmp, err := bench.Scratch("openb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(out, "| openb default trace | runs | wall s | peak MiB |")
	fmt.Fprintln(out, "|---|---:|---:|---:|")
	for _, c := range []struct {
		name string
		runs int
		args []string
	}{
		{"fgd, seed 42", 1, []string{"--policies", "fgd", "--seeds", "42", "--workers", "1"}},
		{"six policies × seeds 42–51", 60, nil},
	} {
		args := append([]string{"openb", "--quiet", "--out", filepath.Join(tmp, "out")}, c.args...)
		t, err := bench.Child(nil, nil, self, args...)
		wall, rss := t.Wall, t.RSSMiB
		if err != nil {
			return run.Failed(fmt.Errorf("openb %s: %w", c.name, err))
		}
		fmt.Fprintf(out, "| %s | %d | %.2f | %.0f |\n", c.name, c.runs, wall, rss)
	}
	return nil
}
