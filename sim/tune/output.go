package tune

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
)

// TunedName is the name of the tuned profile in the YAML printed.
const TunedName = "tuned"

// ProfileYAML is p as a profile file (the format --profile FILE reads),
// named name, every factor listed.
func ProfileYAML(name string, p lattice.Profile) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "profile: %s\nprofiles:\n  %s:\n    weights: {", name, name)
	for f, n := range lattice.FactorNames() {
		if f > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n + ": " + strconv.FormatFloat(p.Weights[f], 'f', -1, 64))
	}
	conf := "preferred"
	if p.RequireConformance {
		conf = "required"
	}
	fmt.Fprintf(&b, "}\n    conformance: %s\n", conf)
	return []byte(b.String())
}

// Label names a point: a named profile by its name, a searched one as
// eval-N (its place among the searched points, from 1).
func (r *Result) Label(p *Point) string {
	if p.Name != "" {
		return p.Name
	}
	for i, q := range r.Searched {
		if q == p {
			return fmt.Sprintf("eval-%04d", i+1)
		}
	}
	return TunedName
}

// num prints a metric with four significant digits, fixed notation.
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case v == 0:
		return "0"
	}
	digits := max(0, min(3-int(math.Floor(math.Log10(math.Abs(v)))), 6))
	return strconv.FormatFloat(v, 'f', digits, 64)
}

func weightsText(w lattice.Weights) string {
	parts := make([]string, len(w))
	for i, x := range w {
		parts[i] = strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strings.Join(parts, " ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func table(b *strings.Builder, header []string, rows [][]string) {
	width := make([]int, len(header))
	all := append([][]string{header}, rows...)
	for _, row := range all {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range all {
		var line strings.Builder
		for i, c := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(c + strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString("  " + strings.TrimRight(line.String(), " ") + "\n")
	}
}

// metricColumns are the objective, the constraints' and the Pareto
// axes' metrics, each once, in that order.
func (r *Result) metricColumns() []string {
	cols := []string{r.Config.Objective}
	add := func(m string) {
		for _, c := range cols {
			if c == m {
				return
			}
		}
		cols = append(cols, m)
	}
	for _, c := range r.Config.Constraints {
		add(c.Metric)
	}
	for _, a := range r.Config.Pareto {
		add(a.Metric)
	}
	return cols
}

func (r *Result) pointRow(p *Point, cols []string) []string {
	row := []string{r.Label(p)}
	for _, c := range cols {
		v, ok := p.Metrics[c]
		if !ok {
			v = math.NaN()
		}
		row = append(row, num(v))
	}
	return append(row, yesNo(p.Feasible), weightsText(p.Profile.Weights))
}

// Describe is the header of the report: what was searched and how.
type Describe struct {
	Spec    string // the experiment file
	Runs    int    // runs per evaluation
	Workers int
}

// WriteText prints the report: the named profiles, the convergence, the
// Pareto front, and the best profile as YAML ready to paste.
func (r *Result) WriteText(w io.Writer, d Describe) error {
	c := r.Config
	var b strings.Builder
	goal := "minimise"
	if c.Maximize {
		goal = "maximise"
	}
	runs := "the mean over %d runs per profile"
	if d.Runs == 1 {
		runs = "%d run per profile"
	}
	fmt.Fprintf(&b, "schedsim tune %s: %s %s, "+runs+"\n", d.Spec, goal, c.Objective, d.Runs)
	if len(c.Constraints) > 0 {
		var cs []string
		for _, ct := range c.Constraints {
			cs = append(cs, ct.String())
		}
		fmt.Fprintf(&b, "  constraints: %s (penalty %g × S = %s per unit of relative violation)\n",
			strings.Join(cs, ", "), c.Penalty, num(c.Penalty*r.Scale))
	}
	method := fmt.Sprintf("CMA-ES (population %s, initial step %g, %d concurrent evaluations)", populationText(c), c.Step, max(d.Workers, 1))
	if c.Method == NelderMead {
		method = fmt.Sprintf("Nelder–Mead (simplex size %g)", c.Step)
	}
	fmt.Fprintf(&b, "  search: %s, seed %d, up to %d iterations; %d objective calls, %d distinct profiles (stopped: %s)\n",
		method, c.Seed, c.Iterations, r.Calls, len(r.Searched), r.Status)
	var tuned []string
	for _, f := range c.Factors {
		tuned = append(tuned, fmt.Sprintf("%s [%g, %g]", f, c.Lo[f], c.Hi[f]))
	}
	if len(tuned) == 0 {
		tuned = []string{"none"}
	}
	fmt.Fprintf(&b, "  tuned weights: %s; weights rounded to 0.001\n", strings.Join(tuned, ", "))
	b.WriteString(r.InertText("  "))

	cols := r.metricColumns()
	header := append(append([]string{"profile"}, cols...), "feasible", "weights ("+strings.Join(lattice.FactorNames(), ", ")+")")
	b.WriteString("\nnamed profiles\n")
	var rows [][]string
	for _, p := range r.Named {
		rows = append(rows, r.pointRow(p, cols))
	}
	table(&b, header, rows)

	fmt.Fprintf(&b, "\nconvergence: best feasible %s after each iteration (0: the named profiles)\n", c.Objective)
	rows = nil
	for _, st := range r.Convergence {
		rows = append(rows, []string{strconv.Itoa(st.Iteration), strconv.Itoa(st.Evaluations), num(st.Best)})
	}
	table(&b, []string{"iteration", "profiles", "best"}, rows)

	var axes []string
	for _, a := range c.Pareto {
		dir := "lower"
		if a.Higher {
			dir = "higher"
		}
		axes = append(axes, a.Metric+" "+dir)
	}
	all := append(append([]*Point(nil), r.Named...), r.Searched...)
	front := Pareto(all, c.Pareto)
	fmt.Fprintf(&b, "\nPareto front (%s) of %d profiles: %d points\n", strings.Join(axes, ", "), len(all), len(front))
	rows = nil
	for _, fp := range front {
		row := r.pointRow(fp.Point, cols)
		if fp.Same > 0 {
			row[0] += fmt.Sprintf(" (+%d alike)", fp.Same)
		}
		rows = append(rows, row)
	}
	table(&b, header, rows)

	b.WriteString("\n")
	if r.Best == nil {
		b.WriteString("no profile evaluated meets the constraints\n")
	} else {
		r.writeBest(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// InertText says which factors the named profiles' runs found inert and
// which of them the search left out, one line each after prefix ("" when
// there is nothing to say).
func (r *Result) InertText(prefix string) string {
	if r.Variation.Passes == 0 {
		return prefix + "factor variation: no pass of the named profiles' runs ranked two jobs; every factor asked for is searched\n"
	}
	var b strings.Builder
	if len(r.Inert) == 0 {
		fmt.Fprintf(&b, "%severy factor varied across the queue in some of the %d passes that ranked two jobs or more\n", prefix, r.Variation.Passes)
		return b.String()
	}
	fmt.Fprintf(&b, "%sinert factors: %s — the same for every queued job in each of the %d passes that ranked two jobs or more, so their weights cannot change a schedule\n",
		prefix, factorList(r.Inert), r.Variation.Passes)
	switch {
	case len(r.Dropped) > 0:
		fmt.Fprintf(&b, "%sleft out of the search: %s (they keep the start profile's weights; tune.keep_inert: true searches them)\n", prefix, factorList(r.Dropped))
	case r.Config.KeepInert:
		fmt.Fprintf(&b, "%ssearched anyway (tune.keep_inert: true)\n", prefix)
	}
	return b.String()
}

func factorList(fs []lattice.Factor) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	return strings.Join(names, ", ")
}

func populationText(c *Config) string {
	if c.Population == 0 {
		return fmt.Sprintf("%d", 4+int(3*math.Log(float64(len(c.Factors)))))
	}
	return strconv.Itoa(c.Population)
}

// BestNamed is the best feasible named profile, or nil.
func (r *Result) BestNamed() *Point { return best(r.Named) }

func (r *Result) writeBest(b *strings.Builder) {
	c := r.Config
	fmt.Fprintf(b, "best profile: %s = %s", c.Objective, num(r.Best.Objective))
	if bn := r.BestNamed(); bn != nil && bn != r.Best {
		change := ""
		if bn.Objective != 0 {
			change = fmt.Sprintf("; %+.2f%%", 100*(r.Best.Objective-bn.Objective)/math.Abs(bn.Objective))
		}
		fmt.Fprintf(b, " (%s, the best named profile: %s%s)", bn.Name, num(bn.Objective), change)
	}
	if r.Best.Name != "" {
		fmt.Fprintf(b, " — the named profile %s; no searched profile did better", r.Best.Name)
	}
	b.WriteString("\npaste into a profile file and run it with --profile FILE (or add it to lattice.profiles):\n\n")
	b.Write(ProfileYAML(TunedName, r.Best.Profile))
}

// SummaryColumns are every evaluated profile (named, then searched) as a
// sweep summary (metrics.WriteSweepSummary), so `schedsim report` can draw
// them: run (the label), run_dir (empty: tune keeps no run directories),
// param_profile, param_w_<factor> for each tuned factor, w_<factor> for
// the others, then iteration, feasible, objective, penalized and the mean
// of each metric in order.
func (r *Result) SummaryColumns(order []string) []metrics.SweepColumn {
	pts := append(append([]*Point(nil), r.Named...), r.Searched...)
	col := func(name string, kind metrics.ColumnKind, value func(p *Point) string) metrics.SweepColumn {
		c := metrics.SweepColumn{Name: name, Kind: kind}
		for _, p := range pts {
			c.Values = append(c.Values, value(p))
		}
		return c
	}
	float := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	cols := []metrics.SweepColumn{
		col(metrics.ColRun, metrics.KindString, r.Label),
		col(metrics.ColRunDir, metrics.KindString, func(*Point) string { return "" }),
		col(metrics.ParamPrefix+"profile", metrics.KindString, func(p *Point) string {
			if p.Name != "" {
				return p.Name
			}
			return TunedName
		}),
	}
	// The tuned weights are the parameters (report labels points by
	// them); the others, fixed during the search, follow as plain columns.
	weight := func(prefix string, f lattice.Factor) metrics.SweepColumn {
		return col(prefix+f.String(), metrics.KindFloat, func(p *Point) string { return float(p.Profile.Weights[f]) })
	}
	for _, f := range r.Config.Factors {
		cols = append(cols, weight(metrics.ParamPrefix+"w_", f))
	}
	for f := range lattice.NumFactors {
		if !slices.Contains(r.Config.Factors, f) {
			cols = append(cols, weight("w_", f))
		}
	}
	cols = append(cols,
		col("iteration", metrics.KindInt, func(p *Point) string { return strconv.Itoa(p.Iteration) }),
		col("feasible", metrics.KindInt, func(p *Point) string {
			if p.Feasible {
				return "1"
			}
			return "0"
		}),
		col("objective", metrics.KindFloat, func(p *Point) string { return float(p.Objective) }),
		col("penalized", metrics.KindFloat, func(p *Point) string { return float(p.Penalized) }),
	)
	for _, m := range order {
		cols = append(cols, col(m, metrics.KindFloat, func(p *Point) string {
			v, ok := p.Metrics[m]
			if !ok {
				return ""
			}
			return float(v)
		}))
	}
	return cols
}
