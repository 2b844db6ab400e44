package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
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

func printPolicies(out io.Writer) {
	fmt.Fprintln(out, "Queue orders (--queue):")
	for _, name := range policies.OrderNames() {
		fmt.Fprintf(out, "  %-20s %s\n", name, policies.OrderDoc(name))
	}
	fmt.Fprintln(out, "\nBackfilling (--backfill):")
	for _, b := range []policies.Backfill{policies.NoBackfill, policies.EASY, policies.Conservative} {
		fmt.Fprintf(out, "  %-20s %s\n", b, policies.BackfillDoc(b))
	}
	fmt.Fprintln(out, "\nPlacement strategies (--placement, or placement.strategy in --config):")
	for _, name := range placement.Strategies() {
		fmt.Fprintf(out, "  %-20s %s\n", name, placement.StrategyDoc(name))
	}
	fmt.Fprintln(out, "\nScorers (placement.scorers in --config: {name, weight, …}; each scores in [0, 1], higher is better):")
	for _, name := range placement.ScorerNames() {
		fmt.Fprintf(out, "  %-20s %s\n", name, placement.ScorerDoc(name))
	}
	fmt.Fprintln(out, "\nAlways applied (a job's own constraints): resources, exclusive hosts, offline nodes, node selector,")
	fmt.Fprintln(out, "NoSchedule taints, architecture and member group (LXD), hard Fenzo constraints, aversion groups.")
}
