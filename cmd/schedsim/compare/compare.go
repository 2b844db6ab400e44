package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Verdict is a row's outcome.
type Verdict int

const (
	Same         Verdict = iota // within the tolerance
	Improved                    // better by more than the tolerance (and significant)
	Regressed                   // worse by more than the tolerance (and significant): the gate fails
	Inconclusive                // worse by more than the tolerance, but the interval includes zero
	NotGated                    // the tolerance is off
	NoData                      // a side has no value (a statistic over no jobs)
)

func (v Verdict) String() string {
	return [...]string{"~", "improved", "REGRESSED", "inconclusive", "not gated", "n/a"}[v]
}

// Options tune the statistics.
type Options struct {
	Seed      uint64 // seeds the bootstrap
	Resamples int    // B; 0 means DefaultResamples
}

// Row compares one group of runs on one metric.
type Row struct {
	Label        string
	BaseN, CandN int  // values (seeds) on each side
	Paired       bool // the same seeds on both sides, resampled together
	Base, Cand   float64
	Delta        float64 // Cand − Base
	Rel          float64 // Delta as a % of |Base|; NaN when Base is 0
	Lo, Hi       float64 // interval of Delta; NaN with fewer than 2 values a side
	Verdict      Verdict
	// Absolute shows Delta and the interval in the metric's unit (its
	// tolerance is absolute, or the base mean is 0) rather than in %.
	Absolute bool
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
	Skipped []Skip
	// Uncalibrated names the side ("base" or "candidate") whose runs have
	// no calib_* values while the other's have some: the default
	// calibration metrics were left out. "" when both or neither have them.
	Uncalibrated string
	Regressions  []string // "metric on group (+7.10% > 5%)"
	Seed         uint64
	Resamples    int
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
	if opt.Resamples <= 0 {
		opt.Resamples = DefaultResamples
	}
	res := &Result{Base: base, Cand: cand, Seed: opt.Seed, Resamples: opt.Resamples}
	groups := matchGroups(base, cand, res)
	if len(groups) == 0 {
		return nil, fmt.Errorf("no run of %s matches one of %s (base groups: %s; candidate groups: %s)",
			base.Path, cand.Path, strings.Join(res.OnlyBase, ", "), strings.Join(res.OnlyCand, ", "))
	}
	res.Groups = len(groups)
	if common := shortenLabels(groups); common != "" {
		res.Common = common
	}
	var missing []string
	for _, m := range tols.Metrics {
		if m.calibration && !m.explicit {
			b, c := hasValue(base.Runs, m.Name), hasValue(cand.Runs, m.Name)
			if !b || !c {
				switch {
				case b:
					res.Uncalibrated = "candidate"
				case c:
					res.Uncalibrated = "base"
				}
				continue
			}
		}
		inBase, inCand := indexOf(base.Columns, m.Name) >= 0, indexOf(cand.Columns, m.Name) >= 0
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
			row := compareGroup(g, m, opt)
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
	if len(missing) > 0 {
		return nil, fmt.Errorf("metrics not comparable: %s", strings.Join(missing, "; "))
	}
	return res, nil
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
	values := func(runs []Run) []float64 {
		var xs []float64
		for _, r := range runs {
			if v := r.Values[metric]; !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		return xs
	}
	return values(base), values(cand), false
}

func compareGroup(g group, m Metric, opt Options) Row {
	b, c, paired := samples(g.base, g.cand, m.Name)
	row := Row{Label: g.label, BaseN: len(b), CandN: len(c), Paired: paired,
		Base: math.NaN(), Cand: math.NaN(), Delta: math.NaN(), Rel: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Farther: math.NaN()}
	if len(b) == 0 || len(c) == 0 {
		row.Verdict = NoData
		if len(b) > 0 {
			row.Base = mean(b)
		}
		if len(c) > 0 {
			row.Cand = mean(c)
		}
		return row
	}
	row.Base, row.Cand = mean(b), mean(c)
	row.Delta = row.Cand - row.Base
	if row.Base != 0 {
		row.Rel = 100 * row.Delta / math.Abs(row.Base)
	}
	row.Absolute = row.Base == 0 || (!m.Tolerance.Relative && !m.Tolerance.Off)
	hasCI := len(b) >= 2 && len(c) >= 2
	if hasCI {
		row.Lo, row.Hi = bootstrapDiff(b, c, paired, opt.Resamples, stream(opt.Seed, g.id, m.Name))
	}
	// How much worse the candidate is, and its interval: the change in
	// the bad direction, or for a ratio the change of its distance from 1.
	worse, wlo, whi := row.Delta, row.Lo, row.Hi
	switch m.Direction {
	case Higher:
		worse, wlo, whi = -row.Delta, -row.Hi, -row.Lo
	case NearOne:
		worse = math.Abs(row.Cand-1) - math.Abs(row.Base-1)
		row.Farther = worse
		if hasCI {
			wlo, whi = bootstrapDistance(b, c, paired, opt.Resamples, stream(opt.Seed, g.id, m.Name+"\x00near1"))
		}
	}
	row.Verdict = verdict(row, m, hasCI, worse, wlo, whi)
	return row
}

// verdict applies the tolerance to worse, the change in the bad direction,
// whose interval is [wlo, whi]; with an interval, a regression (or an
// improvement) also needs the whole interval on that side of zero.
func verdict(r Row, m Metric, hasCI bool, worse, wlo, whi float64) Verdict {
	if m.Tolerance.Off {
		return NotGated
	}
	tol := m.Tolerance.amount(r.Base)
	switch {
	case worse > tol:
		if !hasCI || wlo > 0 {
			return Regressed
		}
		return Inconclusive
	case -worse > tol && (!hasCI || whi < 0):
		return Improved
	}
	return Same
}
