package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"

	"github.com/schedsim/schedsim/internal/bench"
	"github.com/schedsim/schedsim/sim/run"
)

// Sizes of the sweep benchmark: 200 runs on the first 20,000 jobs of an
// SWF log (2 backfills × 10 values of τ × 10 seeds).
const (
	benchSweepJobs = 20000
	benchSweepRuns = 200
)

// benchSweep times a 200-run sweep in a child process with 1 and 2
// workers and prints runs/s and the speed-up. trace is the SWF log whose
// first 20,000 jobs are replayed (default: the first *.swf.gz of dir).
func benchSweep(out io.Writer, args []string, dir string) error {
	trace := ""
	if len(args) > 0 {
		trace = args[0]
	} else {
		logs, _ := filepath.Glob(filepath.Join(dir, "*.swf.gz"))
		sort.Strings(logs)
		if len(logs) == 0 {
			return run.BadInput(fmt.Errorf("no SWF logs in %s; give one: schedsim bench --suite sweep LOG.swf.gz", dir))
		}
		trace = logs[0]
	}
	self, tmp, err := bench.Scratch("sweep")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	head := filepath.Join(tmp, "head.swf")
	jobs, err := bench.WriteSWFHead(trace, head, benchSweepJobs)
	if err != nil {
		return run.BadInput(err)
	}
	spec := filepath.Join(tmp, "experiment.yaml")
	text := fmt.Sprintf(`seed: 1
seeds: 10
traces: [{name: head, path: %s}]
policies: {backfill: [none, easy]}
parameters:
  ranges: [{name: bsld_tau_s, min: 10, max: 100, steps: 10}]
`, head)
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		return run.Failed(err)
	}
	fmt.Fprintf(out, "%d runs (2 backfills × 10 τ × 10 seeds) on the first %d jobs of %s\n\n", benchSweepRuns, jobs, filepath.Base(trace))
	// --workers N keeps the sweep on N cores (coresForWorkers); the last
	// case lifts that cap with GOMAXPROCS, to show what one worker does
	// with every core free.
	cores := runtime.NumCPU()
	type benchCase struct {
		label   string
		workers int
		env     string // GOMAXPROCS for the child; "" unsets it
	}
	cases := []benchCase{{"1", 1, ""}, {"2", 2, ""}, {fmt.Sprintf("1, GOMAXPROCS=%d", cores), 1, strconv.Itoa(cores)}}
	type result struct {
		wall, cpu, rss float64
		load           string
	}
	best := make([]result, len(cases))
	var summaries [][]byte
	// Each case runs twice, alternating, and keeps its faster run: on a
	// shared machine, a burst of other work hits one run, not all.
	for round := range 2 {
		for i, c := range cases {
			sweepDir := filepath.Join(tmp, fmt.Sprintf("sweep-%d-%d", round, i))
			load := bench.LoadAverage()
			env := bench.WithoutEnv(os.Environ(), "GOMAXPROCS")
			if c.env != "" {
				env = append(env, "GOMAXPROCS="+c.env)
			}
			t, err := bench.Child(env, os.Stderr, self, "sweep", spec, "--out", sweepDir, "--workers", strconv.Itoa(c.workers), "--quiet")
			if err != nil {
				return run.Failed(fmt.Errorf("sweep, %s workers: %w", c.label, err))
			}
			if b := best[i]; b.wall == 0 || t.Wall < b.wall {
				best[i] = result{t.Wall, t.CPU, t.RSSMiB, load}
			}
			if round == 0 {
				s, err := os.ReadFile(filepath.Join(sweepDir, "summary.csv"))
				if err != nil {
					return run.Failed(err)
				}
				summaries = append(summaries, s)
			}
		}
	}
	fmt.Fprintln(out, "| workers | runs | wall s | runs/s | speed-up | CPU s | cores busy | load before | peak MiB |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, c := range cases {
		r := best[i]
		fmt.Fprintf(out, "| %s | %d | %.2f | %.2f | %.2f× | %.1f | %.2f | %s | %.0f |\n", c.label, benchSweepRuns, r.wall,
			benchSweepRuns/r.wall, best[0].wall/r.wall, r.cpu, r.cpu/r.wall, r.load, r.rss)
	}
	for i := 1; i < len(summaries); i++ {
		if !bytes.Equal(summaries[0], summaries[i]) {
			return run.Failed(fmt.Errorf("the summaries of %s and %s workers differ", cases[0].label, cases[i].label))
		}
	}
	fmt.Fprintf(out, "\nBest of 2 runs each; summary.csv identical in every case. Speed-up is against 1 worker on 1 core;\n")
	fmt.Fprintf(out, "against 1 worker free to use all %d cores it is %.2f×. CPU s is the sweep's user + system time; load is the\n",
		cores, best[2].wall/best[1].wall)
	fmt.Fprintln(out, "1-minute load average when it started (above the cores, other work shares them). The sweep directories")
	fmt.Fprintln(out, "are removed at the end, not between runs: on ext4, creating files just after deleting many is slower.")
	return nil
}
