package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedsim/schedsim/internal/words"
)

// num prints a value with about four significant digits, in fixed
// notation (benchstat's style without unit prefixes): 31536000, 1235,
// 12.35, 0.9123, 0.01234.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case v == 0:
		return "0"
	}
	digits := 3 - int(math.Floor(math.Log10(math.Abs(v))))
	digits = max(0, min(digits, 6))
	return strconv.FormatFloat(v, 'f', digits, 64)
}

func signed(v float64, s string) string {
	if v >= 0 && !strings.HasPrefix(s, "+") {
		return "+" + s
	}
	return s
}

// deltaText is the change, in % of the base mean, or in the metric's unit
// when its tolerance is absolute or the base mean is 0.
func deltaText(r Row) string {
	switch {
	case math.IsNaN(r.Delta):
		return "n/a"
	case !r.Absolute:
		return fmt.Sprintf("%+.2f%%", r.Rel)
	}
	return signed(r.Delta, num(r.Delta))
}

// intervalText is the interval, in the same unit as deltaText, or why
// there is none.
func intervalText(r Row) string {
	iv := r.Interval
	switch {
	case r.Verdict == NoData:
		return "—"
	case !iv.Has():
		return "none: " + iv.Why
	case !r.Absolute:
		scale := 100 / math.Abs(r.Base)
		return fmt.Sprintf("[%+.2f%%, %+.2f%%]", iv.Lo*scale, iv.Hi*scale)
	}
	return "[" + signed(iv.Lo, num(iv.Lo)) + ", " + signed(iv.Hi, num(iv.Hi)) + "]"
}

// seedsText says how many values each side had.
func seedsText(r Row) string {
	if r.BaseN == r.CandN {
		return strconv.Itoa(r.BaseN)
	}
	return fmt.Sprintf("%d/%d", r.BaseN, r.CandN)
}

func metricTitle(m Metric) string {
	tol := "tolerance " + m.Tolerance.String()
	switch {
	case m.Tolerance.Off:
		tol = "not gated"
	case !m.Tolerance.Relative:
		tol += " absolute"
	}
	return fmt.Sprintf("%s (%s; %s)", m.Name, m.Direction.better(), tol)
}

var tableHeader = []string{"group", "base", "candidate", "delta", "95% CI", "n", "verdict"}

// rightAligned marks the numeric columns of the table.
var rightAligned = []bool{false, true, true, true, false, true, false}

func tableRows(s Section) [][]string {
	var rows [][]string
	for _, r := range s.Rows {
		rows = append(rows, []string{r.Label, num(r.Base), num(r.Cand), deltaText(r), intervalText(r), seedsText(r), r.Verdict.String()})
	}
	return rows
}

func (r *Result) method() string {
	return fmt.Sprintf("%.0f%% t-interval of mean(candidate) − mean(base): of the paired differences where both sides ran the same seeds, "+
		"else Welch's; none below %d replicas a side or for identical replicas, where the tolerance alone decides", 100*Confidence, MinReplicas)
}

// SetupText says in one line what is compared and what differs.
func (r *Result) SetupText() string {
	return strings.ReplaceAll(r.setupText(func(s string) string { return s }), "\n  differs: ", "; ")
}

// setupText says what is compared: the kind of comparison and what
// differs between the sides.
func (r *Result) setupText(code func(string) string) string {
	s := r.Setup
	var b strings.Builder
	switch s.Kind {
	case "what-if":
		fmt.Fprintf(&b, "a what-if on the same workload (%s)", s.Workload)
	case "policies":
		fmt.Fprintf(&b, "policies on the same workload and cluster (%s)", s.Workload)
	case "same setup":
		fmt.Fprintf(&b, "the same setup (%s): nothing differs in run.yaml but what produced the runs", s.Workload)
	case "different workloads":
		b.WriteString("DIFFERENT WORKLOADS (compared as asked with --allow-different-workloads)")
	default:
		b.WriteString("runs without a run.yaml on some side: what differs is unknown")
	}
	for _, d := range s.Differences {
		b.WriteString("\n  differs: " + code(d))
	}
	return b.String()
}

// commonText says what every group shares, cut from the rows.
func (r *Result) commonText(code func(string) string) string {
	if r.Common == "" {
		return ""
	}
	return " (all " + code(r.Common) + ")"
}

func (r *Result) sideText(s *Side) string {
	return fmt.Sprintf("%s (%s, %s)", s.Path, s.Kind, plural(len(s.Runs), "run"))
}

// WriteText prints the comparison as aligned plain-text tables, one per
// metric, for a terminal or a CI log.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "base:      %s\ncandidate: %s\n", r.sideText(r.Base), r.sideText(r.Cand))
	fmt.Fprintf(&b, "comparing: %s\n", r.setupText(func(s string) string { return s }))
	fmt.Fprintf(&b, "%s matched%s\ninterval:  %s\n", plural(r.Groups, "group"), r.commonText(func(s string) string { return s }), r.method())
	r.writeAnswers(&b, func(s string) string { return s })
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "\n%s\n", metricTitle(s.Metric))
		writeAligned(&b, tableHeader, tableRows(s))
	}
	b.WriteString("\n")
	r.notes(&b, func(s string) string { return s }, true)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeAligned(b *strings.Builder, header []string, rows [][]string) {
	writeTable(b, header, rightAligned, rows)
}

// writeTable writes rows under header, padded to align; right marks the
// right-aligned columns.
func writeTable(b *strings.Builder, header []string, right []bool, rows [][]string) {
	width := make([]int, len(header))
	for _, row := range append([][]string{header}, rows...) {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range append([][]string{header}, rows...) {
		var line strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			if i > 0 {
				line.WriteString("  ")
			}
			if right[i] {
				line.WriteString(pad + cell)
			} else {
				line.WriteString(cell + pad)
			}
		}
		b.WriteString("  " + strings.TrimRight(line.String(), " ") + "\n")
	}
}

// notes writes unmatched groups and skipped metrics, then the verdict
// when asked.
func (r *Result) notes(b *strings.Builder, code func(string) string, verdict bool) {
	if len(r.OnlyBase) > 0 {
		fmt.Fprintf(b, "only in base (not compared): %s\n", joinCode(r.OnlyBase, code))
	}
	if len(r.OnlyCand) > 0 {
		fmt.Fprintf(b, "only in candidate (not compared): %s\n", joinCode(r.OnlyCand, code))
	}
	var where []string
	byWhere := map[string][]string{}
	for _, sk := range r.Skipped {
		if _, ok := byWhere[sk.Where]; !ok {
			where = append(where, sk.Where)
		}
		byWhere[sk.Where] = append(byWhere[sk.Where], sk.Metric)
	}
	for _, w := range where {
		noun := "summary"
		if strings.Contains(w, " and ") {
			noun = "summaries"
		}
		fmt.Fprintf(b, "not in the %s %s (not compared): %s\n", w, noun, joinCode(byWhere[w], code))
	}
	for _, n := range r.NotComparable {
		name, why, _ := strings.Cut(n, ": ")
		fmt.Fprintf(b, "not comparable: %s: %s\n", code(name), why)
	}
	for _, s := range r.Sections {
		for _, row := range s.Rows {
			if row.Verdict == NoData {
				fmt.Fprintf(b, "not comparable: %s on %s: %s\n", code(s.Metric.Name), code(row.Label), row.Why)
			}
		}
	}
	if why := r.noIntervalWhy(); why != "" {
		fmt.Fprintf(b, "no interval (%s): those verdicts weigh the change against the tolerance alone\n", why)
	}
	if !verdict {
		return
	}
	if len(r.Regressions) == 0 {
		b.WriteString("verdict: no regression past its tolerance\n")
		return
	}
	fmt.Fprintf(b, "verdict: %s past tolerance:\n", plural(len(r.Regressions), "regression"))
	for _, s := range r.Regressions {
		fmt.Fprintf(b, "- %s\n", s)
	}
}

func plural(n int, what string) string { return words.Count(n, what) }

func joinCode(xs []string, code func(string) string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = code(x)
	}
	return strings.Join(out, ", ")
}

// WriteMarkdown prints the comparison as GitHub-flavoured Markdown, for a
// pull-request comment: the verdict and the regressions first, a table of
// verdict counts per metric, then every metric's table in a collapsed
// block.
func (r *Result) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	code := func(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }
	if n := len(r.Regressions); n > 0 {
		fmt.Fprintf(&b, "### schedsim compare: %s\n\n", plural(n, "regression"))
		for _, s := range r.Sections {
			for _, row := range s.Rows {
				if row.Verdict == Regressed {
					fmt.Fprintf(&b, "- **%s** on %s: %s → %s (%s, interval %s; tolerance %s)\n", s.Metric.Name, code(row.Label),
						num(row.Base), num(row.Cand), deltaText(row), intervalText(row), s.Metric.Tolerance)
				}
			}
		}
		b.WriteString("\n")
	} else {
		b.WriteString("### schedsim compare: no regression\n\n")
	}
	fmt.Fprintf(&b, "Base %s (%s, %s) · candidate %s (%s, %s) · %s matched%s.  \n",
		code(r.Base.Path), r.Base.Kind, plural(len(r.Base.Runs), "run"), code(r.Cand.Path), r.Cand.Kind, plural(len(r.Cand.Runs), "run"),
		plural(r.Groups, "group"), r.commonText(code))
	fmt.Fprintf(&b, "Comparing %s.  \nInterval: %s.\n\n", strings.ReplaceAll(r.setupText(code), "\n  differs:", "  \nDiffers:"), r.method())
	if len(r.Answers) > 0 {
		b.WriteString("```text")
		r.writeAnswers(&b, func(s string) string { return s })
		b.WriteString("```\n\n")
	}
	b.WriteString("| metric | better | tolerance | regressed | inconclusive | improved | ~ |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Sections {
		var count [NoData + 1]int
		for _, row := range s.Rows {
			count[row.Verdict]++
		}
		tol := s.Metric.Tolerance.String()
		if !s.Metric.Tolerance.Relative && !s.Metric.Tolerance.Off {
			tol += " abs."
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d |\n", code(s.Metric.Name), s.Metric.Direction, tol,
			count[Regressed], count[Inconclusive], count[Improved], count[Same]+count[NotGated]+count[NoData])
	}
	b.WriteString("\n<details><summary>Every group, metric by metric</summary>\n")
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "\n#### %s\n\n", metricTitle(s.Metric))
		b.WriteString("| " + strings.Join(tableHeader, " | ") + " |\n|")
		for _, right := range rightAligned {
			if right {
				b.WriteString("---:|")
			} else {
				b.WriteString("---|")
			}
		}
		b.WriteString("\n")
		for _, row := range tableRows(s) {
			row[0] = code(row[0])
			if row[6] == Regressed.String() {
				row[6] = "**" + row[6] + "**"
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	b.WriteString("\n</details>\n\n")
	r.notes(&b, code, false)
	_, err := io.WriteString(w, b.String())
	return err
}

// noIntervalWhy joins the distinct reasons rows lack an interval, "" when
// every compared row has one.
func (r *Result) noIntervalWhy() string {
	var whys []string
	for _, s := range r.Sections {
		for _, row := range s.Rows {
			if row.Verdict != NoData && !row.Interval.Has() && row.Interval.Why != "" && !slices.Contains(whys, row.Interval.Why) {
				whys = append(whys, row.Interval.Why)
			}
		}
	}
	return strings.Join(whys, "; ")
}

// writeAnswers prints each target's table: per scenario, the replicas
// that meet it, each replica's value and the interval of the mean; then
// the answer in words.
func (r *Result) writeAnswers(b *strings.Builder, code func(string) string) {
	for _, a := range r.Answers {
		fmt.Fprintf(b, "\ntarget %s\n", code(a.Target.String()))
		header := []string{"side", "group", "met", "mean", "95% CI", "each replica"}
		var rows [][]string
		for _, s := range a.Scenarios {
			vals := make([]string, len(s.Values))
			for i, v := range s.Values {
				vals[i] = valueText(a.Target.Metric, v)
				if a.Target.Met(v) {
					vals[i] += " ✓"
				}
			}
			ci := "none: " + s.Interval.Why
			if s.Interval.Has() {
				ci = "[" + valueText(a.Target.Metric, s.Interval.Lo) + ", " + valueText(a.Target.Metric, s.Interval.Hi) + "]"
			}
			rows = append(rows, []string{s.Name, s.Label, fmt.Sprintf("%d of %d", s.Met, len(s.Values)),
				valueText(a.Target.Metric, s.Mean), ci, strings.Join(vals, ", ")})
		}
		writeTable(b, header, []bool{false, false, true, true, false, false}, rows)
		fmt.Fprintf(b, "answer: %s\n", a.Sentence())
	}
}
