package sim

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// StepSeries is a quantity that changes in steps over virtual time: an
// electricity price per kWh, a carbon intensity in gCO₂ per kWh. The value
// at t is that of the last point at or before t, and the first point's
// before it. Metrics integrate energy against it piece by piece.
type StepSeries struct {
	Times  []Time    // increasing
	Values []float64 // finite
}

// NewStepSeries checks the points: at least one, times strictly
// increasing, values finite.
func NewStepSeries(times []Time, values []float64) (*StepSeries, error) {
	if len(times) == 0 || len(times) != len(values) {
		return nil, fmt.Errorf("a series needs at least one point")
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("point %d: value must be finite", i+1)
		}
		if i > 0 && times[i] <= times[i-1] {
			return nil, fmt.Errorf("point %d: times must increase", i+1)
		}
	}
	return &StepSeries{Times: times, Values: values}, nil
}

// index is the point in force at t.
func (s *StepSeries) index(t Time) int {
	return max(sort.Search(len(s.Times), func(i int) bool { return s.Times[i] > t })-1, 0)
}

// At returns the value at t.
func (s *StepSeries) At(t Time) float64 { return s.Values[s.index(t)] }

// Integral returns ∫ value dt from `from` to `to` (from ≤ to), in value ×
// seconds: a sum over the steps that [from, to) crosses of value ×
// duration.
func (s *StepSeries) Integral(from, to Time) float64 {
	var sum float64
	for i := s.index(from); from < to; i++ {
		end := to
		if i+1 < len(s.Times) && s.Times[i+1] < to {
			end = s.Times[i+1]
		}
		sum += s.Values[i] * (end - from).Seconds()
		from = end
	}
	return sum
}

// LoadStepSeries reads a CSV series file: lines "time_s,value" (seconds,
// exact to the µs; a number), an optional header line whose fields are not
// numbers, '#' comments and blank lines. Errors name the file, the line and
// the field.
func LoadStepSeries(path string) (*StepSeries, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadStepSeries(f, path)
}

// ReadStepSeries is LoadStepSeries on a reader; name is used in errors.
func ReadStepSeries(r io.Reader, name string) (*StepSeries, error) {
	sc := bufio.NewScanner(r)
	var times []Time
	var values []float64
	bad := func(line int, field, format string, args ...any) error {
		return fmt.Errorf("%s:%d: field %s: %s", name, line, field, fmt.Sprintf(format, args...))
	}
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		ts, vs, ok := strings.Cut(text, ",")
		if !ok || strings.Contains(vs, ",") {
			return nil, fmt.Errorf("%s:%d: want two fields time_s,value, got %q", name, line, text)
		}
		ts, vs = strings.TrimSpace(ts), strings.TrimSpace(vs)
		t, errT := ParseSeconds(ts)
		v, errV := strconv.ParseFloat(vs, 64)
		if len(times) == 0 && errT != nil && errV != nil {
			continue // the header
		}
		switch {
		case errT != nil:
			return nil, bad(line, "time_s", "%q is not a number of seconds", ts)
		case errV != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return nil, bad(line, "value", "%q is not a finite number", vs)
		case len(times) > 0 && t <= times[len(times)-1]:
			return nil, bad(line, "time_s", "%s s is not after the previous point's %s s", t, times[len(times)-1])
		}
		times = append(times, t)
		values = append(values, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(times) == 0 {
		return nil, fmt.Errorf("%s: no points (want lines time_s,value)", name)
	}
	return NewStepSeries(times, values)
}
