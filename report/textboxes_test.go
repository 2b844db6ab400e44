package report

import (
	"context"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsim/schedsim/sim/run"
)

// textBox is where a string was drawn: its box on the canvas, from the
// font's metrics (advance width, ascent and descent).
type textBox struct {
	text                   string
	minX, minY, maxX, maxY vg.Length
}

// textRecorder is a vg.Canvas that draws nothing and records the box of
// every string, through the rotations and translations gonum applies.
type textRecorder struct {
	m     [6]float64 // affine: x' = m0·x + m1·y + m2, y' = m3·x + m4·y + m5
	stack [][6]float64
	boxes []textBox
}

func newTextRecorder() *textRecorder { return &textRecorder{m: [6]float64{1, 0, 0, 0, 1, 0}} }

func (r *textRecorder) mul(n [6]float64) {
	m := r.m
	r.m = [6]float64{m[0]*n[0] + m[1]*n[3], m[0]*n[1] + m[1]*n[4], m[0]*n[2] + m[1]*n[5] + m[2],
		m[3]*n[0] + m[4]*n[3], m[3]*n[1] + m[4]*n[4], m[3]*n[2] + m[4]*n[5] + m[5]}
}
func (r *textRecorder) SetLineWidth(vg.Length)             {}
func (r *textRecorder) SetLineDash([]vg.Length, vg.Length) {}
func (r *textRecorder) SetColor(color.Color)               {}
func (r *textRecorder) Rotate(a float64) {
	s, c := math.Sincos(a)
	r.mul([6]float64{c, -s, 0, s, c, 0})
}
func (r *textRecorder) Translate(p vg.Point) {
	r.mul([6]float64{1, 0, float64(p.X), 0, 1, float64(p.Y)})
}
func (r *textRecorder) Scale(x, y float64) { r.mul([6]float64{x, 0, 0, 0, y, 0}) }
func (r *textRecorder) Push()              { r.stack = append(r.stack, r.m) }
func (r *textRecorder) Pop() {
	r.m = r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
}
func (r *textRecorder) Stroke(vg.Path)                      {}
func (r *textRecorder) Fill(vg.Path)                        {}
func (r *textRecorder) DrawImage(vg.Rectangle, image.Image) {}
func (r *textRecorder) FillString(f font.Face, pt vg.Point, s string) {
	if s == "" || f.Font.Size == 0 {
		return
	}
	e := f.Extents()
	w := f.Width(s)
	b := textBox{text: s, minX: vg.Length(math.Inf(1)), minY: vg.Length(math.Inf(1)),
		maxX: vg.Length(math.Inf(-1)), maxY: vg.Length(math.Inf(-1))}
	for _, c := range []vg.Point{{X: pt.X, Y: pt.Y - e.Descent}, {X: pt.X + w, Y: pt.Y - e.Descent},
		{X: pt.X, Y: pt.Y + e.Ascent}, {X: pt.X + w, Y: pt.Y + e.Ascent}} {
		x := vg.Length(r.m[0]*float64(c.X) + r.m[1]*float64(c.Y) + r.m[2])
		y := vg.Length(r.m[3]*float64(c.X) + r.m[4]*float64(c.Y) + r.m[5])
		b.minX, b.maxX = min(b.minX, x), max(b.maxX, x)
		b.minY, b.maxY = min(b.minY, y), max(b.maxY, y)
	}
	r.boxes = append(r.boxes, b)
}

// checkTextBoxes draws f at the default size on a recorder and reports
// text outside the canvas and texts that overlap. Boxes are the fonts'
// full line boxes (ascent to descent), so a small overlap between lines
// of one wrapped text, or between glyph boxes that touch, is allowed.
func checkTextBoxes(t *testing.T, report string, f Figure) {
	t.Helper()
	w, h := DefaultSize.inches()
	rec := newTextRecorder()
	f.draw(draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	const slack = vg.Length(2) // points
	for _, b := range rec.boxes {
		if b.minX < -slack || b.minY < -slack || b.maxX > w+slack || b.maxY > h+slack {
			t.Errorf("%s/%s: %q drawn at x %.0f–%.0f, y %.0f–%.0f: outside the %.0f × %.0f pt figure",
				report, f.Name, b.text, b.minX, b.maxX, b.minY, b.maxY, w, h)
		}
	}
	for i, a := range rec.boxes {
		for _, b := range rec.boxes[i+1:] {
			ox := min(a.maxX, b.maxX) - max(a.minX, b.minX)
			oy := min(a.maxY, b.maxY) - max(a.minY, b.minY)
			if ox > slack && oy > vg.Length(0.35)*min(a.maxY-a.minY, b.maxY-b.minY, a.maxX-a.minX, b.maxX-b.minX) {
				t.Errorf("%s/%s: %q and %q overlap (%.0f × %.0f pt)", report, f.Name, a.text, b.text, ox, oy)
			}
		}
	}
}

// TestFigureTextFits replays the README tour's two runs (the embedded
// KTH-SP2 log without and with EASY backfilling) and the walkthrough's
// sacct dump under two policies, and checks every text of every figure
// of their reports: inside the figure, no two overlapping; and that the
// runs without a power model get no power figure.
func TestFigureTextFits(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the KTH-SP2 log")
	}
	dir := t.TempDir()
	replay := func(name string, set func(*run.Spec)) *Run {
		c := run.Default()
		set(&c)
		c.Out, c.Quiet = filepath.Join(dir, name), true
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := run.Replay(context.Background(), &c, run.Options{}); err != nil {
			t.Fatal(err)
		}
		r, err := Load(c.Out)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	walk := func(queue, backfill string) func(*run.Spec) {
		return func(c *run.Spec) {
			c.Trace, c.Cluster = "../testdata/walkthrough/kth-sp2.sacct.gz", "../testdata/walkthrough/slurm.conf"
			c.TimeZone, c.Queue, c.Backfill = "Europe/Stockholm", queue, backfill
		}
	}
	reports := map[string][]*Run{
		"tour":        {replay("none", func(c *run.Spec) { c.Backfill = "none" }), replay("easy", func(c *run.Spec) { c.Backfill = "easy" })},
		"walkthrough": {replay("fcfs-easy", walk("fcfs", "easy")), replay("sjf-none", walk("sjf", "none"))},
	}
	for _, name := range []string{"tour", "walkthrough"} {
		runs := reports[name]
		uniqueLabels(runs)
		figs, err := Figures(runs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(figs) < 8 {
			t.Errorf("%s: %d figures", name, len(figs))
		}
		names := map[string]bool{}
		for _, f := range figs {
			checkTextBoxes(t, name, f)
			names[f.Name] = true
		}
		// The SWF header's machine has a power model; the walkthrough's
		// slurm.conf none: no flat 0 kW line, no energy curve.
		if hasPower := name == "tour"; names["power"] != hasPower || names["energy"] != hasPower {
			t.Errorf("%s: power figure %v, energy figure %v; want %v (power model)", name, names["power"], names["energy"], hasPower)
		}
	}
}
