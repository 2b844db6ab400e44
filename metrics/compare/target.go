package compare

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Target is a planner's question about one metric: "p95_wait_s <= 3600"
// asks whether the p95 wait stays under an hour.
type Target struct {
	Metric string
	Op     string // <=, <, >= or >
	Value  float64
}

func (t Target) String() string {
	return t.Metric + " " + t.Op + " " + strconv.FormatFloat(t.Value, 'g', -1, 64)
}

// Met says whether v meets the target; a null value does not.
func (t Target) Met(v float64) bool {
	switch {
	case math.IsNaN(v):
		return false
	case t.Op == "<=":
		return v <= t.Value
	case t.Op == "<":
		return v < t.Value
	case t.Op == ">=":
		return v >= t.Value
	}
	return v > t.Value
}

// ParseTarget reads "METRIC OP VALUE" with OP one of <=, <, >=, > (≤ and
// ≥ too); spaces are optional.
func ParseTarget(s string) (Target, error) {
	text := strings.NewReplacer("≤", "<=", "≥", ">=").Replace(strings.TrimSpace(s))
	i := strings.IndexAny(text, "<>")
	if i <= 0 {
		return Target{}, fmt.Errorf("target %q: want METRIC OP VALUE with OP one of <=, <, >=, > (p95_wait_s <= 3600)", s)
	}
	t := Target{Metric: strings.TrimSpace(text[:i]), Op: text[i : i+1]}
	rest := text[i+1:]
	if strings.HasPrefix(rest, "=") {
		t.Op += "="
		rest = rest[1:]
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Target{}, fmt.Errorf("target %q: the value %q is not a number", s, strings.TrimSpace(rest))
	}
	if strings.ContainsAny(t.Metric, " \t") || t.Metric == "" {
		return Target{}, fmt.Errorf("target %q: want one metric name before %s", s, t.Op)
	}
	t.Value = v
	return t, nil
}

// Scenario is one side's group of replicas under a target.
type Scenario struct {
	Side   string // "base" or "candidate"
	Name   string // the side's directory name, as the user named it
	Label  string
	Values []float64 // each replica's value, in seed order; NaN when null
	Met    int       // replicas meeting the target
	Mean   float64
	// Interval is the t-interval of the mean over the replicas.
	Interval Interval
}

// Share is the share of replicas meeting the target.
func (s Scenario) Share() float64 { return float64(s.Met) / float64(len(s.Values)) }

// Answer is a target's answer for every scenario of both sides.
type Answer struct {
	Target    Target
	Scenarios []Scenario
}

// answer evaluates t over the matched groups, base then candidate.
func answer(t Target, groups []group, base, cand *Side) Answer {
	a := Answer{Target: t}
	for _, side := range []*Side{base, cand} {
		for _, g := range groups {
			runs, name := g.base, "base"
			if side == cand {
				runs, name = g.cand, "candidate"
			}
			sc := scenario(t, name, g.label, runs)
			sc.Name = sideName(side.Path)
			a.Scenarios = append(a.Scenarios, sc)
		}
	}
	return a
}

// sideName is how a side is named in a target's table: its directory's
// base name, or the first of a comma list with "…".
func sideName(path string) string {
	first, _, more := strings.Cut(path, ",")
	name := filepath.Base(strings.TrimSpace(first))
	if more {
		name += ",…"
	}
	return name
}

// AnswerSides evaluates t over every group of each side, in order: the
// scenarios of a report of several sweeps, whether or not their groups
// match. A side whose summary lacks the metric is an error.
func AnswerSides(t Target, sides ...*Side) (Answer, error) {
	a := Answer{Target: t}
	for _, s := range sides {
		if indexOf(s.Columns, t.Metric) < 0 {
			return a, fmt.Errorf("target %s: %s is not in the summary of %s", t, t.Metric, s.Path)
		}
		groups, _ := Summarize(s, nil)
		for _, g := range groups {
			sc := scenario(t, "", g.Label, g.Runs)
			sc.Name = sideName(s.Path)
			a.Scenarios = append(a.Scenarios, sc)
		}
	}
	return a, nil
}

func scenario(t Target, side, label string, runs []Run) Scenario {
	sorted := append([]Run(nil), runs...)
	sort.SliceStable(sorted, func(i, j int) bool { return seedLess(sorted[i].Seed, sorted[j].Seed) })
	s := Scenario{Side: side, Label: label, Mean: math.NaN(), Interval: noInterval("n < 3")}
	var known []float64
	for _, r := range sorted {
		v, ok := r.Values[t.Metric]
		if !ok {
			v = math.NaN()
		}
		s.Values = append(s.Values, v)
		if t.Met(v) {
			s.Met++
		}
		if !math.IsNaN(v) {
			known = append(known, v)
		}
	}
	if len(known) > 0 {
		s.Mean = mean(known)
		s.Interval = meanInterval(known, "t")
	}
	return s
}

// seedLess orders seeds as numbers when both are, else as text.
func seedLess(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

// Sentence is the answer in words: for the candidate's scenarios (the
// projection a planner asks about) when there is a candidate, else for
// every scenario: "yes — …" (every replica meets the target), "no — …"
// (none does) or "partly — …".
func (a Answer) Sentence() string {
	var parts []string
	all, none := true, true
	asked := a.Scenarios
	if slices.ContainsFunc(asked, func(s Scenario) bool { return s.Side == "candidate" }) {
		asked = slices.DeleteFunc(slices.Clone(asked), func(s Scenario) bool { return s.Side != "candidate" })
	}
	for _, s := range asked {
		if s.Met < len(s.Values) {
			all = false
		}
		if s.Met > 0 {
			none = false
		}
		who := s.Name
		if s.Label != "" && s.Label != "(all runs)" && len(asked) > 1 && asked[0].Name == asked[len(asked)-1].Name { // several groups of one side
			who += " " + s.Label
		}
		parts = append(parts, fmt.Sprintf("%s meets it in %d of %d replicas (mean %s)", who, s.Met, len(s.Values), valueText(a.Target.Metric, s.Mean)))
	}
	word := "partly"
	switch {
	case all:
		word = "yes"
	case none:
		word = "no"
	}
	return fmt.Sprintf("%s — %s? %s", word, a.Target, strings.Join(parts, "; "))
}

// valueText prints a value, seconds as hours or minutes.
func valueText(metric string, v float64) string {
	if strings.HasSuffix(metric, "_s") && !math.IsNaN(v) {
		return hours(v)
	}
	return num(v)
}

// hours prints seconds as hours (or minutes below one).
func hours(s float64) string {
	if math.Abs(s) < 3600 {
		return strconv.FormatFloat(s/60, 'f', 1, 64) + " min"
	}
	return strconv.FormatFloat(s/3600, 'f', 1, 64) + " h"
}
