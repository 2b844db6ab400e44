package sim

import (
	"math"
	"strings"
	"testing"
)

func TestParseSecondsExact(t *testing.T) {
	cases := []struct {
		in   string
		want Time
	}{
		{"0", 0},
		{"88.51", 88_510_000},    // fractional trace times survive exactly
		{"-1", -Second},          // SWF's "unknown"
		{"1.0000005", 1_000_001}, // rounded half up at the microsecond
		{"1e3", 1000 * Second},
		{".5", 500_000},
		{"12.", 12 * Second},
	}
	for _, c := range cases {
		got, err := ParseSeconds(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSeconds(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "-", "abc", "1.2.3", "1e400", "NaN", "."} {
		if _, err := ParseSeconds(bad); err == nil {
			t.Errorf("ParseSeconds(%q) accepted", bad)
		}
	}
}

func TestFormatSeconds(t *testing.T) {
	for in, want := range map[Time]string{0: "0", 88_510_000: "88.51", -Second: "-1", 1: "0.000001"} {
		if got := FormatSeconds(in); got != want {
			t.Errorf("FormatSeconds(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestAmountNoDrift: a million allocate/release cycles of fractional
// amounts leave the accounting exactly where it started.
func TestAmountNoDrift(t *testing.T) {
	free := Units(64)
	share, _ := ParseAmount("0.1")
	for i := 0; i < 1_000_000; i++ {
		free -= share
		free += share
	}
	if free != Units(64) {
		t.Fatalf("drift: %s", free)
	}
}

func TestCheckSeconds(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want Time
		err  string
	}{
		{88.51, 88_510_000, ""},
		{-1, -Second, ""},
		{MaxSeconds, MaxSeconds * Second, ""},
		{-MaxSeconds, -MaxSeconds * Second, ""},
		{math.NaN(), 0, "not a number of seconds (NaN)"},
		{math.Inf(1), 0, "+Inf s is out of range (at most 9000000000000 s either way)"},
		{math.Inf(-1), 0, "-Inf s is out of range"},
		{1e13, 0, "10000000000000 s is out of range"},
		{1e20, 0, "1e20 s is out of range"},
		{9.3e12, 0, "9300000000000 s is out of range"},
		{-1e300, 0, "-1e300 s is out of range"},
	} {
		got, err := CheckSeconds(tc.s)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("CheckSeconds(%g) = %v, %v, want %v", tc.s, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("CheckSeconds(%g) error %v, want %q", tc.s, err, tc.err)
		}
	}
}

// Values in messages read as the user wrote them, not as %g writes
// them (9.3e+12) nor as a wrapped integer.
func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{
		9.3e12: "9300000000000", 1e300: "1e300", 1e-300: "1e-300", -1e300: "-1e300",
		0.25: "0.25", 0: "0", -64: "-64", 5e7: "50000000", 1e21: "1e21", 1e20: "1e20",
		0.000001: "0.000001", 1e-7: "0.0000001", -1e-300: "-1e-300",
	} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%g) = %s, want %s", v, got, want)
		}
	}
}
