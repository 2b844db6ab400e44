package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/internal/bench"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

// googleBench is `schedsim bench --suite google`: a Google-2011-like trace
// from `schedsim gen` (Parquet, the cluster in its metadata) replayed with
// least-allocated placement and the automatic candidate limit, each step
// a child process so that its wall time and peak memory are its own.
type googleBench struct {
	jobs, machines int
}

// addGoogleBenchFlags registers the suite's flags on the bench command.
func addGoogleBenchFlags(fs *pflag.FlagSet) *googleBench {
	b := &googleBench{}
	fs.IntVar(&b.jobs, "tasks", 10_000_000, "--suite google: tasks (single-task jobs) to generate and replay")
	fs.IntVar(&b.machines, "machines", 12_500, "--suite google: machines of the cluster")
	return b
}

// run generates the trace once and replays it once per backfill
// discipline ("" for replay's default), printing a Markdown table: wall
// time, tasks/s and peak memory (the child's max RSS) of each step.
func (b *googleBench) run(out io.Writer, backfills []string) error {
	self, tmp, err := bench.Scratch("google")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	trace, cluster := filepath.Join(tmp, "google.parquet"), filepath.Join(tmp, "cluster.yaml")
	fmt.Fprintln(out, "| step | tasks | machines | wall s | CPU s | tasks/s | peak MiB |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|")
	t, err := bench.Child(nil, os.Stderr, self, "gen", "--quiet", "--model", "google", "--seed", "1",
		"--jobs", strconv.Itoa(b.jobs), "--nodes", strconv.Itoa(b.machines), "--out", trace, "--cluster-out", cluster)
	if err != nil {
		return run.Failed(fmt.Errorf("gen: %w", err))
	}
	fmt.Fprintf(out, "| gen --model google (Parquet) | %d | %d | %.2f | %.2f | %.0f | %.0f |\n", b.jobs, b.machines, t.Wall, t.CPU, float64(b.jobs)/t.Wall, t.RSSMiB)
	for _, bf := range backfills {
		runDir := filepath.Join(tmp, "run")
		args := []string{"replay", "--quiet", "--trace", trace, "--cluster", cluster,
			"--placement", "least-allocated", "--candidate-limit", "auto", "--format", "parquet", "--out", runDir}
		name := "replay least-allocated, limit auto"
		if bf != "" {
			args = append(args, "--backfill", bf)
			name += ", backfill " + bf
		}
		t, err := bench.Child(nil, os.Stderr, self, args...)
		if err != nil {
			return run.Failed(fmt.Errorf("%s: %w", name, err))
		}
		row, err := metrics.ReadRunSummary(runDir)
		if err != nil {
			return run.Failed(err)
		}
		jobs := row.Float(metrics.ColJobs)
		fmt.Fprintf(out, "| %s | %.0f | %d | %.2f | %.2f | %.0f | %.0f |\n", name, jobs, b.machines, t.Wall, t.CPU, jobs/t.Wall, t.RSSMiB)
		os.RemoveAll(runDir)
	}
	fmt.Fprintln(out, "\ngoal: the replay of 10,000,000 tasks on 12,500 machines within 20 s and 1 GiB")
	fmt.Fprintf(out, "CPU s is the child's user + system time; the load average was %s when the suite ended (above 2,\n", bench.LoadAverage())
	fmt.Fprintln(out, "other work shared the cores and the wall time counts waiting for them).")
	return nil
}

// googleBackfills is the list of disciplines the suite replays with: the
// --backfill list when given, else replay's default alone.
func googleBackfills(list string, given bool) []string {
	if !given {
		return []string{""}
	}
	return strings.Split(list, ",")
}
