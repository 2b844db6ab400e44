package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/policies/gpu"
	"github.com/schedsim/schedsim/sim/fgd"
	"github.com/schedsim/schedsim/sim/run"
)

// openbOptions are the flags of `schedsim openb`.
type openbOptions struct {
	nodes, pods string
	policies    []string
	seeds       string
	out         string
	workers     int
	quiet       bool
	ties        string
	inflation   float64
	step        float64
	popularity  float64
}

// newOpenbCommand runs the FGD paper's experiment on the openb traces.
func newOpenbCommand() *cobra.Command {
	o := openbOptions{
		nodes:      filepath.Join("..", "shared", "traces", "openb", "openb_node_list_gpu_node.csv"),
		pods:       filepath.Join("..", "shared", "traces", "openb", "openb_pod_list_default.csv"),
		policies:   gpu.Names,
		seeds:      "42-51",
		workers:    runtime.NumCPU(),
		ties:       "lowest",
		inflation:  1.3,
		step:       1,
		popularity: gpu.DefaultPopularity,
	}
	var doc strings.Builder
	for _, n := range gpu.Names {
		fmt.Fprintf(&doc, "  %-15s %s\n", n, gpu.Doc(n))
	}
	cmd := &cobra.Command{
		Use:   "openb",
		Short: "Run the FGD paper's experiment: openb pods arrive until 130% of GPU capacity, per policy and seed",
		Long: `Run the experiment of Weng et al., "Beware of Fragmentation" (USENIX ATC'23) on an openb
node list and pod list: for each policy and seed the pod list is shuffled and inflated by sampling
with replacement until the GPU requested reaches --inflation times the cluster's GPU capacity; pods
arrive one by one and never leave. It prints the GPU allocation ratio at 100% and 130% arrived
(mean ± sd over seeds) and writes, atomically, to --out:
  openb_alloc.csv    allocation ratio and fragmentation vs arrived GPU %, every --step %, per policy and seed
  openb_summary.csv  the printed table
Output is the same, byte for byte, for the same inputs and seeds, whatever --workers.

Policies:
` + doc.String(),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.out == "" {
				o.out = defaultOut("openb", o.pods)
			}
			return runOpenb(cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.nodes, "nodes", o.nodes, "openb node list (CSV)")
	f.StringVar(&o.pods, "pods", o.pods, "openb pod list (CSV)")
	f.StringSliceVar(&o.policies, "policies", o.policies, "policies to run, comma-separated")
	f.StringVar(&o.seeds, "seeds", o.seeds, "seeds: a list and ranges, e.g. 42-51 or 1,5,7-9")
	f.StringVar(&o.out, "out", o.out, "output directory (default runs/openb-<pod list name>)")
	f.IntVar(&o.workers, "workers", o.workers, "runs in parallel (results do not depend on it)")
	f.BoolVar(&o.quiet, "quiet", false, "print nothing but errors")
	f.StringVar(&o.ties, "ties", o.ties, "score ties: lowest (node index) or random (seeded, as Kubernetes)")
	f.Float64Var(&o.inflation, "inflation", o.inflation, "GPU requested to reach, times the cluster's GPU capacity")
	f.Float64Var(&o.step, "step", o.step, "sampling step of arrived GPU, percent of capacity")
	f.Float64Var(&o.popularity, "popularity", o.popularity, "share of pods the fragmentation's task types cover")
	return cmd
}

func runOpenb(stdout io.Writer, o openbOptions) error {
	seeds, err := parseSeeds(o.seeds)
	if err != nil {
		return run.BadInput(err)
	}
	if o.ties != "lowest" && o.ties != "random" {
		return run.BadInput(fmt.Errorf("--ties %q: want lowest or random", o.ties))
	}
	for _, f := range []struct{ flag, path string }{{"--nodes", o.nodes}, {"--pods", o.pods}} {
		if _, err := os.Stat(f.path); err != nil {
			return run.BadInput(fmt.Errorf("%s %s: %v; give the openb node and pod lists (the FGD paper's traces, e.g. openb_node_list_gpu_node.csv and openb_pod_list_default.csv) with --nodes and --pods", f.flag, f.path, errors.Unwrap(err)))
		}
	}
	for _, p := range o.policies {
		if gpu.Doc(p) == "" {
			return run.BadInput(fmt.Errorf("unknown policy %q (known: %s)", p, strings.Join(gpu.Names, ", ")))
		}
	}
	e, err := fgd.Load(fgd.Lists{Nodes: o.nodes, Pods: o.pods, Popularity: o.popularity, Inflation: o.inflation, StepPct: o.step})
	if err != nil {
		return run.BadInput(err)
	}
	e.RandomTies = o.ties == "random"
	e.Check = true
	results, err := e.RunAll(o.policies, seeds, o.workers)
	if err != nil {
		return run.Failed(err)
	}
	rows := fgd.Summarize(o.policies, results)
	if err := fgd.WriteFiles(o.out, results, rows); err != nil {
		return run.Failed(err)
	}
	if !o.quiet {
		fmt.Fprintf(stdout, "openb: %d nodes, %d GPUs, %d pods (%s); %d task types; seeds %s; ties %s\n",
			len(e.Cluster.Nodes), e.Cluster.GPUCapacity()/gpu.MilliPerGPU, len(e.Pods), filepath.Base(o.pods),
			len(e.Cluster.TaskTable().Types), o.seeds, o.ties)
		printOpenbSummary(stdout, rows, 100*o.inflation)
		fmt.Fprintf(stdout, "files in %s\n", o.out)
	}
	return nil
}

// parseSeeds reads "42-51" or "1,5,7-9".
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds %q: bad seed %q", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 64); err != nil || b < a || b-a >= 100000 {
				return nil, fmt.Errorf("--seeds %q: bad range %q", s, part)
			}
		}
		for x := a; ; x++ {
			out = append(out, x)
			if x == b {
				break
			}
		}
	}
	return out, nil
}

func printOpenbSummary(w io.Writer, rows []fgd.Row, end float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "policy\truns\tGPU alloc %% at 100%% arrived\tat %g%% arrived\tfrag %% of free at %g%%\t\n", end, end)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%.2f ± %.2f\t%.2f ± %.2f\t%.1f\t\n", r.Policy, r.Runs, r.At100, r.SD100, r.AtEnd, r.SDEnd, r.FragEnd)
	}
	tw.Flush()
}
