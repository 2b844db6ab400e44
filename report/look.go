package report

import (
	"regexp"
	"strings"
)

// figurePrefix is what a sweep's or an openb output's figures are named
// with: sweep_, sweep2_, openb1_.
var figurePrefix = regexp.MustCompile(`^(sweep|openb)\d*_`)

// lookFor is the one line a figure's caption opens with: what to look for,
// in a planner's words. The rest of the caption says how it is drawn.
// Figures are matched by name, the prefix a sweep's or an openb output's
// figures get (sweep2_, openb1_) and a Gantt chart's number set aside.
func lookFor(name string) string {
	base := figurePrefix.ReplaceAllString(name, "")
	switch {
	case strings.HasPrefix(base, "answer"):
		return "Every dot under the dashed line means every replica meets the target."
	case base == "wait_cdf":
		return "The higher and further left a run's curve, the sooner its jobs start."
	case base == "bsld_box":
		return "Lower boxes: jobs slowed down less by their wait."
	case base == "calibration":
		return "The closer a run's curve to the dashed recorded one, the better it reproduces the history."
	case base == "tenant_bsld":
		return "Bars of similar height: tenants are treated alike; a tall bar is a tenant that waits more."
	case base == "tenant_usage_share":
		return "Bars near the dashed line: each tenant gets its share."
	case base == "utilization":
		return "How busy the machine is: dips are idle capacity, a ceiling near 100 % is a full machine."
	case base == "queue":
		return "A queue that keeps growing means the machine cannot keep up with the load."
	case base == "power":
		return "The power drawn, which follows the utilization above the idle floor."
	case base == "fragmentation":
		return "High: free capacity lies in pieces too small for the jobs that wait."
	case base == "nodes_asleep":
		return "Nodes powered down: energy saved while nothing needs them."
	case base == "energy":
		return "The end of each line is the run's energy; the steeper, the more power."
	case strings.HasPrefix(base, "gantt"):
		return "Gaps are idle capacity; long bars that start late are jobs that waited."
	case strings.HasPrefix(base, "heatmap"):
		return "The darkest cells are the best parameter combinations."
	case base == "pareto":
		return "Ringed points are the trade-offs worth considering: no other point beats them on every objective."
	case strings.HasPrefix(base, "sweeps_"):
		return "Compare the bars: a gap between the sweeps larger than the spread of their replicas is a real difference."
	case base == "tune_weights":
		return "Where the search went: the best-coloured points are the weights to try."
	}
	return ""
}
