package registry

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/traces/formats"
)

// Print lists everything the registry holds, a line each, for `schedsim
// policies`.
func Print(out io.Writer) {
	fmt.Fprintln(out, "Queue orders (--queue):")
	for _, o := range orders {
		fmt.Fprintf(out, "  %-20s %s\n", o.Name, o.Doc)
	}
	fmt.Fprintln(out, "\nBackfilling (--backfill):")
	for _, b := range Backfills() {
		fmt.Fprintf(out, "  %-20s %s\n", b.Kind, b.Doc)
	}
	fmt.Fprintln(out, "\nPlacement strategies (--placement, or placement.strategy in --config):")
	for _, name := range placement.Strategies() {
		fmt.Fprintf(out, "  %-20s %s\n", name, placement.StrategyDoc(name))
	}
	fmt.Fprintln(out, "\nScorers (placement.scorers in --config: {name, weight, …}; each scores in [0, 1], higher is better):")
	for _, name := range placement.ScorerNames() {
		fmt.Fprintf(out, "  %-20s %s\n", name, placement.ScorerDoc(name))
	}
	fmt.Fprintln(out, "\nTrace formats (--trace-format; told by name or content when not given):")
	for _, f := range formats.All() {
		fmt.Fprintf(out, "  %-20s %s\n", f.Name, f.Doc)
	}
	fmt.Fprintln(out, "\nAlways applied (a job's own constraints): resources, exclusive hosts, offline nodes, node selector,")
	fmt.Fprintln(out, "NoSchedule taints, architecture and member group (LXD), hard Fenzo constraints, aversion groups.")
}

// Help is the short list of queue orders and backfills for --help.
func Help() string {
	var b strings.Builder
	b.WriteString("  queue orders (--queue):\n")
	for _, o := range orders {
		fmt.Fprintf(&b, "    %-13s %s\n", o.Name, o.Doc)
	}
	b.WriteString("  backfilling (--backfill):\n")
	for _, bf := range Backfills() {
		fmt.Fprintf(&b, "    %-13s %s\n", bf.Kind, bf.Doc)
	}
	b.WriteString("  placement strategies: 'schedsim policies'")
	return b.String()
}
