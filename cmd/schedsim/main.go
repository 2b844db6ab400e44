package main

import (
	"fmt"
	"os"
	_ "time/tzdata" // zone names in run specs work without the host's zone files

	"github.com/spf13/cobra"

	// Before Starlark's initialization and after it: no 4 GiB reservation
	// under ulimit -v (see the package).
	_ "github.com/schedsim/schedsim/cmd/schedsim/internal/addrspace/after"
	"github.com/schedsim/schedsim/sim/run"
)

func main() {
	err := newRootCommand().Execute()
	if err != nil {
		// Errors quote ids and names from the input: escaped.
		fmt.Fprintln(os.Stderr, "schedsim:", run.Escape(err.Error()))
	}
	os.Exit(run.ExitCode(err))
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "schedsim",
		Short:         "Trace-replay scheduling simulator",
		Long:          "schedsim replays captured workload traces against placement and queue policies under a virtual clock,\nand records utilization, wait, slowdown, fairness and energy as Parquet, Arrow IPC or CSV tables.",
		Version:       run.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("schedsim {{.Version}}\n")
	root.AddCommand(newReplayCommand(), newBenchCommand(), newPoliciesCommand())
	root.AddCommand(newOpenbCommand())
	root.AddCommand(newReportCommand())
	root.AddCommand(newConvertCommand(), newExportCommand())
	root.AddCommand(newSweepCommand(), newMergeCommand())
	root.AddCommand(newCompareCommand())
	root.AddCommand(newTuneCommand(), newAvailabilityCommand(), newCalibrateCommand())
	root.AddCommand(newGenCommand(), newInspectCommand())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return run.BadInput(suggestFlag(c, plainFlagError(err))) })
	return root
}
