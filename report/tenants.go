package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// Tenant is one row of a run's tenants table: what the fairness bars need.
type Tenant struct {
	Name        string
	MeanBSLD    float64 // NaN: no ended job
	Usage       float64 // main-resource unit·seconds
	UsageShare  float64 // of all tenants' usage
	TargetShare float64 // 0: the shares omit the tenant
}

// UsageRatio is usage_share ÷ target_share: 1 when the tenant got its
// share; NaN when it has no target.
func (t Tenant) UsageRatio() float64 {
	if t.TargetShare <= 0 {
		return math.NaN()
	}
	return t.UsageShare / t.TargetShare
}

// maxTenants bounds the groups of a fairness chart: a trace with hundreds
// of users would give unreadable bars, so the chart keeps the tenants with
// the most usage and says how many it left out.
const maxTenants = 12

// readTenants reads dir/tenants.*; a run directory without one (written
// before the table existed) has no tenants, which is not an error.
func readTenants(dir string) ([]Tenant, error) {
	if _, _, err := findTable(dir, "tenants"); err != nil {
		return nil, nil
	}
	tb, err := readTable(dir, "tenants", tableSpec{
		num:  []string{"mean_bsld", "usage", "usage_share", "target_share"},
		text: []string{"tenant"},
	})
	if err != nil {
		return nil, err
	}
	names := tb.text["tenant"]
	out := make([]Tenant, len(names))
	for i, n := range names {
		out[i] = Tenant{Name: n, MeanBSLD: tb.num["mean_bsld"][i], Usage: tb.num["usage"][i],
			UsageShare: tb.num["usage_share"][i], TargetShare: tb.num["target_share"][i]}
	}
	return out, nil
}

// topTenants returns the tenants to chart, most usage first (summed over
// runs; ties by name, so the order is deterministic), and how many others
// there are.
func topTenants(runs []*Run) ([]string, int) {
	usage := map[string]float64{}
	for _, r := range runs {
		for _, t := range r.Tenants {
			u := t.Usage
			if math.IsNaN(u) {
				u = 0
			}
			usage[t.Name] += u
		}
	}
	names := make([]string, 0, len(usage))
	for n := range usage {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool {
		if usage[names[a]] != usage[names[b]] {
			return usage[names[a]] > usage[names[b]]
		}
		return names[a] < names[b]
	})
	if len(names) > maxTenants {
		return names[:maxTenants], len(names) - maxTenants
	}
	return names, 0
}

// tenantFigures draws the fairness charts, one group of bars per tenant
// and one bar per run: mean bounded slowdown, and usage share ÷ target
// share when some run configured the shares (without, every target is an
// equal split the planner never asked for). None when no run has a
// tenants table.
func tenantFigures(runs []*Run, lt legendText, size Size) ([]Figure, error) {
	names, others := topTenants(runs)
	if len(names) == 0 {
		return nil, nil
	}
	which := "every tenant"
	if others > 0 {
		which = fmt.Sprintf("the %s with the most usage (%d others not shown)", words.Count(len(names), "tenant"), others)
	}
	if slices.Contains(names, "") {
		which += " (\"(none)\": the jobs whose trace gives no user, group or queue)"
	}
	bsld, err := tenantBars(runs, lt, size, names, "tenant_bsld", "Mean bounded slowdown per tenant",
		"mean bounded slowdown (ratio, log scale)", metrics.ColJainBSLD,
		func(t Tenant) float64 { return t.MeanBSLD }, false)
	if err != nil {
		return nil, err
	}
	bsld.Caption = "Mean bounded slowdown of each tenant's ended jobs (log scale: runs differ by orders of magnitude), for " + which +
		"; legend: Jain's index over all tenants (jain_bsld). No bar: no ended job."
	if !anyRun(runs, func(r *Run) bool { return r.SharesConfigured }) {
		return []Figure{bsld}, nil
	}
	share, err := tenantBars(runs, lt, size, names, "tenant_usage_share", "Usage ÷ share per tenant",
		"usage share ÷ target share (ratio)", metrics.ColJainUsageShare,
		func(t Tenant) float64 { return t.UsageRatio() }, true)
	if err != nil {
		return nil, err
	}
	share.Caption = "Each tenant's share of the usage (resource·seconds) divided by its target share, for " + which +
		"; dashed line: 1, its fair share. Legend: Jain's index over all tenants (jain_usage_share). No bar: no target share."
	return []Figure{bsld, share}, nil
}

// tenantBars draws value(tenant) for every run as grouped bars; fairLine
// adds a dashed line at 1.
func tenantBars(runs []*Run, lt legendText, size Size, names []string, name, title, ylabel, jainCol string, value func(Tenant) float64, fairLine bool) (Figure, error) {
	f := Figure{Name: name, Title: title}
	p := runsPlot(title, "tenant", ylabel, lt)
	f.Legend = runsLegend(runs)
	legendW := vg.Length(0)
	if f.Legend != nil {
		legendW = 2 * vg.Inch
	}
	// One unit on x per tenant; the bars of a group fill 80 % of it. The
	// data area is the figure less about an inch of axis and margins and
	// the legend's strip.
	// Bounded slowdowns (≥ 1) on a log axis from 1, bars rising from it;
	// ratios on a linear axis from 0.
	floor := 0.0
	if !fairLine {
		floor = 1
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	figW, _ := size.inches()
	unit := (figW - vg.Inch - legendW) / vg.Length(len(names))
	width := unit * 0.8 / vg.Length(len(runs))
	for i, r := range runs {
		byName := make(map[string]Tenant, len(r.Tenants))
		for _, t := range r.Tenants {
			byName[t.Name] = t
		}
		vals := make(plotter.Values, len(names))
		for k, n := range names {
			v := math.NaN()
			if t, ok := byName[n]; ok {
				v = value(t)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				v = 0 // no bar
			}
			vals[k] = v
		}
		if len(r.Tenants) == 0 {
			continue
		}
		b := &floorBars{vals: vals, width: width, offset: width * (vg.Length(i) - vg.Length(len(runs)-1)/2),
			color: runColor(i), floor: floor}
		p.Add(b)
		if f.Legend != nil {
			f.Legend.Add(jainLabel(r, lt.Entries[i], jainCol), swatch{runColor(i), runColor(i)})
		} else {
			p.Title.Text += " (" + jainLabel(r, "", jainCol) + ")"
		}
	}
	p.NominalX(mapStrings(names, tenantTick)...)
	if longest(names) > 6 || len(names) > 8 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	p.Y.Min = floor
	if floor > 0 && p.Y.Max < 10 {
		p.Y.Max = 10 // a log axis needs a span, even when every slowdown is 1
	}
	if fairLine {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(names)) - 0.5, Y: 1}})
		if err != nil {
			return f, err
		}
		l.Color = plotter.DefaultLineStyle.Color
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		if p.Y.Max < 1 {
			p.Y.Max = 1
		}
	}
	f.Plot = p
	return f, nil
}

// tenantTick is a tenant's axis label: a trace without users (groups,
// queues) puts every job in the tenant "", which would get no label.
func tenantTick(name string) string {
	if name == "" {
		return "(none)"
	}
	return name
}

// jainLabel is a run's legend entry with its Jain index from the summary.
func jainLabel(r *Run, entry, col string) string {
	v, err := strconv.ParseFloat(r.SummaryVals[col], 64)
	if err != nil {
		return entry
	}
	if entry == "" {
		return "Jain " + strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strings.TrimSpace(fmt.Sprintf("%s (Jain %s)", entry, strconv.FormatFloat(v, 'f', 3, 64)))
}

func longest(names []string) int {
	n := 0
	for _, s := range names {
		n = max(n, len([]rune(s)))
	}
	return n
}

// floorBars are one run's bars, one per tenant at x = its index (offset
// within the group), rising from floor: 0 on a linear axis, 1 on the log
// axis of bounded slowdowns. A value at or below the floor has no bar.
type floorBars struct {
	vals          []float64
	width, offset vg.Length
	color         color.Color
	floor         float64
}

func (b *floorBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for k, v := range b.vals {
		if !(v > b.floor) {
			continue
		}
		x := trX(float64(k)) + b.offset
		y0, y1 := trY(b.floor), trY(v)
		pts := []vg.Point{{X: x - b.width/2, Y: y0}, {X: x + b.width/2, Y: y0}, {X: x + b.width/2, Y: y1}, {X: x - b.width/2, Y: y1}}
		c.FillPolygon(b.color, c.ClipPolygonY(pts))
	}
}

func (b *floorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymax = b.floor
	for _, v := range b.vals {
		ymax = math.Max(ymax, v)
	}
	return -0.5, float64(len(b.vals)) - 0.5, b.floor, ymax
}
