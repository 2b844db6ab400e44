package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// GanttJob is a row of the jobs table as the Gantt chart needs it.
type GanttJob struct {
	ID, User, State string
	Start, End      float64 // s; NaN: never started, or still running at the end
	NodeList        string  // node indices as ranges, "0-3,7"
	// Procs are the job's processors in a run of the pool model
	// (metrics.AssignProcessors); nil in other runs.
	Procs metrics.IntervalSet
}

// assignPool gives the jobs of a pool-model run their processors, from
// the jobs table's tasks and request (cpu=N per task).
func assignPool(gj []GanttJob, t *table, capacity int) error {
	pj := make([]metrics.PoolJob, len(gj))
	for i, j := range gj {
		per, ok := metrics.RequestProcs(t.text["request"][i])
		if !ok {
			return fmt.Errorf("jobs row %d: request %q names no processors (cpu=N) of the pool", i+1, t.text["request"][i])
		}
		tasks := 1
		if ts := t.num["tasks"]; ts != nil && !math.IsNaN(ts[i]) {
			tasks = int(ts[i])
		}
		pj[i] = metrics.PoolJob{Start: j.Start, End: j.End, Procs: per * tasks}
	}
	sets, err := metrics.AssignProcessors(pj, capacity)
	if err != nil {
		return err
	}
	for i := range gj {
		gj[i].Procs = sets[i]
	}
	return nil
}

// ganttJobs takes the Gantt chart's columns of a jobs table.
func ganttJobs(t *table) []GanttJob {
	ids := t.text["job_id"]
	out := make([]GanttJob, len(ids))
	for i := range ids {
		out[i] = GanttJob{ID: ids[i], User: t.text["user"][i], State: t.text["state"][i],
			Start: t.num["start_s"][i], End: t.num["end_s"][i], NodeList: t.text["node_list"][i]}
	}
	return out
}

// parseNodeList reads "0-3,7" into 0, 1, 2, 3, 7.
func parseNodeList(s string) ([]int, error) {
	var out []int
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("node_list %q: bad node %q", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("node_list %q: bad range %q", s, part)
			}
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	return out, nil
}

// ganttMaxJobs is the most jobs a default Gantt window holds: a run with
// more is drawn over its busiest day, where bars are still wider than a
// pixel and the schedule is at work.
const ganttMaxJobs = 2000

// ganttBar is one job on one node (or on one run of consecutive
// processors of a pool): a rectangle from its start to its end (clipped
// to the window) over rows Row to Row+Rows−1 of the chart. A node with
// several jobs at once (a node of many processors) gets one row per job
// running on it at the same time, its lanes; a job on several nodes
// takes the same lane on each.
type ganttBar struct {
	Job        int // index in Run.Jobs
	Node, Lane int
	Row, Rows  int     // from the bottom, over every node's lanes
	X0, X1     float64 // s, trace clock
}

// ganttRunning is a job that ran some time in a window.
type ganttRunning struct {
	job        int
	start, end float64
}

// runningIn lists the jobs that ran some time in [from, to), by start:
// jobs that never started have no bar; a job still running at the end of
// the run ends at runEnd.
func runningIn(jobs []GanttJob, from, to, runEnd float64) []ganttRunning {
	var in []ganttRunning
	for i, j := range jobs {
		if math.IsNaN(j.Start) {
			continue
		}
		end := j.End
		if math.IsNaN(end) {
			end = runEnd
		}
		if end <= j.Start || j.Start >= to || end <= from { // ran no time in the window
			continue
		}
		in = append(in, ganttRunning{i, j.Start, end})
	}
	sort.SliceStable(in, func(a, b int) bool {
		if in[a].start != in[b].start {
			return in[a].start < in[b].start
		}
		return in[a].job < in[b].job
	})
	return in
}

// poolLayout lays out a pool-model run's jobs in [from, to): one bar per
// run of consecutive processors of each job's assignment, the row its
// processor.
func poolLayout(jobs []GanttJob, from, to, runEnd float64) []ganttBar {
	var bars []ganttBar
	for _, p := range runningIn(jobs, from, to, runEnd) {
		for _, iv := range jobs[p.job].Procs {
			bars = append(bars, ganttBar{Job: p.job, Node: 0, Row: iv.Lo, Rows: iv.Hi - iv.Lo + 1,
				X0: math.Max(p.start, from), X1: math.Min(p.end, to)})
		}
	}
	return bars
}

// ganttLayout lays out the jobs running in [from, to) (trace seconds):
// their bars, and each node shown with its first row and its lanes, by
// node index: every node below allNodes (an idle one as one empty row)
// and any other node a job ran on.
func ganttLayout(jobs []GanttJob, from, to, runEnd float64, allNodes int) (bars []ganttBar, nodes []ganttNode, err error) {
	type placed struct {
		ganttRunning
		nodes []int
	}
	var in []placed
	for _, r := range runningIn(jobs, from, to, runEnd) {
		ns, err := parseNodeList(jobs[r.job].NodeList)
		if err != nil {
			return nil, nil, fmt.Errorf("job %s: %w", jobs[r.job].ID, err)
		}
		if len(ns) > 0 {
			in = append(in, placed{r, ns})
		}
	}
	// laneEnd[node][lane] is when the lane's last job ends.
	laneEnd := map[int][]float64{}
	lanes := map[int]int{}
	for n := range allNodes {
		lanes[n] = 1
	}
	for _, p := range in {
		lane := 0
		for ; ; lane++ {
			free := true
			for _, n := range p.nodes {
				if e := laneEnd[n]; lane < len(e) && e[lane] > p.start {
					free = false
					break
				}
			}
			if free {
				break
			}
		}
		for _, n := range p.nodes {
			for len(laneEnd[n]) <= lane {
				laneEnd[n] = append(laneEnd[n], math.Inf(-1))
			}
			laneEnd[n][lane] = p.end
			lanes[n] = max(lanes[n], lane+1)
			bars = append(bars, ganttBar{Job: p.job, Node: n, Lane: lane, Rows: 1,
				X0: math.Max(p.start, from), X1: math.Min(p.end, to)})
		}
	}
	for n, k := range lanes {
		nodes = append(nodes, ganttNode{Index: n, Lanes: k})
	}
	sort.Slice(nodes, func(a, b int) bool { return nodes[a].Index < nodes[b].Index })
	first := map[int]int{}
	row := 0
	for i := range nodes {
		nodes[i].FirstRow = row
		first[nodes[i].Index] = row
		row += nodes[i].Lanes
	}
	for i := range bars {
		bars[i].Row = first[bars[i].Node] + bars[i].Lane
	}
	return bars, nodes, nil
}

// ganttNode is a node of the chart: its index, its first row and its
// lanes.
type ganttNode struct{ Index, FirstRow, Lanes int }

// ganttWindow is the window drawn for a run, in trace seconds, and how
// the caption describes it: --gantt-window's; the whole run when it has
// at most ganttMaxJobs jobs; else the day (local midnight to midnight
// when the calendar is known) in which the most jobs started.
func ganttWindow(r *Run, t0, tn float64, opts Options) (from, to float64, what string) {
	w := opts.GanttWindow
	switch {
	case w[1] > w[0]:
		return t0 + w[0], t0 + w[1], fmt.Sprintf("the window %s to %s after the first event (--gantt-window)",
			durationText(w[0]), durationText(w[1]))
	case len(r.Jobs) <= ganttMaxJobs:
		return t0, math.Max(tn, t0+1), "the whole run"
	}
	from, n := busiestDay(r, t0)
	day := fmt.Sprintf("day %d after the first event", int((from-t0)/86400)+1)
	if r.Epoch != nil {
		day = r.Epoch.Add(time.Duration(from * float64(time.Second))).In(r.location()).Format("Mon 2 January 2006")
	}
	to = from + 86400
	if r.Epoch != nil { // a local day is 23 or 25 hours across a daylight-saving change
		start := r.Epoch.Add(time.Duration(from * float64(time.Second))).In(r.location())
		to = from + start.AddDate(0, 0, 1).Sub(start).Seconds()
	}
	return from, to, fmt.Sprintf("the busiest day, %s, when %s started (the run has %s; "+
		"--gantt-window FROM,TO picks another span)", day, words.Count(n, "job"), words.Count(len(r.Jobs), "job"))
}

// busiestDay is the start (trace seconds) of the day in which the most
// jobs started, the earliest on a tie, and how many started in it. Days
// are local calendar days when the epoch is known, else days since t0.
func busiestDay(r *Run, t0 float64) (float64, int) {
	dayOf := func(t float64) float64 { return t0 + math.Floor((t-t0)/86400)*86400 }
	if r.Epoch != nil {
		loc := r.location()
		dayOf = func(t float64) float64 {
			at := r.Epoch.Add(time.Duration(t * float64(time.Second))).In(loc)
			y, m, d := at.Date()
			return time.Date(y, m, d, 0, 0, 0, 0, loc).Sub(*r.Epoch).Seconds()
		}
	}
	count := map[float64]int{}
	for _, j := range r.Jobs {
		if !math.IsNaN(j.Start) {
			count[dayOf(j.Start)]++
		}
	}
	best, most := t0, -1
	for d, n := range count {
		if n > most || n == most && d < best {
			best, most = d, n
		}
	}
	return best, max(most, 0)
}

// location is the zone of the run's calendar axes.
func (r *Run) location() *time.Location {
	if r.Loc == nil {
		return time.UTC
	}
	return r.Loc
}

// ganttFigures draws one Gantt chart per run.
func ganttFigures(runs []*Run, lt legendText, opts Options) ([]Figure, error) {
	var figs []Figure
	for i, r := range runs {
		name := "gantt"
		if len(runs) > 1 {
			name = fmt.Sprintf("gantt_%d", i+1)
		}
		f, ok, err := ganttFigure(r, lt, i, name, opts)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", name, err)
		}
		if ok {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// ganttFigure draws run r's jobs as bars on their nodes (on their
// processors, in the pool model) over its window, coloured by user or by
// state. ok is false when no job ran in the window.
func ganttFigure(r *Run, lt legendText, i int, name string, opts Options) (f Figure, ok bool, err error) {
	t0, tn := r.timeRange()
	from, to, what := ganttWindow(r, t0, tn, opts)
	pool := r.PoolProcs > 0
	var bars []ganttBar
	var nodes []ganttNode
	if pool {
		bars = poolLayout(r.Jobs, from, to, tn)
	} else if bars, nodes, err = ganttLayout(r.Jobs, from, to, tn, r.ClusterNodes); err != nil {
		return f, false, err
	}
	if len(bars) == 0 {
		return f, false, nil
	}
	by := opts.GanttColor
	if by == "" {
		by = "user"
	}
	keys, colors := ganttColors(r.Jobs, bars, by)
	title := "Jobs on nodes"
	if pool {
		title = "Jobs on processors"
	}
	if len(lt.Entries) > 1 {
		title += ": " + lt.Entries[i]
	}
	f = Figure{Name: name, Title: title}
	ylabel := "node (index)"
	if pool {
		ylabel = "processor (index)"
	}
	p := runsPlot(title, "", ylabel, lt)
	ax := newTimeAxis(to-from, r.Epoch, r.Loc)
	ax.apply(p)
	gb := &ganttBars{bars: bars, x: func(t float64) float64 { return ax.x(t, t0) }, color: func(b ganttBar) color.Color {
		return colors[ganttKey(r.Jobs[b.Job], by)]
	}}
	p.Add(gb)
	p.X.Min, p.X.Max = ax.x(from, t0), ax.x(to, t0)
	var rows int
	if pool {
		rows = r.PoolProcs
		p.Y.Tick.Marker = cleanTicks{}
	} else {
		rows = nodes[len(nodes)-1].FirstRow + nodes[len(nodes)-1].Lanes
		p.Y.Tick.Marker = nodeTicks(nodes)
	}
	p.Y.Min, p.Y.Max = 0, float64(rows)
	leg := outsideLegend()
	leg.ThumbnailWidth = vg.Points(10)
	for _, k := range keys {
		label := k
		if label == "" {
			label = "(none)"
		}
		leg.Add(label, swatch{colors[k], colors[k]})
	}
	f.Legend = leg
	if pool {
		f.Caption = fmt.Sprintf("Each bar: a job from its start to its end on its processors of the pool of %s "+
			"(schedsim numbers them for display as Batsim allocates hosts: the narrowest free run that fits); "+
			"over %s; %s; colour: %s.", words.Count(r.PoolProcs, "processor"), what,
			words.Count(countJobs(bars), "job"), ganttColorText(by))
	} else {
		lanes := ""
		if rows > len(nodes) {
			lanes = " A node running several jobs at once is split into that many rows."
		}
		f.Caption = fmt.Sprintf("Each bar: a job from its start to its end on each node of its node_list, over %s; "+
			"%s on %s; colour: %s.%s", what, words.Count(countJobs(bars), "job"), words.Count(len(nodes), "node"),
			ganttColorText(by), lanes)
	}
	f.Plot = p
	return f, true, nil
}

// timeRange is the run's first and last event: the time series', else
// the jobs' submits and ends.
func (r *Run) timeRange() (t0, tn float64) {
	if len(r.Time) > 0 {
		return r.Time[0], r.Time[len(r.Time)-1]
	}
	t0, tn = math.Inf(1), math.Inf(-1)
	for _, j := range r.Jobs {
		for _, t := range []float64{j.Start, j.End} {
			if !math.IsNaN(t) {
				t0, tn = math.Min(t0, t), math.Max(tn, t)
			}
		}
	}
	if math.IsInf(t0, 1) {
		return 0, 0
	}
	return t0, tn
}

func countJobs(bars []ganttBar) int {
	seen := map[int]bool{}
	for _, b := range bars {
		seen[b.Job] = true
	}
	return len(seen)
}

// ganttMaxKeys is the most users (or states) with a colour of their own;
// the others share grey.
const ganttMaxKeys = 9 // tolMuted's colours

// ganttOthers is the legend entry of the users without a colour.
const ganttOthers = "other users"

// stateColors are the job states' colours, Okabe and Ito's: done
// bluish green, killed vermillion, running blue.
var stateColors = map[string]color.Color{
	"completed": okabeIto[2],
	"killed":    okabeIto[1],
	"running":   okabeIto[0],
}

// ganttKey is what colours a job: its user or its state.
func ganttKey(j GanttJob, by string) string {
	if by == "state" {
		return j.State
	}
	return j.User
}

// ganttColors gives the colour of every key in the window, and the keys
// in legend order: the ganttMaxKeys users with the most node·seconds in
// the window (ties by name), then the other users in grey; by state, the
// states in name order.
func ganttColors(jobs []GanttJob, bars []ganttBar, by string) ([]string, map[string]color.Color) {
	area := map[string]float64{}
	for _, b := range bars {
		area[ganttKey(jobs[b.Job], by)] += b.X1 - b.X0
	}
	keys := make([]string, 0, len(area))
	for k := range area {
		keys = append(keys, k)
	}
	colors := map[string]color.Color{}
	grey := color.Gray{Y: 0xb0}
	if by == "state" {
		sort.Strings(keys)
		for _, k := range keys {
			colors[k] = grey
			if c, ok := stateColors[k]; ok {
				colors[k] = c
			}
		}
		return keys, colors
	}
	sort.Slice(keys, func(a, b int) bool {
		if area[keys[a]] != area[keys[b]] {
			return area[keys[a]] > area[keys[b]]
		}
		return keys[a] < keys[b]
	})
	pal := tolMuted
	for k, key := range keys {
		if k < ganttMaxKeys {
			colors[key] = pal[k]
		} else {
			colors[key] = grey
		}
	}
	if len(keys) > ganttMaxKeys {
		keys = append(keys[:ganttMaxKeys:ganttMaxKeys], ganttOthers)
		colors[ganttOthers] = grey
	}
	return keys, colors
}

func ganttColorText(by string) string {
	if by == "state" {
		return "the job's final state"
	}
	return fmt.Sprintf("the job's user (the %d with the most node·time in the window; grey: the others)", ganttMaxKeys)
}

// ganttBars draws the bars, each with a thin white edge so that jobs
// following each other on a lane stay apart.
type ganttBars struct {
	bars  []ganttBar
	x     func(float64) float64
	color func(ganttBar) color.Color
}

func (g *ganttBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	edge := draw.LineStyle{Color: color.White, Width: vg.Points(0.3)}
	for _, b := range g.bars {
		x0, x1 := trX(g.x(b.X0)), trX(g.x(b.X1))
		y0, y1 := trY(float64(b.Row)), trY(float64(b.Row+max(b.Rows, 1)))
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(g.color(b), c.ClipPolygonXY(pts))
		if x1-x0 > vg.Points(2) && y1-y0 > vg.Points(3) { // thinner: the edge would hide the bar
			c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
		}
	}
}

func (g *ganttBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, b := range g.bars {
		xmin, xmax = math.Min(xmin, g.x(b.X0)), math.Max(xmax, g.x(b.X1))
		ymax = math.Max(ymax, float64(b.Row+max(b.Rows, 1)))
	}
	return xmin, xmax, 0, ymax
}

// nodeTicks label the nodes' bands by node index, at most about twenty
// labels, with an unlabelled tick at every band's edge when there are few
// enough to see.
func nodeTicks(nodes []ganttNode) plot.TickerFunc {
	return func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		every := (len(nodes) + 19) / 20
		for i, n := range nodes {
			if i%every == 0 {
				ts = append(ts, plot.Tick{Value: float64(n.FirstRow) + float64(n.Lanes)/2, Label: strconv.Itoa(n.Index)})
			}
			if len(nodes) <= 200 {
				ts = append(ts, plot.Tick{Value: float64(n.FirstRow)})
			}
		}
		return ts
	}
}
