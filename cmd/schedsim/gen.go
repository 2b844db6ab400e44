package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces/gen"
	"github.com/schedsim/schedsim/traces/native"
)

// genFlags are the options of `schedsim gen`.
type genFlags struct {
	model      string
	jobs       int
	seed       uint64
	nodes      int
	out        string
	clusterOut string
	quiet      bool
	// Poisson model parameters (PoissonDefaults when not given).
	meanGap, runtimeMedian, runtimeSigma float64
	sizes                                string
}

// newGenCommand is `schedsim gen`: a seeded synthetic workload
// written as a native trace, and optionally the cluster it is made for.
func newGenCommand() *cobra.Command {
	def := gen.PoissonDefaults()
	f := genFlags{
		model: "lublin", jobs: 10000, seed: 1,
		meanGap: def.MeanInterarrival, runtimeMedian: def.RuntimeMedian, runtimeSigma: def.RuntimeSigma,
		sizes: formatSizes(def.Sizes),
	}
	cmd := &cobra.Command{
		Use:   "gen --model lublin|poisson|google --jobs N --seed S --out FILE",
		Short: "Generate a seeded synthetic workload as a native trace (Lublin–Feitelson, Poisson, Google-2011-like)",
		Long: `gen writes a synthetic workload as a native trace (Parquet, JSON Lines or CSV, by the extension
of --out; the last two optionally .gz), and with --cluster-out the cluster file it is made for (a
Parquet trace also carries it in its metadata). The same model, options and seed give the same bytes.

Models:
  lublin   the Lublin–Feitelson model of rigid parallel jobs (JPDC 63(11), 2003), published
           parameters: batch and interactive jobs (queue), sizes in nodes, daily arrival cycle;
           --nodes moves the sizes to another machine (default 128, at least 32)
  poisson  Poisson arrivals × log-normal runtimes × categorical sizes (--mean-interarrival,
           --runtime-median, --runtime-sigma, --sizes); default 128 nodes
  google   single-task jobs shaped like the Google cluster data 2011: normalized cpu and memory
           requests, priorities 0–11, users; the trace's machine mix on --nodes machines
           (default 12,500)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.model != "poisson" {
				for _, name := range []string{"mean-interarrival", "runtime-median", "runtime-sigma", "sizes"} {
					if cmd.Flags().Changed(name) {
						return run.BadInput(fmt.Errorf("--%s: only the poisson model takes it", name))
					}
				}
			}
			return runGen(&f, cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.model, "model", f.model, "workload model: "+strings.Join(gen.Models, ", "))
	fs.IntVar(&f.jobs, "jobs", f.jobs, "number of jobs")
	fs.Uint64Var(&f.seed, "seed", f.seed, "random seed: the same seed gives the same trace")
	fs.IntVar(&f.nodes, "nodes", 0, "cluster size the workload is made for (default: lublin and poisson 128 nodes, google 12500 machines)")
	fs.StringVar(&f.out, "out", "", "trace file: .parquet, .jsonl or .csv (the last two optionally .gz; required)")
	fs.StringVar(&f.clusterOut, "cluster-out", "", "also write the matching cluster YAML here")
	fs.BoolVar(&f.quiet, "quiet", false, "print nothing but errors")
	fs.Float64Var(&f.meanGap, "mean-interarrival", f.meanGap, "poisson: mean seconds between arrivals")
	fs.Float64Var(&f.runtimeMedian, "runtime-median", f.runtimeMedian, "poisson: median runtime, seconds")
	fs.Float64Var(&f.runtimeSigma, "runtime-sigma", f.runtimeSigma, "poisson: σ of ln(runtime)")
	fs.StringVar(&f.sizes, "sizes", f.sizes, "poisson: job sizes (tasks) and their weights, SIZE:WEIGHT,…")
	return cmd
}

func runGen(f *genFlags, stdout io.Writer) error {
	if f.out == "" {
		return run.BadInput(errors.New("gen: --out FILE is required"))
	}
	enc, ok := native.EncodingOf(f.out)
	if !ok {
		return run.BadInput(fmt.Errorf("gen: --out %s: want a .parquet, .jsonl, .ndjson or .csv file (the last three optionally .gz)", f.out))
	}
	g, err := newGenerator(f)
	if err != nil {
		return run.BadInput(fmt.Errorf("gen: %w", err))
	}
	if err := metrics.WriteFileAtomic(f.out, func(w io.Writer) error { return g.WriteTrace(w, enc) }); err != nil {
		return run.Failed(fmt.Errorf("gen: %s: %w", f.out, err))
	}
	c := g.Cluster()
	if f.clusterOut != "" {
		if err := metrics.WriteFileAtomic(f.clusterOut, c.WriteYAML); err != nil {
			return run.Failed(fmt.Errorf("gen: %s: %w", f.clusterOut, err))
		}
	}
	if !f.quiet {
		fmt.Fprintf(stdout, "wrote %s (model %s, seed %d, for %s) to %s\n", words.Count(g.Jobs(), "job"), g.Model(), f.seed, words.Count(c.Nodes(), "node"), f.out)
		if f.clusterOut != "" {
			fmt.Fprintf(stdout, "wrote the cluster (%s) to %s\n", c.Name, f.clusterOut)
		}
	}
	return nil
}

// newGenerator makes the generator the flags ask for.
func newGenerator(f *genFlags) (*gen.Generator, error) {
	o := gen.Options{Jobs: f.jobs, Seed: f.seed, Nodes: f.nodes}
	if f.nodes < 0 {
		return nil, fmt.Errorf("--nodes: must be ≥ 1, got %d", f.nodes)
	}
	if f.model != "poisson" {
		return gen.New(f.model, o)
	}
	sizes, err := parseSizes(f.sizes)
	if err != nil {
		return nil, fmt.Errorf("--sizes: %w", err)
	}
	return gen.NewPoisson(gen.PoissonParams{
		MeanInterarrival: f.meanGap,
		RuntimeMedian:    f.runtimeMedian,
		RuntimeSigma:     f.runtimeSigma,
		Sizes:            sizes,
	}, o)
}

// parseSizes reads "1:40,2:15,…" (size in tasks : weight).
func parseSizes(s string) ([]gen.SizeWeight, error) {
	var out []gen.SizeWeight
	for _, item := range strings.Split(s, ",") {
		size, weight, ok := strings.Cut(strings.TrimSpace(item), ":")
		n, err1 := strconv.Atoi(size)
		w, err2 := strconv.ParseFloat(weight, 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("want SIZE:WEIGHT items separated by commas (1:40,2:15), got %q", item)
		}
		out = append(out, gen.SizeWeight{Tasks: n, Weight: w})
	}
	return out, nil
}

func formatSizes(sizes []gen.SizeWeight) string {
	items := make([]string, len(sizes))
	for i, s := range sizes {
		items[i] = fmt.Sprintf("%d:%s", s.Tasks, strconv.FormatFloat(s.Weight, 'f', -1, 64))
	}
	return strings.Join(items, ",")
}
