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
	"github.com/schedsim/schedsim/traces"
)

// MetricSeries is a service's load over time, a step function: the value
// at t is that of the last point at or before t, and 0 before the first.
type MetricSeries struct {
	times  []sim.Time
	values []float64
}

// LoadMetric reads a CSV of time_s,value (a header line and # comments
// allowed; times increasing, values finite and ≥ 0).
func LoadMetric(path string) (*MetricSeries, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMetric(f, path)
}

// ReadMetric reads a metric CSV; name is the file's name in errors,
// which are traces.ParseErrors naming the line and field.
func ReadMetric(r io.Reader, name string) (*MetricSeries, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 2
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	m := &MetricSeries{}
	for first := true; ; first = false {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			return nil, &traces.ParseError{File: name, Line: line, Err: err}
		}
		t, errT := sim.ParseSeconds(strings.TrimSpace(rec[0]))
		v, errV := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		switch {
		case first && errT != nil && errV != nil:
			continue // header
		case errT != nil:
			return nil, &traces.ParseError{File: name, Line: line, Field: "time_s", Err: fmt.Errorf("want seconds, got %q", rec[0])}
		case errV != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
			return nil, &traces.ParseError{File: name, Line: line, Field: "value", Err: fmt.Errorf("want a finite number ≥ 0, got %q", rec[1])}
		case len(m.times) > 0 && t <= m.times[len(m.times)-1]:
			return nil, &traces.ParseError{File: name, Line: line, Field: "time_s", Err: fmt.Errorf("times must increase: %s s after %s s", t, m.times[len(m.times)-1])}
		}
		m.times = append(m.times, t)
		m.values = append(m.values, v)
	}
	if len(m.times) == 0 {
		return nil, &traces.ParseError{File: name, Err: errors.New("no points")}
	}
	return m, nil
}

// At returns the value at t.
func (m *MetricSeries) At(t sim.Time) float64 {
	i := sort.Search(len(m.times), func(i int) bool { return m.times[i] > t }) - 1
	if i < 0 {
		return 0
	}
	return m.values[i]
}

// Next returns the first point after t, or sim.Forever.
func (m *MetricSeries) Next(t sim.Time) sim.Time {
	i := sort.Search(len(m.times), func(i int) bool { return m.times[i] > t })
	if i == len(m.times) {
		return sim.Forever
	}
	return m.times[i]
}
