package run

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/swf"

	"github.com/schedsim/schedsim/internal/words"
)

// printSummary prints the run's summary row as a readable table and lists
// the files of the run directory.
func printSummary(out io.Writer, cfg *Spec, w *Workload, c *sim.Cluster, res *Result) error {
	row, skips, dir := res.Summary, res.Skips, res.Dir
	// An empty cell is a statistic over no jobs (no job started, say).
	num := row.Float
	fmt.Fprintf(out, "schedsim replay: %s\n", w.Name)
	if w.format().LocalTimes && cfg.TimeZone == "" {
		fmt.Fprintf(out, "  times:   the %s times were taken as UTC (give --time-zone for the site's zone)\n", w.Format)
	}
	fmt.Fprintf(out, "  cluster: %s — %s\n", clusterTotals(c), w.Cluster)
	if cfg.External() {
		fmt.Fprintf(out, "  policy:  external scheduler %s\n\n", externalLabel(cfg))
	} else {
		fmt.Fprintf(out, "  policy:  queue %s, backfill %s, placement %s\n\n", cfg.Queue, cfg.Backfill, cfg.Placement.String())
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	line := func(name, value string) { fmt.Fprintf(tw, "  %s\t%s\n", name, value) }
	killed := "killed at walltime" // or, with node events, also after --max-restarts restarts
	if num(metrics.ColRestarts) > 0 {
		killed = "killed"
	}
	line("jobs", fmt.Sprintf("%s (completed %s, %s %s, rejected %s, unfinished %s)",
		row.Text(metrics.ColJobs), row.Text(metrics.ColJobsCompleted), killed, row.Text(metrics.ColJobsKilled), row.Text(metrics.ColJobsRejected), row.Text(metrics.ColJobsUnfinished)))
	if skips.Total > 0 {
		line("skipped records", fmt.Sprintf("%s (first: %v; every reason in run.yaml)", grouped(float64(skips.Total)), skips.First))
	}
	line("makespan", duration(num(metrics.ColMakespan)))
	line("wait mean / median", duration(num(metrics.ColMeanWait))+" / "+duration(num(metrics.ColMedianWait)))
	line("wait p95 / max", duration(num(metrics.ColP95Wait))+" / "+duration(num(metrics.ColMaxWait)))
	line("mean slowdown", orNA(num(metrics.ColMeanSlowdown), "%.2f"))
	line("mean bounded slowdown", orNA(num(metrics.ColMeanBSLD), "%.2f")+" (τ = "+duration(cfg.TauS)+")")
	if num(metrics.ColRestarts) > 0 || num(metrics.ColNodeDowntime) > 0 {
		line("node events", fmt.Sprintf("%s, %s of work lost, %s of node downtime",
			count(int64(num(metrics.ColRestarts)), "restart"), duration(num(metrics.ColLostWork)), duration(num(metrics.ColNodeDowntime))))
	}
	line("utilization", orNA(100*num(metrics.ColUtilization), "%.1f %%"))
	line("calibration", calibrationText(cfg, num))
	if c.HasPowerModel() {
		e := energy(num(metrics.ColEnergyJ))
		if swfHeaderCluster(cfg, w) {
			e += " (" + assumedSWFPower + ")"
		}
		line("energy", e)
	} else {
		line("energy", "n/a (the cluster has no power model)")
	}
	if cfg.Price != "" || cfg.Carbon != "" {
		line("energy cost / carbon", orNA(num(metrics.ColEnergyCost), "%.4g")+" / "+orNA(num(metrics.ColCarbonKg), "%.4g kg CO₂"))
	}
	if cfg.PowerDownS >= 0 {
		line("power-down", fmt.Sprintf("%s, %s, %s node time asleep",
			count(int64(num(metrics.ColSwitchOffs)), "switch-off"), count(int64(num(metrics.ColSwitchOns)), "switch-on"),
			duration(num(metrics.ColNodeAsleep))))
	}
	line("simulated in", fmt.Sprintf("%s (%s events/s)", duration(num(metrics.ColWall)), grouped(num(metrics.ColEventsPerWallS))))
	tw.Flush()
	files, err := runFiles(dir)
	if err != nil {
		return Failed(err)
	}
	fmt.Fprintf(out, "\n  files in %s/: %s\n", dir, strings.Join(files, " "))
	return nil
}

// calibrationText is the summary's calibration line: how close the run's
// waits are to the recorded ones, or why that is not known.
func calibrationText(cfg *Spec, num func(string) float64) string {
	if by := cfg.uncalibrated(); by != "" {
		return "n/a (" + by + " changed the jobs' timing: no recorded start applies)"
	}
	compared, jobs := num(metrics.ColCalibJobs), num(metrics.ColJobs)
	switch {
	case compared == 0 || math.IsNaN(compared):
		return "n/a (the trace records no start times)"
	case math.IsNaN(num(metrics.ColCalibWaitKS)):
		return fmt.Sprintf("n/a (only %s of %s jobs have a recorded start to compare: fewer than %.0f %%)",
			grouped(compared), grouped(jobs), 100*metrics.MinCalibrationShare)
	}
	return fmt.Sprintf("wait KS %.3f, mean / p95 wait ÷ recorded %s / %s (%s jobs%s)",
		num(metrics.ColCalibWaitKS), orNA(num(metrics.ColCalibMeanWaitRatio), "%.2f"), orNA(num(metrics.ColCalibP95WaitRatio), "%.2f"), grouped(compared), cfg.calibScope())
}

// calibScope says what the calibration line compared beyond the jobs: the
// resolution waits were rounded to and the window of submits.
func (c *Spec) calibScope() string {
	var s string
	if c.CalibResolutionS > 0 {
		s += fmt.Sprintf(", waits rounded to the recorded resolution, %g s", c.CalibResolutionS)
	}
	if c.CalibFromS > 0 || c.CalibUntilS > 0 {
		until := "the end"
		if c.CalibUntilS > 0 {
			until = fmt.Sprintf("%.0f s", c.CalibUntilS)
		}
		s += fmt.Sprintf(", submitted from %.0f s to %s", c.CalibFromS, until)
	}
	return s
}

// printNotices prints on the error stream what a reader of the outputs
// must know about the input even under --quiet: an SWF machine that the
// nodes model had to reshape, and (under --quiet, where the summary that
// reports them is not printed) the records the reader skipped, in one line.
func printNotices(errOut io.Writer, cfg *Spec, w *Workload, c *sim.Cluster, skips traces.Skips) {
	if cfg.Quiet && skips.Total > 0 {
		fmt.Fprintf(errOut, "schedsim: %s of %s skipped (first: %v); reasons in run.yaml, --strict stops at the first\n",
			count(int64(skips.Total), "record"), w.Name, skips.First)
	}
	if msg := swfReshaped(cfg, w, c); msg != "" {
		fmt.Fprintf(errOut, "schedsim: %s\n", msg)
	}
}

// swfReshaped says when the SWF nodes model's whole processors per node
// (⌈MaxProcs / MaxNodes⌉, or --swf-procs-per-node) give a machine of
// another size than the header's MaxProcs: CEA-Curie's 93,312 processors
// over 5,544 nodes become 5,544 × 17 = 94,248. "" when nothing changed or
// the cluster did not come from an SWF header.
func swfReshaped(cfg *Spec, w *Workload, c *sim.Cluster) string {
	if w.ClusterModel != string(swf.Nodes) {
		return ""
	}
	h, ok := w.Source.(interface{ Header() *swf.Header })
	if !ok {
		return "" // a cached trace: its header is not at hand
	}
	g, err := h.Header().Geometry(cfg.ProcsPerNode)
	if err != nil || g.Nodes*g.ProcsPerNode == g.Procs {
		return ""
	}
	built := g.Nodes * g.ProcsPerNode
	if r, ok := c.ResourceIndex("cpu"); ok {
		built = int(c.TotalCapacity(r).Float())
	}
	diff := built - g.Procs
	more := "more"
	if diff < 0 {
		diff, more = -diff, "fewer"
	}
	how := fmt.Sprintf("⌈%s / %s⌉ = %d processors per node", grouped(float64(g.Procs)), grouped(float64(g.Nodes)), g.ProcsPerNode)
	if cfg.ProcsPerNode > 0 {
		how = fmt.Sprintf("--swf-procs-per-node %d", cfg.ProcsPerNode)
	}
	return fmt.Sprintf("the SWF header's machine is %s processors on %s; the nodes model (%s) replays %s × %d = %s processors, %s %s; "+
		"give --swf-procs-per-node or --cluster for another shape",
		grouped(float64(g.Procs)), count(int64(g.Nodes), "node"), how, grouped(float64(g.Nodes)), g.ProcsPerNode,
		grouped(float64(built)), grouped(float64(diff)), more)
}

// clusterTotals describes the cluster replayed: "1 node, cpu 100",
// "5,544 nodes, cpu 94,248", with the levels of a hierarchy apart.
func clusterTotals(c *sim.Cluster) string {
	leaves, levels := 0, 0
	for n := range c.Nodes {
		if c.IsParent(n) {
			levels++
		} else {
			leaves++
		}
	}
	s := count(int64(leaves), "node")
	if levels > 0 {
		s += " under " + count(int64(levels), "level")
	}
	const shown = 4
	var res []string
	for r, name := range c.Resources {
		if len(res) == shown {
			res = append(res, fmt.Sprintf("%d more resources", len(c.Resources)-shown))
			break
		}
		if t := c.TotalCapacity(r); t > 0 {
			res = append(res, name+" "+grouped(t.Float()))
		}
	}
	if len(res) > 0 {
		s += ", " + strings.Join(res, ", ")
	}
	return s
}

// runFiles lists the files of a run directory: the tables in the order
// they are read (jobs, timeseries, nodes, tenants, summary and
// summary.csv), the other files by name, run.yaml last.
func runFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	order := []string{"jobs", "timeseries", "nodes", "tenants", "summary"}
	rank := func(name string) int {
		switch name {
		case "summary.csv": // beside the summary table in another format
			return 2*len(order) - 1
		case "run.yaml":
			return 2*len(order) + 1
		}
		if i := slices.Index(order, strings.TrimSuffix(name, filepath.Ext(name))); i >= 0 {
			return 2 * i
		}
		return 2 * len(order)
	}
	var files []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			files = append(files, e.Name())
		}
	}
	slices.SortStableFunc(files, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return files, nil
}

// orNA formats v, or says "n/a" for a statistic over no jobs.
func orNA(v float64, format string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// duration prints seconds as a duration: "0 s", "0.25 s", "21.8 s",
// "1h 54m 50s", "332d 21h 56m 16s"; "n/a" for a statistic over no jobs.
// Below a minute three significant digits; above, whole seconds.
func duration(s float64) string {
	switch {
	case math.IsNaN(s):
		return "n/a"
	case math.IsInf(s, 0):
		return fmt.Sprint(s)
	case s < 0:
		return "-" + duration(-s)
	case s == 0:
		return "0 s"
	case s < 1e-3:
		return strconv.FormatFloat(s*1e6, 'g', 3, 64) + " µs"
	case s < 1:
		return strconv.FormatFloat(s*1e3, 'g', 3, 64) + " ms"
	case s < 59.95:
		return strconv.FormatFloat(s, 'g', 3, 64) + " s"
	}
	left := int64(math.Round(s))
	var parts []string
	for _, u := range []struct {
		size int64
		unit string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}} {
		n := left / u.size
		left -= n * u.size
		if n > 0 || len(parts) > 0 {
			parts = append(parts, strconv.FormatInt(n, 10)+u.unit)
		}
	}
	return strings.Join(parts, " ")
}

// energy prints joules in the unit that keeps them readable: J, kJ, MJ
// below a kilowatt-hour, kWh from there on (with the joules beside).
func energy(j float64) string {
	switch {
	case math.IsNaN(j):
		return "n/a"
	case j < 1e3:
		return strconv.FormatFloat(j, 'g', 3, 64) + " J"
	case j < 1e6:
		return strconv.FormatFloat(j/1e3, 'g', 3, 64) + " kJ"
	case j < 3.6e6:
		return strconv.FormatFloat(j/1e6, 'g', 3, 64) + " MJ"
	}
	kwh := j / 3.6e6
	if kwh >= 1000 {
		return grouped(kwh) + " kWh"
	}
	return strconv.FormatFloat(kwh, 'g', 3, 64) + " kWh"
}

// count agrees the noun with the number: "1 node", "5,544 nodes".
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return grouped(float64(n)) + " " + noun + "s"
}

// grouped prints a number rounded to an integer with thousands separators
// ("94,248"), or with three significant digits below 100 ("0.5", "12.3").
func grouped(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	if math.Abs(v) < 100 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return words.Thousands(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
}
