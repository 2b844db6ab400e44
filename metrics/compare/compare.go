package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// Verdict is a row's outcome.
type Verdict int

const (
	Same         Verdict = iota // within the tolerance
	Improved                    // better by more than the tolerance (and significant)
	Regressed                   // worse by more than the tolerance (and significant): the gate fails
	Inconclusive                // worse by more than the tolerance, but the interval includes zero
	NotGated                    // the tolerance is off
	NoData                      // a side has no value: not comparable
)

func (v Verdict) String() string {
	return [...]string{"~", "improved", "REGRESSED", "inconclusive", "not gated", "not comparable"}[v]
}

// Options tune a comparison.
type Options struct {
	// AllowDifferentWorkloads compares sides that replay different
	// traces; otherwise Compare refuses them (DifferentWorkloadsError).
	AllowDifferentWorkloads bool
	// Targets are the planner's questions ("p95_wait_s <= 3600"),
	// answered per scenario (target.go).
	Targets []Target
}

// NoMatchError is Compare's refusal of two sides none of whose groups
// match (sweeps over other parameters).
type NoMatchError struct {
	Base, Cand         string
	OnlyBase, OnlyCand []string
}

func (e *NoMatchError) Error() string {
	return fmt.Sprintf("no run of %s matches one of %s (base groups: %s; candidate groups: %s)",
		e.Base, e.Cand, strings.Join(e.OnlyBase, ", "), strings.Join(e.OnlyCand, ", "))
}

// DifferentWorkloadsError is Compare's refusal of two sides that replay
// different traces.
type DifferentWorkloadsError struct{ Differences []string }

func (e *DifferentWorkloadsError) Error() string {
	return "the two sides replay different workloads (" + strings.Join(e.Differences, "; ") +
		"): their metrics are not comparable; --allow-different-workloads compares them anyway"
}

// Row compares one group of runs on one metric.
type Row struct {
	Label        string
	BaseN, CandN int  // values (seeds) on each side
	Paired       bool // the same seeds on both sides, resampled together
	Base, Cand   float64
	Delta        float64 // Cand − Base
	Rel          float64 // Delta as a % of |Base|; NaN when Base is 0
	// Interval is that of Delta: none with fewer than MinReplicas values
	// a side or identical replicas.
	Interval Interval
	Verdict  Verdict
	// Absolute shows Delta and the interval in the metric's unit (its
	// tolerance is absolute, or the base mean is 0) rather than in %.
	Absolute bool
	// Why says, for a NoData row, which side lacks a value and why.
	Why string
	// Farther is, for a metric better near 1, how much farther from 1
	// the candidate's mean is than the base's (what the verdict weighs);
	// NaN otherwise.
	Farther float64
}

// Section is one metric's rows.
type Section struct {
	Metric Metric
	Rows   []Row
}

// Result is a whole comparison.
type Result struct {
	Base, Cand *Side
	Sections   []Section
	// Common is what every group's label shared and was cut from the
	// rows ("" when nothing was).
	Common string
	// Groups counts matched groups; OnlyBase and OnlyCand list the labels
	// of groups found on one side only.
	Groups             int
	OnlyBase, OnlyCand []string
	// Skipped lists default metrics absent from a side's summary.
	Skipped     []Skip
	Regressions []string // "metric on group (+7.10% > 5%)"
	// Setup says how the sides relate (what-if, policies, …) and what
	// differs, from their run.yaml.
	Setup Setup
	// NotComparable lists default metrics with values on one side only,
	// with why ("energy_kwh: the candidate has no value (the cluster has
	// no power model)").
	NotComparable []string
	// Answers are the targets' answers, one per target.
	Answers []Answer
}

// Skip is a default metric not compared: Where names the side(s) whose
// summary lacks it.
type Skip struct{ Metric, Where string }

// group is one group's runs on both sides.
type group struct {
	label      string
	id         string
	base, cand []Run
}

// Compare matches base and candidate runs by group and compares every
// metric of tols. A metric named explicitly (file, flag, --metrics) must
// be in both summaries; a default one missing from either is skipped.
func Compare(base, cand *Side, tols *Tolerances, opt Options) (*Result, error) {
	res := &Result{Base: base, Cand: cand}
	groups := matchGroups(base, cand, res)
	if len(groups) == 0 {
		return nil, &NoMatchError{Base: base.Path, Cand: cand.Path, OnlyBase: res.OnlyBase, OnlyCand: res.OnlyCand}
	}
	res.Setup = describeSetup(groups)
	if res.Setup.Kind == "different workloads" && !opt.AllowDifferentWorkloads {
		return nil, &DifferentWorkloadsError{Differences: res.Setup.Differences}
	}
	res.Groups = len(groups)
	if common := shortenLabels(groups); common != "" {
		res.Common = common
	}
	var missing []string
	for _, m := range tols.Metrics {
		inBase, inCand := indexOf(base.Columns, m.Name) >= 0, indexOf(cand.Columns, m.Name) >= 0
		if m.calibration && !m.explicit && !inBase && !inCand {
			continue // summaries from before calibration, or not replays of a history
		}
		if !m.explicit && inBase && inCand {
			// A default metric that a side cannot compute (energy without
			// a power model, calibration after a what-if) is left out
			// with why, never scored against a number.
			b, c := hasValue(base.Runs, m.Name), hasValue(cand.Runs, m.Name)
			if !b || !c {
				res.notComparable(m, b, c)
				continue
			}
		}
		if !inBase || !inCand {
			where := "base"
			if inBase {
				where = "candidate"
			} else if !inCand {
				where = "base and candidate"
			}
			if m.explicit {
				missing = append(missing, fmt.Sprintf("%s (not in the %s summary)", m.Name, where))
			} else {
				res.Skipped = append(res.Skipped, Skip{m.Name, where})
			}
			continue
		}
		sec := Section{Metric: m}
		for _, g := range groups {
			row := compareGroup(g, m)
			if row.Verdict == Regressed {
				change := deltaText(row)
				if m.Direction == NearOne {
					change += ", " + num(row.Farther) + " farther from 1"
				}
				res.Regressions = append(res.Regressions, fmt.Sprintf("%s on %s (%s, tolerance %s)", m.Name, g.label, change, m.Tolerance))
			}
			sec.Rows = append(sec.Rows, row)
		}
		res.Sections = append(res.Sections, sec)
	}
	for _, t := range opt.Targets {
		for _, side := range []*Side{base, cand} {
			if indexOf(side.Columns, t.Metric) < 0 {
				missing = append(missing, fmt.Sprintf("target %s (%s is not in the summary of %s)", t, t.Metric, side.Path))
			}
		}
		res.Answers = append(res.Answers, answer(t, groups, base, cand))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("metrics not comparable: %s", strings.Join(missing, "; "))
	}
	return res, nil
}

// notComparable notes a default metric left out because a side has no
// value of it; the calibration metrics share one note.
func (r *Result) notComparable(m Metric, inBase, inCand bool) {
	name := m.Name
	if m.calibration {
		name = "calib_*"
	}
	var note string
	switch {
	case inBase:
		note = fmt.Sprintf("%s: the candidate has no value (%s)", name, absentWhy(m.Name, r.Cand.Runs))
	case inCand:
		note = fmt.Sprintf("%s: the base has no value (%s)", name, absentWhy(m.Name, r.Base.Runs))
	default:
		note = fmt.Sprintf("%s: neither side has a value (%s)", name, absentWhy(m.Name, r.Base.Runs))
	}
	if !slices.Contains(r.NotComparable, note) {
		r.NotComparable = append(r.NotComparable, note)
	}
}

// absentWhy says why runs have no value of metric, from their run.yaml
// where it tells.
func absentWhy(metric string, runs []Run) string {
	var prov Provenance
	for _, r := range runs {
		if r.Prov.Known {
			prov = r.Prov
			break
		}
	}
	switch {
	case strings.HasPrefix(metric, "calib_") && prov.Calibration != "":
		return strings.TrimPrefix(prov.Calibration, "n/a: ")
	case strings.HasPrefix(metric, "calib_"):
		return "no recorded start times to compare with, or too few"
	case (strings.HasPrefix(metric, "energy") || metric == metrics.ColCarbonKg) && strings.HasPrefix(prov.Power, "none"):
		return "the cluster has no power model"
	case metric == metrics.ColEnergyCost || metric == metrics.ColCarbonKg:
		return "no price or carbon series given, or no power model"
	}
	return "a statistic over no jobs, or not measured"
}

// hasValue says whether some run has a value of metric.
func hasValue(runs []Run, metric string) bool {
	for _, r := range runs {
		if v, ok := r.Values[metric]; ok && !math.IsNaN(v) {
			return true
		}
	}
	return false
}

// matchGroups pairs the groups of both sides by identity, sorted by label.
// When each side has a single group, the two are compared whatever their
// names (two runs of different configurations, say).
func matchGroups(base, cand *Side, res *Result) []group {
	bg, cg := groupRuns(base.Runs), groupRuns(cand.Runs)
	if len(bg) == 1 && len(cg) == 1 {
		var b, c group
		for _, g := range bg {
			b = *g
		}
		for _, g := range cg {
			c = *g
		}
		if b.label != c.label {
			b.label, res.Common = versus(b.label, c.label)
		}
		b.cand = c.base
		return []group{b}
	}
	var out []group
	for id, b := range bg {
		c, ok := cg[id]
		if !ok {
			res.OnlyBase = append(res.OnlyBase, b.label)
			continue
		}
		b.cand = c.base
		out = append(out, *b)
	}
	for id, c := range cg {
		if _, ok := bg[id]; !ok {
			res.OnlyCand = append(res.OnlyCand, c.label)
		}
	}
	sort.Strings(res.OnlyBase)
	sort.Strings(res.OnlyCand)
	sort.Slice(out, func(i, j int) bool {
		if out[i].label != out[j].label {
			return out[i].label < out[j].label
		}
		return out[i].id < out[j].id
	})
	return out
}

// shortenLabels drops from the group labels the "__"-separated parts
// that every group has in the same place (the trace and queue of a sweep
// over backfills, say), as benchstat shows only what varies, and returns
// them joined.
func shortenLabels(groups []group) string {
	if len(groups) < 2 {
		return ""
	}
	parts := make([][]string, len(groups))
	for i, g := range groups {
		parts[i] = strings.Split(g.label, "__")
		if len(parts[i]) != len(parts[0]) {
			return ""
		}
	}
	var keep []int
	var common []string
	for j := range parts[0] {
		same := true
		for i := range parts {
			same = same && parts[i][j] == parts[0][j]
		}
		if same {
			common = append(common, parts[0][j])
		} else {
			keep = append(keep, j)
		}
	}
	if len(common) == 0 || len(keep) == 0 {
		return ""
	}
	for i := range groups {
		var kept []string
		for _, j := range keep {
			kept = append(kept, parts[i][j])
		}
		groups[i].label = strings.Join(kept, "__")
	}
	return strings.Join(common, "__")
}

// versus labels a base group compared with a differently named candidate
// group: "easy vs none", with the parts both share returned apart.
func versus(a, b string) (label, common string) {
	pa, pb := strings.Split(a, "__"), strings.Split(b, "__")
	if len(pa) != len(pb) {
		return a + " vs " + b, ""
	}
	var da, db, same []string
	for i := range pa {
		if pa[i] == pb[i] {
			same = append(same, pa[i])
		} else {
			da, db = append(da, pa[i]), append(db, pb[i])
		}
	}
	return strings.Join(da, "__") + " vs " + strings.Join(db, "__"), strings.Join(same, "__")
}

// groupRuns groups runs by identity (runs go in .base).
func groupRuns(runs []Run) map[string]*group {
	gs := map[string]*group{}
	for _, r := range runs {
		g, ok := gs[r.Group]
		if !ok {
			g = &group{label: r.Label, id: r.Group}
			gs[r.Group] = g
		}
		g.base = append(g.base, r)
	}
	return gs
}

// samples returns each side's values of metric, aligned by seed when both
// sides ran the same distinct, known seeds.
func samples(base, cand []Run, metric string) (b, c []float64, paired bool) {
	bySeed := func(runs []Run) map[string]float64 {
		m := map[string]float64{}
		for _, r := range runs {
			if r.Seed == "" {
				return nil
			}
			if _, dup := m[r.Seed]; dup {
				return nil
			}
			m[r.Seed] = r.Values[metric]
		}
		return m
	}
	bs, cs := bySeed(base), bySeed(cand)
	if bs != nil && cs != nil && len(bs) == len(cs) {
		seeds := make([]string, 0, len(bs))
		same := true
		for s := range bs {
			if _, ok := cs[s]; !ok {
				same = false
				break
			}
			seeds = append(seeds, s)
		}
		if same {
			sort.Strings(seeds)
			for _, s := range seeds {
				if !math.IsNaN(bs[s]) && !math.IsNaN(cs[s]) {
					b, c = append(b, bs[s]), append(c, cs[s])
				}
			}
			return b, c, true
		}
	}
	return values(base, metric), values(cand, metric), false
}

// values returns the runs' values of metric that are not null.
func values(runs []Run, metric string) []float64 {
	var xs []float64
	for _, r := range runs {
		if v := r.Values[metric]; !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return xs
}

func compareGroup(g group, m Metric) Row {
	b, c, paired := samples(g.base, g.cand, m.Name)
	row := Row{Label: g.label, BaseN: len(b), CandN: len(c), Paired: paired,
		Base: math.NaN(), Cand: math.NaN(), Delta: math.NaN(), Rel: math.NaN(), Farther: math.NaN(),
		Interval: noInterval("")}
	if len(b) == 0 || len(c) == 0 {
		row.Verdict = NoData
		// Paired samples drop a seed null on either side: ask each side.
		b, c = values(g.base, m.Name), values(g.cand, m.Name)
		switch {
		case len(b) > 0 && len(c) > 0:
			row.Base, row.Cand = mean(b), mean(c)
			row.Why = "no seed has a value on both sides"
		case len(b) > 0:
			row.Base = mean(b)
			row.Why = "the candidate has no value: " + absentWhy(m.Name, g.cand)
		case len(c) > 0:
			row.Cand = mean(c)
			row.Why = "the base has no value: " + absentWhy(m.Name, g.base)
		default:
			row.Why = "neither side has a value: " + absentWhy(m.Name, g.base)
		}
		return row
	}
	row.Base, row.Cand = mean(b), mean(c)
	row.Delta = row.Cand - row.Base
	if row.Base != 0 {
		row.Rel = 100 * row.Delta / math.Abs(row.Base)
	}
	row.Absolute = row.Base == 0 || (!m.Tolerance.Relative && !m.Tolerance.Off)
	row.Interval = differenceInterval(b, c, paired)
	// How much worse the candidate is, and its interval: the change in
	// the bad direction, or for a ratio the change of its distance from 1
	// (the mean of |value − 1| on each side, so that paired runs give it
	// as the mean of their differences and its interval is theirs).
	worse, wiv := row.Delta, row.Interval
	switch m.Direction {
	case Higher:
		worse = -row.Delta
		wiv.Lo, wiv.Hi = -row.Interval.Hi, -row.Interval.Lo
	case NearOne:
		db, dc := distancesFromOne(b), distancesFromOne(c)
		worse = mean(dc) - mean(db)
		row.Farther = worse
		wiv = differenceInterval(db, dc, paired)
	}
	row.Verdict = verdict(row, m, worse, wiv)
	return row
}

// distancesFromOne returns |x − 1| of every value.
func distancesFromOne(xs []float64) []float64 {
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - 1)
	}
	return d
}

// verdict applies the tolerance to worse, the change in the bad
// direction, whose interval is iv; with an interval, a regression (or an
// improvement) also needs the whole interval on that side of zero.
// Without one (fewer than MinReplicas values, or identical replicas) the
// tolerance alone decides, and the output says so.
func verdict(r Row, m Metric, worse float64, iv Interval) Verdict {
	if m.Tolerance.Off {
		return NotGated
	}
	tol := m.Tolerance.amount(r.Base)
	switch {
	case worse > tol:
		if !iv.Has() || iv.Lo > 0 {
			return Regressed
		}
		return Inconclusive
	case -worse > tol && (!iv.Has() || iv.Hi < 0):
		return Improved
	}
	return Same
}
