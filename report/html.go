package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"

	"github.com/schedsim/schedsim/metrics"
)

// page is the data of index.html.
type page struct {
	Answers     []pageAnswer
	Comparisons []pageComparison
	Runs        []pageRun
	Summary     summaryTable
	Figures     []pageFigure // the runs' figures
	Sweeps      []pageSweep
	// Compared are the figures of several sweeps side by side.
	Compared []pageFigure
	Openb    []pageOpenb
}

// pageAnswer is a planner's question at the top of the page: the answer
// in words and its figure.
type pageAnswer struct {
	Sentence string
	Figure   pageFigure
}

// pageComparison is a table of effects of one sweep against the base.
type pageComparison struct {
	Title, Setup, File string
	Header             []string
	Rows               [][]string
}

// lead is what the page shows before the runs: the answers and the
// comparisons of sweeps.
type lead struct {
	answers     []Answer
	figures     []Figure
	comparisons []Comparison
	differs     Differs
}

// pageOpenb is an openb output's section: its figures and its summary as
// written.
type pageOpenb struct {
	Name, Dir string
	Figures   []pageFigure
	Header    []string
	Rows      [][]string
}

type pageRun struct {
	N     int
	Label string
	Short string // what sets the run apart, the table's header
	Dir   string
	Color string // CSS colour, the run's palette entry
}

type pageFigure struct {
	Name, Title, Caption string
	Look                 string       // what to look for, the caption's first line
	PNG                  template.URL // data URI: the page needs no other file
}

type pageRow struct {
	Name   string
	Values []pageCell // per run; empty when that run has no such column or a null
}

// pageCell is a summary value as shown, rounded to be read, the exact
// value from summary.csv (a tooltip) when rounding changed it, and
// whether it is the best of its row.
type pageCell struct {
	Text, Exact string
	Best        bool
}

// pageSweep is a sweep's section: its figures and its points, one row per
// parameter combination, the Pareto front marked.
type pageSweep struct {
	Name, Dir string
	Runs      int
	Notes     []string
	Figures   []pageFigure
	Header    []string
	Rows      []pageSweepRow
}

type pageSweepRow struct {
	Front bool
	Cells []string
}

// sweepTableMetrics are the summary columns of the sweep table, when the
// sweep has values in them (cost and carbon are null without their
// series): the Pareto objectives and the usual companions.
var sweepTableMetrics = []string{metrics.ColMeanWait, metrics.ColP95Wait, metrics.ColMeanBSLD, metrics.ColJainBSLD, metrics.ColJainUsageShare, metrics.ColUtilization,
	metrics.FragPrefix + "cpu", metrics.ColEnergyKWh, metrics.ColEnergyCost, metrics.ColCarbonKg}

// indexTmpl is the whole page: inline CSS, no scripts, no external
// resources, so it renders the same from file://, a CI artifact or mail.
var indexTmpl = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>schedsim report</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; font-family: monospace; }
tr.front td { font-weight: bold; background: #f4f4f4; }
td.best { font-weight: bold; background: #eef6ee; }
details { margin: 1em 0; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }
figure { margin: 2em 0; }
figure img { max-width: 100%; height: auto; box-sizing: border-box; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
.scroll { overflow-x: auto; }
</style>
</head>
<body>
<h1>schedsim report</h1>
{{range .Answers}}<h2>The answer</h2>
<p><strong>{{.Sentence}}</strong></p>
{{template "figure" .Figure}}{{end}}
{{- range .Comparisons}}<h2>Effects: {{.Title}}</h2>
<p>{{.Setup}}</p>
{{if .Rows}}<div class="scroll"><table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
<p>Change of the mean over replicas, in % of the base, with the 95 % t-interval of the paired differences (Welch's when the seeds differ), as <code>schedsim compare</code> computes it; every row unrounded in <a href="{{.File}}">{{.File}}</a>.</p>
{{end}}{{end}}{{if .Runs}}<h2>Runs</h2>
<ol>
{{range .Runs}}<li><span class="swatch" style="background:{{.Color}}"></span>{{.Label}} <small>({{.Dir}})</small></li>
{{end}}</ol>
<h2>Summary</h2>
{{with .Summary}}{{if .Rows}}<table>
<tr><th>metric</th>{{range $.Runs}}<th><span class="swatch" style="background:{{.Color}}"></span>{{.Short}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Values}}<td{{if .Exact}} title="{{.Exact}}"{{end}}{{if .Best}} class="best"{{end}}>{{.Text}}{{if .Best}} ★{{end}}</td>{{end}}</tr>
{{end}}</table>
<p>★ the best run of each row (lowest wait, slowdown and energy; highest utilization and Jain's index), marked only where it beats every other run by more than <code>schedsim compare</code>'s tolerance for that metric. Hover over a value for the exact number in <code>summary.csv</code>.</p>
{{end}}{{if .Same}}<p>{{if gt (len $.Runs) 1}}The same in every run{{else}}Zero{{end}}: {{range $i, $s := .Same}}{{if $i}}; {{end}}{{$s}}{{end}}.</p>
{{end}}<details><summary>Every column of <code>summary.csv</code>, exact values</summary>
<div class="scroll"><table>
<tr><th>column</th>{{range $.Runs}}<th>run {{.N}}</th>{{end}}</tr>
{{range .Details}}<tr><td>{{.Name}}</td>{{range .Values}}<td>{{.Text}}</td>{{end}}</tr>
{{end}}</table></div>
<p><code>wall_s</code>, <code>events_per_s</code> and <code>jobs_per_s</code> measure the machine, not the schedule.</p>
</details>
{{end}}{{range .Figures}}{{template "figure" .}}{{end}}{{end}}
{{- if .Compared}}<h2>Sweeps compared</h2>
<p>Each sweep's parameter combinations side by side, with the spread of their replicas.</p>
{{range .Compared}}{{template "figure" .}}{{end}}{{end}}
{{- range .Sweeps}}<h2>Sweep {{.Name}}</h2>
<p><small>{{.Dir}}</small>: {{.Runs}} runs.</p>
{{range .Notes}}<p>{{.}}</p>
{{end}}{{range .Figures}}{{template "figure" .}}{{end}}{{if .Rows}}<h3>Parameter combinations (means over seeds)</h3>
<div class="scroll"><table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Front}} class="front"{{end}}>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
<p>Bold, <code>front</code> = yes: on the Pareto front (mean wait, Jain's index of bounded slowdown, energy).</p>
{{end}}{{end}}
{{- range .Openb}}<h2>GPU placement: {{.Name}}</h2>
<p><small>{{.Dir}}</small></p>
{{range .Figures}}{{template "figure" .}}{{end}}{{if .Rows}}<h3>Summary (openb_summary.csv)</h3>
<div class="scroll"><table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
{{end}}{{end}}</body>
</html>
{{define "figure"}}<figure id="{{.Name}}">
<h2>{{.Title}}</h2>
<img src="{{.PNG}}" alt="{{.Title}}">
<figcaption>{{if .Look}}<strong>{{.Look}}</strong><br>{{end}}{{.Caption}} Also as <a href="{{.Name}}.svg">{{.Name}}.svg</a> and <a href="{{.Name}}.png">{{.Name}}.png</a>.</figcaption>
</figure>
{{end}}`))

// renderIndex renders index.html: runs with their colours, the summary
// table (metrics as rows, runs as columns: there are more metrics than
// runs), the runs' figures with their PNGs inline, then each sweep's
// figures and table.
func renderIndex(in *Inputs, runFigs []Figure, views []*sweepView, compared []Figure, openbFigs [][]Figure, pngs map[string][]byte, ld lead) ([]byte, error) {
	runs := in.Runs
	var pg page
	for i, a := range ld.answers {
		pg.Answers = append(pg.Answers, pageAnswer{Sentence: a.Sentence, Figure: pageFigures(ld.figures[i:i+1], pngs)[0]})
	}
	for _, c := range ld.comparisons {
		pc := pageComparison{Title: c.Title, Setup: c.Setup, File: c.File,
			Header: []string{"metric", "group", "base", "candidate", "change", "95% interval", "n", "verdict"}}
		for _, e := range c.Effects {
			pc.Rows = append(pc.Rows, effectCells(e))
		}
		pg.Comparisons = append(pg.Comparisons, pc)
	}
	for i, o := range in.Openb {
		pg.Openb = append(pg.Openb, pageOpenb{Name: o.Name, Dir: o.Dir, Figures: pageFigures(openbFigs[i], pngs),
			Header: o.SummaryCols, Rows: o.SummaryRows})
	}
	lt := reduceLabels(runs)
	for i, r := range runs {
		short := lt.Entries[i]
		if len(runs) == 1 {
			short = "run 1"
		}
		pg.Runs = append(pg.Runs, pageRun{N: i + 1, Label: r.Label, Short: short, Dir: r.Dir, Color: cssColor(runColor(i))})
	}
	pg.Summary = buildSummary(runs, ld.differs)
	pg.Figures = pageFigures(runFigs, pngs)
	pg.Compared = pageFigures(compared, pngs)
	for _, v := range views {
		pg.Sweeps = append(pg.Sweeps, sweepSection(v, pngs))
	}
	var buf bytes.Buffer
	if err := indexTmpl.Execute(&buf, pg); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func pageFigures(figs []Figure, pngs map[string][]byte) []pageFigure {
	var out []pageFigure
	for _, f := range figs {
		uri := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngs[f.Name])
		out = append(out, pageFigure{Name: f.Name, Title: f.Title, Look: lookFor(f.Name), Caption: f.Caption, PNG: template.URL(uri)})
	}
	return out
}

// sweepSection lays out a sweep's table: one row per parameter
// combination with the varying parameters, the runs averaged, the metrics
// the sweep has, and whether it is on the Pareto front.
func sweepSection(v *sweepView, pngs map[string][]byte) pageSweep {
	s := v.Sweep
	ps := pageSweep{Name: s.Name, Dir: s.Dir, Runs: len(s.Rows), Notes: v.Notes, Figures: pageFigures(v.Figures, pngs)}
	var cols []string
	for _, m := range sweepTableMetrics {
		if s.hasValues(m) {
			cols = append(cols, m)
		}
	}
	front := map[string]bool{}
	for _, p := range v.Points {
		front[p.Runs[0]] = p.Front
	}
	ps.Header = append(ps.Header, "first run")
	for _, p := range s.Varying {
		ps.Header = append(ps.Header, shortParam(p))
	}
	ps.Header = append(ps.Header, "runs")
	ps.Header = append(ps.Header, cols...)
	ps.Header = append(ps.Header, "front")
	for _, pt := range s.points(cols) {
		row := pageSweepRow{Front: front[pt.Runs[0]]}
		row.Cells = append(row.Cells, pt.Runs[0])
		for _, p := range s.Varying {
			row.Cells = append(row.Cells, pt.Params[p])
		}
		row.Cells = append(row.Cells, strconv.Itoa(len(pt.Runs)))
		for _, c := range cols {
			cell := ""
			if x := pt.Metrics[c]; !math.IsNaN(x) {
				cell = compact(x)
			}
			row.Cells = append(row.Cells, cell)
		}
		mark := ""
		if row.Front {
			mark = "yes"
		}
		row.Cells = append(row.Cells, mark)
		ps.Rows = append(ps.Rows, row)
	}
	return ps
}

func cssColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
