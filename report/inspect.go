package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/slurmconf"

	"github.com/schedsim/schedsim/internal/words"
)

// TraceInfo is what `schedsim inspect` knows of a trace besides its jobs.
type TraceInfo struct {
	Name   string // the trace file
	Format string // swf, native, …
	// Skips are the records that yielded no job, by reason: bad records
	// skipped (lenient mode), and sound ones that stand for no run (a
	// sacct dump's pending jobs and job steps).
	Skips traces.Skips
	// Cluster describes where Capacity comes from; empty for no cluster.
	Cluster string
	Nodes   int
	// Capacity is the cluster's total of each resource (leaf nodes,
	// positive amounts), in cluster order; nil for no cluster.
	Capacity []sim.Quantity
}

// inspectQuantiles are the columns of the distribution table.
var inspectQuantiles = []struct {
	name string
	p    float64
}{{"min", 0}, {"p10", 0.1}, {"p25", 0.25}, {"p50", 0.5}, {"p75", 0.75}, {"p90", 0.9}, {"p99", 0.99}, {"max", 1}}

// WriteInspectText writes the text summary of a trace: counts, the
// arrival span and rate, the daily profile, size classes, the
// distribution table (type-7 quantiles) and the offered load per
// resource of the cluster. Numbers are rounded to three decimals, so the
// same trace gives the same text.
func WriteInspectText(w io.Writer, s *TraceStats, info TraceInfo) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("trace         %s (%s)\n", info.Name, info.Format)
	if info.Cluster != "" {
		p("cluster       %s: %s;%s\n", info.Cluster, words.Count(info.Nodes, "node"), capacityText(info.Capacity))
	} else {
		p("cluster       none (give --cluster for the offered load)\n")
	}
	p("jobs          %d%s\n", s.Jobs, skipText(info.Skips))
	if s.Jobs == 0 {
		return bw.Flush()
	}
	p("tasks         %d (%s per job)\n", s.Tasks, num(float64(s.Tasks)/float64(s.Jobs)))
	span := s.Span().Seconds()
	p("submit        first %s s, last %s s: span %s s (%s days)\n", num(s.First.Seconds()), num(s.Last.Seconds()), num(span), num(span/86400))
	if first, ok := s.At(s.First); ok {
		last, _ := s.At(s.Last)
		p("calendar      first submit %s, last %s (%s)\n", first.Format("Mon 2006-01-02 15:04:05 MST"),
			last.Format("Mon 2006-01-02 15:04:05 MST"), zoneName(s.Loc))
	}
	p("last end      %s s (latest submit + runtime)\n", num(s.LastEnd.Seconds()))
	if span > 0 {
		i, peak := s.Arrivals.Peak()
		binH := s.Arrivals.Width.Seconds() / 3600
		p("arrival rate  %s jobs/h on average; busiest %s h bin: %s (%s jobs/h), from %s s\n",
			num(float64(s.Jobs-1)/(span/3600)), num(binH), words.Count(int(peak), "job"), num(float64(peak)/binH),
			num(s.First.Seconds()+float64(i)*s.Arrivals.Width.Seconds()))
	}
	if s.Epoch != nil {
		p("hour of day   %% of jobs by the local hour of their submit (%s):\n", zoneName(s.Loc))
	} else {
		p("hour of day   %% of jobs by the hour of submit_s (no calendar: hour 0 starts at time 0, mod 24 h):\n")
	}
	for h0 := 0; h0 < 24; h0 += 6 {
		p("              %02d–%02d h", h0, h0+5)
		for h := h0; h < h0+6; h++ {
			p(" %6s", pct(s.HourOfDay[h], s.Jobs))
		}
		p("\n")
	}
	if s.Epoch != nil {
		p("day of week   %% of jobs by the local day of their submit:\n              ")
		for d, name := range weekdays {
			p(" %s %s", name, pct(s.DayOfWeek[d], s.Jobs))
		}
		p("\n")
	}
	p("sizes         1 task: %s %%, power of two (2, 4, 8, …): %s %%, other: %s %%\n",
		pct(s.Serial, s.Jobs), pct(s.Pow2, s.Jobs), pct(s.Jobs-s.Serial-s.Pow2, s.Jobs))
	p("walltime      given by %s (%s %%)\n", words.Count(int(s.WalltimeKnown), "job"), pct(s.WalltimeKnown, s.Jobs))
	n, atLeast, top, topJobs := s.Users()
	more := ""
	if atLeast {
		more = " or more"
	}
	p("users         %d%s; most jobs: %q with %d (%s %%)\n", n, more, top, topJobs, pct(topJobs, s.Jobs))
	p("depends_on    %s; placement traits: %s\n", words.Count(int(s.WithDeps), "job"), words.Count(int(s.WithTraits), "job"))
	p("\n")

	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "distribution\t"
	for _, q := range inspectQuantiles {
		header += q.name + "\t"
	}
	fmt.Fprintln(tw, header+"mean\tjobs\t")
	row := func(name string, sm *Sample) {
		line := name + "\t"
		for _, q := range inspectQuantiles {
			line += num(sm.Quantile(q.p)) + "\t"
		}
		mark := ""
		if !sm.Exact() {
			mark = "*"
		}
		mean := math.NaN()
		if sm.Count > 0 {
			mean = sm.Mean()
		}
		fmt.Fprintf(tw, "%s%s\t%d%s\t\n", line, num(mean), sm.Count, mark)
	}
	row("runtime_s", s.Runtime)
	row("walltime_s", s.Walltime)
	row("tasks", s.Size)
	for _, r := range s.Resources {
		if !internalResource(r.Name) {
			row("req_"+r.Name+" per task", r.PerTask)
		}
	}
	tw.Flush()
	if !s.Runtime.Exact() {
		p("* quantiles from a uniform sample of %d jobs; min, max and mean exact\n", sampleCap)
	}

	if len(info.Capacity) > 0 {
		p("\noffered load  Σ tasks · request · runtime ÷ (capacity · span), per resource:\n")
		for _, c := range info.Capacity {
			if internalResource(c.Resource) {
				continue
			}
			load, ok := s.OfferedLoad(c.Resource, c.Amount.Float())
			work := 0.0
			if i, found := s.resIndex[c.Resource]; found {
				work = s.Resources[i].Work
			}
			if !ok {
				p("  %-10s n/a (span or capacity 0)\n", c.Resource)
				continue
			}
			p("  %-10s %s  (%s %s·s requested; %s %s × %s s)\n", c.Resource, num(load), num(work), c.Resource,
				c.Amount, c.Resource, num(span))
		}
	}
	return bw.Flush()
}

// capacityText lists the capacity per resource.
func capacityText(capacity []sim.Quantity) string {
	var b strings.Builder
	first := true
	for _, q := range capacity {
		if internalResource(q.Resource) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, " %s %s", q.Resource, q.Amount)
	}
	return b.String()
}

// num prints x rounded to three decimals, without trailing zeros; "-" for
// NaN (no values).
func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	r := math.Round(x*1000) / 1000
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// pct is part / whole in percent, one decimal.
func pct(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64)
}

// weekdays are the days of the week, Monday first.
var weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// internalResource says whether a resource is schedsim's bookkeeping
// rather than something jobs consume: a Slurm partition's tag
// ("partition:batch", requested at 0 to confine a job to its nodes).
func internalResource(name string) bool {
	return strings.HasPrefix(name, slurmconf.PartitionPrefix)
}

// skipText is what became of the records that gave no job: by reason,
// the most frequent first, for example " (no job from 11 records: 11
// pending at dump time: never started)".
func skipText(sk traces.Skips) string {
	if sk.Total == 0 {
		return ""
	}
	reasons := make([]string, 0, len(sk.ByReason))
	for r := range sk.ByReason {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(a, b int) bool {
		if sk.ByReason[reasons[a]] != sk.ByReason[reasons[b]] {
			return sk.ByReason[reasons[a]] > sk.ByReason[reasons[b]]
		}
		return reasons[a] < reasons[b]
	})
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", sk.ByReason[r], r))
	}
	return fmt.Sprintf(" (no job from %s: %s)", words.Count(sk.Total, "record"), strings.Join(parts, "; "))
}

// LeafCapacity sums each resource's positive amounts over the nodes that
// hold tasks (not parents), in the order resources first appear: the
// Capacity of a TraceInfo.
func LeafCapacity(nodes []sim.NodeSpec) []sim.Quantity {
	parents := map[string]bool{}
	for _, n := range nodes {
		if n.Parent != "" {
			parents[n.Parent] = true
		}
	}
	var total []sim.Quantity
	index := map[string]int{}
	for _, n := range nodes {
		if parents[n.Name] {
			continue
		}
		for _, q := range n.Capacity {
			i, seen := index[q.Resource]
			if !seen {
				i = len(total)
				index[q.Resource] = i
				total = append(total, sim.Quantity{Resource: q.Resource})
			}
			if q.Amount > 0 {
				total[i].Amount += q.Amount
			}
		}
	}
	return total
}
