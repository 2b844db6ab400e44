package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// Headline are the metrics a sweep's table of results shows by default.
var Headline = []string{metrics.ColMeanWait, metrics.ColP95Wait, metrics.ColMeanBSLD, metrics.ColUtilization}

// GroupStats is one group of runs that differ by seed only: per metric,
// the mean over its replicas and the t-interval of that mean, as compare
// computes them.
type GroupStats struct {
	Label     string
	Runs      []Run
	Means     map[string]float64
	Intervals map[string]Interval
}

// Summarize groups a side's runs and computes each metric's mean and
// interval over every group's replicas, sorted by label. common is what
// every label shared and was cut from them.
func Summarize(s *Side, metrics []string) (groups []GroupStats, common string) {
	var gs []group
	for _, g := range groupRuns(s.Runs) {
		gs = append(gs, *g)
	}
	sort.Slice(gs, func(i, j int) bool {
		return gs[i].label < gs[j].label || gs[i].label == gs[j].label && gs[i].id < gs[j].id
	})
	common = shortenLabels(gs)
	for _, g := range gs {
		st := GroupStats{Label: g.label, Runs: g.base, Means: map[string]float64{}, Intervals: map[string]Interval{}}
		for _, m := range metrics {
			xs := values(g.base, m)
			st.Means[m], st.Intervals[m] = math.NaN(), noInterval("no value")
			if len(xs) > 0 {
				st.Means[m], st.Intervals[m] = mean(xs), meanInterval(xs, "t")
			}
		}
		groups = append(groups, st)
	}
	return groups, common
}

// Best returns the index of the group whose mean objective is best in
// its direction, and the runner-up's (-1 when there is none); -1, -1 when
// no group has a value.
func Best(groups []GroupStats, objective string) (best, next int) {
	dir, _ := DirectionOf(objective)
	score := func(i int) float64 {
		v := groups[i].Means[objective]
		switch dir {
		case Higher:
			return -v
		case NearOne:
			return math.Abs(v - 1)
		}
		return v
	}
	best, next = -1, -1
	for i := range groups {
		if math.IsNaN(groups[i].Means[objective]) {
			continue
		}
		switch {
		case best < 0 || score(i) < score(best):
			best, next = i, best
		case next < 0 || score(i) < score(next):
			next = i
		}
	}
	return best, next
}

// WriteGroups prints a sweep's table of results: one row per group with
// each metric's mean and interval over its replicas, the best group on
// the objective, and the target's count of replicas that meet it.
func WriteGroups(w io.Writer, groups []GroupStats, common string, metrics []string, objective string, target *Target) error {
	var b strings.Builder
	header := []string{"group", "runs"}
	right := []bool{false, true}
	for _, m := range metrics {
		header = append(header, m+" (95% CI)")
		right = append(right, false)
	}
	if target != nil {
		header = append(header, "meets "+target.String())
		right = append(right, true)
	}
	// With fewer than MinReplicas runs in every group no cell has an
	// interval: say it once, under the table, not in every cell.
	single := true
	for _, g := range groups {
		single = single && len(g.Runs) < MinReplicas
	}
	if single {
		for i := range metrics {
			header[2+i] = metrics[i]
		}
	}
	var rows [][]string
	for _, g := range groups {
		row := []string{g.Label, strconv.Itoa(len(g.Runs))}
		for _, m := range metrics {
			iv := g.Intervals[m]
			if single {
				iv = Interval{}
			}
			row = append(row, statText(m, g.Means[m], iv))
		}
		if target != nil {
			sc := scenario(*target, "", g.Label, g.Runs)
			row = append(row, fmt.Sprintf("%d of %d", sc.Met, len(sc.Values)))
		}
		rows = append(rows, row)
	}
	if common != "" {
		fmt.Fprintf(&b, "results (all %s):\n", common)
	} else {
		b.WriteString("results:\n")
	}
	writeTable(&b, header, right, rows)
	if single {
		fmt.Fprintf(&b, "(fewer than %d runs a group: no intervals; give the experiment seeds: and jitter for replicas)\n", MinReplicas)
	}
	dir, _ := DirectionOf(objective)
	best, next := Best(groups, objective)
	switch {
	case best < 0:
		fmt.Fprintf(&b, "best on %s: n/a (no group has a value)\n", objective)
	case next < 0:
		fmt.Fprintf(&b, "best on %s (%s): %s, the only group\n", objective, dir.better(), groups[best].Label)
	default:
		bi, ni := groups[best].Intervals[objective], groups[next].Intervals[objective]
		var apart string
		switch {
		case !bi.Has() || !ni.Has():
			apart = "without intervals the difference is not weighed against the replicas' noise"
		case bi.Hi < ni.Lo || ni.Hi < bi.Lo:
			apart = "the intervals do not overlap"
		default:
			apart = "the intervals overlap: these replicas do not tell the two apart"
		}
		fmt.Fprintf(&b, "best on %s (%s): %s (%s); next %s (%s); %s\n", objective, dir.better(), groups[best].Label,
			valueText(objective, groups[best].Means[objective]), groups[next].Label, valueText(objective, groups[next].Means[objective]), apart)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// statText prints a mean and its interval in the metric's natural unit:
// hours or minutes for seconds, % for utilizations and shares.
func statText(metric string, m float64, iv Interval) string {
	if math.IsNaN(m) {
		return "n/a"
	}
	f := num
	switch {
	case strings.HasSuffix(metric, "_s"):
		f = func(v float64) string { return hours(v) }
	case strings.HasPrefix(metric, metrics.ColUtilization):
		f = func(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + " %" }
	}
	switch {
	case iv == Interval{}:
		return f(m)
	case !iv.Has():
		return f(m) + " (" + iv.Why + ")"
	}
	return f(m) + " [" + f(iv.Lo) + ", " + f(iv.Hi) + "]"
}
