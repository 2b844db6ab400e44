package lattice

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// PriceSeries is an electricity price over time, a step function: the
// price at t is that of the last point at or before t (the first point's
// before it). f₇ needs it normalised to [0, 1]: (p − min) / (max − min)
// over the whole series, so the cheapest hour scores 1 and the dearest 0.
type PriceSeries struct {
	times    []sim.Time
	prices   []float64
	min, max float64
}

// NewPriceSeries builds a series from points in increasing time order.
func NewPriceSeries(times []sim.Time, prices []float64) (*PriceSeries, error) {
	if len(times) == 0 || len(times) != len(prices) {
		return nil, errors.New("price series: no points")
	}
	ps := &PriceSeries{times: times, prices: prices, min: math.Inf(1), max: math.Inf(-1)}
	for i, p := range prices {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return nil, fmt.Errorf("price series: point %d: price must be finite", i+1)
		}
		if i > 0 && times[i] <= times[i-1] {
			return nil, fmt.Errorf("price series: point %d: times must increase", i+1)
		}
		ps.min, ps.max = min(ps.min, p), max(ps.max, p)
	}
	return ps, nil
}

// LoadPrices reads a CSV of time_s,price (a header line is allowed).
func LoadPrices(path string) (*PriceSeries, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := ReadPrices(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}

// ReadPrices reads a CSV of time_s,price (a header line is allowed).
func ReadPrices(r io.Reader) (*PriceSeries, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 2
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	var times []sim.Time
	var prices []float64
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		t, errT := sim.ParseSeconds(strings.TrimSpace(rec[0]))
		p, errP := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		if line == 1 && errT != nil && errP != nil {
			continue // header
		}
		if errT != nil || errP != nil {
			return nil, fmt.Errorf("line %d: want time_s,price numbers, got %q,%q", line, rec[0], rec[1])
		}
		times = append(times, t)
		prices = append(prices, p)
	}
	return NewPriceSeries(times, prices)
}

// At returns the price at t.
func (ps *PriceSeries) At(t sim.Time) float64 {
	i := sort.Search(len(ps.times), func(i int) bool { return ps.times[i] > t }) - 1
	return ps.prices[max(i, 0)]
}

// Normalised returns the price at t scaled to [0, 1] over the series; 0
// for a flat series. A nil series (no prices given) is the neutral 0.5.
func (ps *PriceSeries) Normalised(t sim.Time) float64 {
	if ps == nil {
		return 0.5
	}
	if ps.max <= ps.min {
		return 0
	}
	return (ps.At(t) - ps.min) / (ps.max - ps.min)
}

// Changes returns the first price change after t, or sim.Forever: cycle
// mode need not wake for it, but event mode does, so that a job waiting
// for cheap energy is scored again when the price moves.
func (ps *PriceSeries) Changes(t sim.Time) sim.Time {
	if ps == nil {
		return sim.Forever
	}
	i := sort.Search(len(ps.times), func(i int) bool { return ps.times[i] > t })
	if i == len(ps.times) {
		return sim.Forever
	}
	return ps.times[i]
}
