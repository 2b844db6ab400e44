package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/policies/registry"
)

func newPoliciesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "policies",
		Short: "List queue orders, backfilling, placement strategies and scorers, a line each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printPolicies(cmd.OutOrStdout())
			return nil
		},
	}
}

func printPolicies(out io.Writer) { registry.Print(out) }
