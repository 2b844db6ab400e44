package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"image/color"
	"io"
)

// page is the data of index.html.
type page struct {
	Runs    []pageRun
	Figures []pageFigure
	Rows    []pageRow
}

type pageRun struct {
	N     int
	Label string
	Dir   string
	Color string // CSS colour, the run's palette entry
}

type pageFigure struct {
	Name, Title, Caption string
	PNG                  template.URL // data URI: the page needs no other file
}

type pageRow struct {
	Name   string
	Values []string // per run; "" when that run has no such column
}

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
.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }
figure { margin: 2em 0; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
</style>
</head>
<body>
<h1>schedsim report</h1>
<h2>Runs</h2>
<ol>
{{range .Runs}}<li><span class="swatch" style="background:{{.Color}}"></span>{{.Label}} <small>({{.Dir}})</small></li>
{{end}}</ol>
<h2>Summary</h2>
<table>
<tr><th>metric</th>{{range .Runs}}<th><span class="swatch" style="background:{{.Color}}"></span>run {{.N}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Values}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p>Column definitions: README, "Outputs and metric definitions". <code>wall_s</code>, <code>events_per_s</code> and <code>jobs_per_s</code> measure the machine, not the schedule.</p>
{{range .Figures}}<figure id="{{.Name}}">
<h2>{{.Title}}</h2>
<img src="{{.PNG}}" alt="{{.Title}}">
<figcaption>{{.Caption}} Also as <a href="{{.Name}}.svg">{{.Name}}.svg</a> and <a href="{{.Name}}.png">{{.Name}}.png</a>.</figcaption>
</figure>
{{end}}</body>
</html>
`))

// writeIndex renders index.html: runs with their colours, the summary
// table (metrics as rows, runs as columns: there are more metrics than
// runs), then every figure with its PNG inline.
func writeIndex(w io.Writer, runs []*Run, figs []Figure, pngs map[string][]byte) error {
	var pg page
	for i, r := range runs {
		pg.Runs = append(pg.Runs, pageRun{N: i + 1, Label: r.Label, Dir: r.Dir, Color: cssColor(runColor(i))})
	}
	seen := map[string]bool{}
	for _, r := range runs {
		for _, c := range r.SummaryCols {
			if seen[c] {
				continue
			}
			seen[c] = true
			row := pageRow{Name: c}
			for _, r2 := range runs {
				row.Values = append(row.Values, r2.SummaryVals[c])
			}
			pg.Rows = append(pg.Rows, row)
		}
	}
	for _, f := range figs {
		uri := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngs[f.Name])
		pg.Figures = append(pg.Figures, pageFigure{Name: f.Name, Title: f.Title, Caption: f.Caption, PNG: template.URL(uri)})
	}
	return indexTmpl.Execute(w, pg)
}

func cssColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
