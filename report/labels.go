package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// frontLabels names the Pareto front's points by their parameters: one
// label per distinct position (points that coincide share it, "+n same"),
// right of the point, or left of it in the right half of the plot so long
// labels stay inside. Labels that would overlap are pushed apart
// vertically, with a leader line to their point: the front often bunches
// points with almost equal waits.
type frontLabels struct {
	labels []frontLabel
	mid    float64 // data x of the plot's middle
}

type frontLabel struct {
	x, y float64 // data coordinates of the point
	text string
}

// labelOffset is the gap between a point and its label.
const labelOffset = 9 // points

func newFrontLabels(pts []*paretoPoint) *frontLabels {
	type spot struct{ x, y float64 }
	var order []spot
	first := map[spot]*paretoPoint{}
	count := map[spot]int{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		lo, hi = math.Min(lo, pt.Wait), math.Max(hi, pt.Wait)
		if !pt.Front {
			continue
		}
		k := spot{pt.Wait, pt.Fairness}
		if count[k] == 0 {
			first[k] = pt
			order = append(order, k)
		}
		count[k]++
	}
	fl := &frontLabels{mid: (lo + hi) / 2}
	for _, k := range order {
		t := first[k].Label
		if t == "" {
			t = first[k].Runs[0]
		}
		if n := count[k]; n > 1 {
			t += fmt.Sprintf(" (+%d same)", n-1)
		}
		fl.labels = append(fl.labels, frontLabel{x: k.x, y: k.y, text: t})
	}
	return fl
}

// Plot draws the labels: each side (left, right of its point) is laid out
// top to bottom, each label at least one line below the previous one.
func (fl *frontLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	base := text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, vg.Points(textSize)),
		Handler: plot.DefaultTextHandler,
		YAlign:  draw.YCenter,
	}
	line := base.Height("Xg") * 1.1
	leader := draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: vg.Points(0.5)}
	type placed struct {
		px, py, y vg.Length
		text      string
	}
	var sides [2][]placed // right of the point, left of it
	for _, l := range fl.labels {
		side := 0
		if l.x > fl.mid {
			side = 1
		}
		py := trY(l.y)
		sides[side] = append(sides[side], placed{px: trX(l.x), py: py, y: py, text: l.text})
	}
	for side, ls := range sides {
		// Top first; ties by x, so the layout is deterministic.
		sort.SliceStable(ls, func(a, b int) bool {
			if ls[a].py != ls[b].py {
				return ls[a].py > ls[b].py
			}
			return ls[a].px < ls[b].px
		})
		for i := 1; i < len(ls); i++ {
			ls[i].y = min(ls[i].y, ls[i-1].y-line)
		}
		sty := base
		dx := vg.Points(labelOffset)
		sty.XAlign = draw.XLeft
		if side == 1 {
			sty.XAlign, dx = draw.XRight, -dx
		}
		for _, l := range ls {
			at := vg.Point{X: l.px + dx, Y: l.y}
			if l.y != l.py {
				c.StrokeLine2(leader, l.px+dx*0.7, l.py, at.X, at.Y)
			}
			c.FillText(sty, at, l.text)
		}
	}
}
