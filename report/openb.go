package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Openb is an output directory of `schedsim openb`: its openb_alloc.csv
// (one row per policy, seed and arrived-GPU step) and openb_summary.csv.
type Openb struct {
	Dir, Name string
	// Policies in the file's order; Curves[policy][seed] the points of one
	// run, by arrived share.
	Policies []string
	Curves   map[string]map[string][]openbPoint
	// SummaryCols and SummaryRows are openb_summary.csv as written.
	SummaryCols []string
	SummaryRows [][]string
}

// openbPoint is one step of an openb run: the arrived GPU demand and the
// allocated GPUs, both as % of the cluster's GPU capacity, and the
// fragmentation as % of the free GPU.
type openbPoint struct{ Arrived, Alloc, Frag float64 }

// isOpenb reports whether dir holds an openb output.
func isOpenb(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "openb_alloc.csv"))
	return err == nil
}

// LoadOpenb reads an openb output directory. Errors name the file, the
// line and the column.
func LoadOpenb(dir string) (*Openb, error) {
	o := &Openb{Dir: dir, Name: filepath.Base(filepath.Clean(dir)), Curves: map[string]map[string][]openbPoint{}}
	path := filepath.Join(dir, "openb_alloc.csv")
	header, rows, err := readCSVFile(path)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, want := range []string{"policy", "seed", "arrived_pct", "gpu_alloc_pct", "frag_pct_of_free"} {
		if _, ok := col[want]; !ok {
			return nil, fmt.Errorf("%s:1: no column %q", path, want)
		}
	}
	for i, rec := range rows {
		num := func(name string) (float64, error) {
			v, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil {
				return 0, fmt.Errorf("%s:%d: %s: %q is not a number", path, i+2, name, rec[col[name]])
			}
			return v, nil
		}
		var pt openbPoint
		if pt.Arrived, err = num("arrived_pct"); err != nil {
			return nil, err
		}
		if pt.Alloc, err = num("gpu_alloc_pct"); err != nil {
			return nil, err
		}
		if pt.Frag, err = num("frag_pct_of_free"); err != nil {
			return nil, err
		}
		pol, seed := rec[col["policy"]], rec[col["seed"]]
		if o.Curves[pol] == nil {
			o.Curves[pol] = map[string][]openbPoint{}
			o.Policies = append(o.Policies, pol)
		}
		o.Curves[pol][seed] = append(o.Curves[pol][seed], pt)
	}
	if len(o.Policies) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	sp := filepath.Join(dir, "openb_summary.csv")
	if _, err := os.Stat(sp); err == nil {
		if o.SummaryCols, o.SummaryRows, err = readCSVFile(sp); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// readCSVFile reads a CSV file's header and rows; a row of another width
// is an error naming its line.
func readCSVFile(path string) ([]string, [][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: header: %w", path, err)
	}
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return header, rows, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		rows = append(rows, rec)
	}
}

// openbSpread is one policy's curve over its seeds: at each arrived share
// the mean, least and greatest value.
type openbSpread struct {
	Arrived, Mean, Lo, Hi []float64
	Seeds                 int
}

// spread summarizes a policy's seeds at every arrived share that some
// seed reached, by value (the runs sample the same shares, --step).
func (o *Openb) spread(policy string, value func(openbPoint) float64) openbSpread {
	at := map[float64][]float64{}
	for _, pts := range o.Curves[policy] {
		for _, p := range pts {
			at[p.Arrived] = append(at[p.Arrived], value(p))
		}
	}
	var s openbSpread
	s.Seeds = len(o.Curves[policy])
	for x := range at {
		s.Arrived = append(s.Arrived, x)
	}
	slices.Sort(s.Arrived)
	for _, x := range s.Arrived {
		vs := at[x]
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range vs {
			lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
		}
		s.Mean = append(s.Mean, sum/float64(len(vs)))
		s.Lo = append(s.Lo, lo)
		s.Hi = append(s.Hi, hi)
	}
	return s
}

// openbFigures draws the FGD paper's figures of an openb output: the GPU
// allocation ratio and the fragmentation against the arrived GPU share,
// one line per policy (the mean over seeds) with the seeds' range as a
// band.
func openbFigures(o *Openb, prefix string) ([]Figure, error) {
	specs := []struct {
		name, title, y, caption string
		value                   func(openbPoint) float64
		ideal                   bool
	}{
		{"openb_alloc", "GPU allocation ratio as GPU demand arrives", "GPUs allocated (% of capacity)",
			"Allocated GPUs against the GPU demand arrived so far (both % of the cluster's GPUs); pods arrive and never leave. " +
				"Line: the mean over seeds; band: their range. Dashed: every arrived GPU allocated.",
			func(p openbPoint) float64 { return p.Alloc }, true},
		{"openb_frag", "GPU fragmentation as GPU demand arrives", "fragmented share of the free GPUs (%)",
			"Share of the free GPU capacity that the typical pods of the trace cannot use, against the arrived GPU demand. " +
				"Line: the mean over seeds; band: their range.",
			func(p openbPoint) float64 { return p.Frag }, false},
	}
	var figs []Figure
	for _, sp := range specs {
		f := Figure{Name: prefix + sp.name, Title: sp.title, Caption: sp.caption}
		p := newPlot(sp.title+"\n"+o.Name+" · seeds per policy: "+seedCounts(o), "arrived GPU demand (% of capacity)", sp.y)
		p.Title.TextStyle.Font.Size = vg.Points(11)
		p.X.Tick.Marker = percentTicks{scale: 1}
		p.Y.Tick.Marker = percentTicks{scale: 1}
		leg := outsideLegend()
		maxX := 0.0
		var lines []*plotter.Line
		for i, pol := range o.Policies {
			s := o.spread(pol, sp.value)
			line := make(plotter.XYs, len(s.Arrived))
			band := make(plotter.XYs, 0, 2*len(s.Arrived))
			for k, x := range s.Arrived {
				line[k] = plotter.XY{X: x, Y: s.Mean[k]}
				band = append(band, plotter.XY{X: x, Y: s.Lo[k]})
				maxX = math.Max(maxX, x)
			}
			for k := len(s.Arrived) - 1; k >= 0; k-- {
				band = append(band, plotter.XY{X: s.Arrived[k], Y: s.Hi[k]})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			poly.Color = translucent(runColor(i), 0x40)
			poly.LineStyle.Width = 0
			l, err := plotter.NewLine(line)
			if err != nil {
				return nil, err
			}
			l.Color = runColor(i)
			l.Width = vg.Points(1.2)
			p.Add(poly)
			lines = append(lines, l)
			leg.Add(pol, poly, l)
		}
		if sp.ideal {
			d, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: math.Min(maxX, 100), Y: math.Min(maxX, 100)}})
			if err != nil {
				return nil, err
			}
			d.Color = plotter.DefaultLineStyle.Color
			d.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(d)
		}
		for _, l := range lines {
			p.Add(l)
		}
		p.X.Min, p.Y.Min = 0, 0
		if sp.ideal {
			if from, lowest, ok := o.zoom(); ok {
				p.X.Min, p.Y.Min = from, math.Max(0, lowest-2)
				f.Caption += fmt.Sprintf(" The axes start at %g %% arrived: below it every policy allocates all the GPUs that arrive.", from)
			}
		}
		f.Plot, f.Legend = p, leg
		figs = append(figs, f)
	}
	return figs, nil
}

// zoom finds where the allocation curves part from the diagonal: the
// arrived share, rounded down to 10 % and 10 % before the first point
// where some policy's mean allocation falls a point short of what
// arrived, and the lowest mean allocation from there on. ok is false when
// every policy allocates everything.
func (o *Openb) zoom() (from, lowest float64, ok bool) {
	first := math.Inf(1)
	spreads := make([]openbSpread, len(o.Policies))
	for i, pol := range o.Policies {
		spreads[i] = o.spread(pol, func(p openbPoint) float64 { return p.Alloc })
		for k, x := range spreads[i].Arrived {
			if spreads[i].Mean[k] < x-1 {
				first = math.Min(first, x)
				break
			}
		}
	}
	if math.IsInf(first, 1) {
		return 0, 0, false
	}
	from = math.Max(0, math.Floor(first/10)*10-10)
	lowest = math.Inf(1)
	for _, s := range spreads {
		for k, x := range s.Arrived {
			if x >= from {
				lowest = math.Min(lowest, s.Lo[k])
			}
		}
	}
	return from, lowest, true
}

// seedCounts is "3" when every policy has that many seeds, else the
// range, "2–3".
func seedCounts(o *Openb) string {
	lo, hi := math.MaxInt, 0
	for _, pol := range o.Policies {
		n := len(o.Curves[pol])
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
