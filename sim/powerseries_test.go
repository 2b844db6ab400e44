package sim

import (
	"strings"
	"testing"
)

// TestStepSeries: 0.10 from 0 s, 0.30 from 100 s (and 0.10 before 0).
// ∫ from 50 to 150 = 0.10 · 50 + 0.30 · 50 = 20; from −10 to 10 = 2.
func TestStepSeries(t *testing.T) {
	s, err := ReadStepSeries(strings.NewReader("time_s,price\n# a comment\n0,0.10\n\n100, 0.30\n"), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	if s.At(-5*Second) != 0.10 || s.At(99*Second) != 0.10 || s.At(100*Second) != 0.30 || s.At(1e12) != 0.30 {
		t.Errorf("At: %v", s)
	}
	if got := s.Integral(50*Second, 150*Second); got != 20 {
		t.Errorf("∫50–150 = %g, want 20", got)
	}
	if got := s.Integral(-10*Second, 10*Second); got != 2 {
		t.Errorf("∫−10–10 = %g, want 2", got)
	}
	if got := s.Integral(7*Second, 7*Second); got != 0 {
		t.Errorf("empty interval: %g", got)
	}
}

func TestStepSeriesErrors(t *testing.T) {
	for in, want := range map[string]string{
		"0,1\n0,2\n":     "p.csv:2: field time_s: 0 s is not after the previous point's 0 s",
		"0,1\n5,x\n":     `p.csv:2: field value: "x" is not a finite number`,
		"0,1\nx,2\n":     `p.csv:2: field time_s: "x" is not a number of seconds`,
		"0,1,2\n":        `p.csv:1: want two fields time_s,value, got "0,1,2"`,
		"time_s,value\n": "p.csv: no points",
		"0,NaN\n":        `p.csv:1: field value: "NaN" is not a finite number`,
	} {
		_, err := ReadStepSeries(strings.NewReader(in), "p.csv")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}
