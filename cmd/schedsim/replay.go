package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim/run"
)

func newReplayCommand() *cobra.Command {
	cfg := run.Default()
	var configPath, cpuProfile string
	var overwrite bool
	cmd := &cobra.Command{
		Use:   "replay [TRACE]",
		Short: "Replay one trace on one cluster under one policy",
		Long: `Replay one trace on one cluster under one policy and write a run directory:
jobs, timeseries, nodes and summary tables (Parquet by default), summary.csv and
run.yaml, the run's spec: 'schedsim replay --config RUN/run.yaml' replays it again.

With no trace it replays the embedded KTH-SP2 log (Parallel Workloads Archive)
on the cluster its header describes, with FCFS and EASY backfilling.

` + registry.Help(),
		Args: wantArgs(0, 1, "at most one trace file (none: the embedded KTH-SP2 log)", "schedsim replay TRACE.swf.gz --backfill easy"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if cmd.Flags().Changed("trace") {
					return run.BadInput(errors.New("give the trace as an argument or with --trace, not both"))
				}
				cfg.Trace = args[0]
			}
			if configPath != "" {
				merged, err := withConfig(cmd, configPath)
				if err != nil {
					return err
				}
				if len(args) == 1 {
					merged.Trace = args[0]
				}
				cfg = merged
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return run.Failed(err)
				}
				defer stop()
			}
			ctx, stop := interruptible()
			defer stop()
			_, err := run.Replay(ctx, &cfg, run.Options{Overwrite: overwrite, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()})
			return err
		},
	}
	cfg.BindFlags(cmd.Flags())
	cmd.Flags().StringVar(&configPath, "config", "", "run spec YAML (a run's run.yaml, or the flags' keys with '_' for '-'); flags given too win")
	cmd.Flags().BoolVar(&overwrite, "overwrite", false, "replace the earlier run in --out (only once the new run is complete)")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a Go CPU profile of the run to this file")
	cmd.Flags().MarkHidden("cpuprofile")
	return cmd
}

// withConfig loads a spec file and applies the flags given on the command
// line over it.
func withConfig(cmd *cobra.Command, path string) (run.Spec, error) {
	fileCfg, loadErr := run.Load(path)
	var pathErr *fs.PathError
	if errors.As(loadErr, &pathErr) { // no file to read

		return fileCfg, run.BadInput(loadErr)
	}
	over := pflag.NewFlagSet("config", pflag.ContinueOnError)
	fileCfg.BindFlags(over)
	var setErr error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if over.Lookup(f.Name) == nil {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			setErr = errors.Join(setErr, over.Lookup(f.Name).Value.(pflag.SliceValue).Replace(sv.GetSlice()))
			return
		}
		setErr = errors.Join(setErr, over.Set(f.Name, f.Value.String()))
	})
	if setErr != nil {
		return fileCfg, run.BadInput(errors.Join(loadErr, setErr))
	}
	if loadErr != nil {
		// The values that did decode are checked too, so one bad value
		// does not hide the others; every problem in line order.
		return fileCfg, run.BadInput(run.InLineOrder(errors.Join(loadErr, fileCfg.Validate())))
	}
	return fileCfg, nil
}

// interruptible is a context cancelled at the first SIGINT or SIGTERM; a
// second one exits at once (one scheduling pass can be long; temporary
// files may remain, never under a final name).
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-signals; ok {
			cancel()
		}
		if _, ok := <-signals; ok {
			os.Exit(run.ExitFailed)
		}
	}()
	return ctx, func() { signal.Stop(signals); close(signals); cancel() }
}

// startCPUProfile is the developer flag --cpuprofile.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
