package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// Exit statuses (SPEC §7.1).
const (
	exitOK       = 0
	exitFailed   = 1 // a run failed
	exitBadInput = 2 // bad usage or bad input
)

// exitError carries an exit status with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func badInput(err error) error { return &exitError{exitBadInput, err} }
func failed(err error) error   { return &exitError{exitFailed, err} }

func main() {
	err := newRootCommand().Execute()
	if err == nil {
		os.Exit(exitOK)
	}
	fmt.Fprintln(os.Stderr, "schedsim:", err)
	var ee *exitError
	if errors.As(err, &ee) {
		os.Exit(ee.code)
	}
	// Unknown commands and flags from cobra are usage errors.
	os.Exit(exitBadInput)
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "schedsim",
		Short:         "Trace-replay scheduling simulator",
		Long:          "schedsim replays captured workload traces against placement and queue policies under a virtual clock,\nand records utilization, wait, slowdown, fairness and energy as Parquet, Arrow IPC or CSV tables.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newReplayCommand(), newBenchCommand(), newPoliciesCommand())
	root.AddCommand(newOpenbCommand())
	root.AddCommand(newReportCommand())
	root.AddCommand(newConvertCommand())
	root.AddCommand(newSweepCommand(), newMergeCommand())
	root.AddCommand(newCompareCommand())
	root.AddCommand(newTuneCommand())
	root.AddCommand(newGenCommand(), newInspectCommand())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return badInput(err) })
	return root
}
