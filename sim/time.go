package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Time is a point on the virtual clock, or a duration, in microseconds.
// Integer microseconds keep fractional trace times such as 88.51 s exact.
type Time int64

// Units of Time.
const (
	Microsecond Time = 1
	Second      Time = 1_000_000
	// Forever is later than any event.
	Forever Time = math.MaxInt64
)

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// String prints t in seconds with the fewest digits that keep it exact.
func (t Time) String() string { return FormatSeconds(t) }

// FormatSeconds prints t in seconds, exact, without trailing zeros ("88.51").
func FormatSeconds(t Time) string {
	sign := ""
	u := uint64(t)
	if t < 0 {
		sign = "-"
		u = uint64(-t)
	}
	whole, frac := u/uint64(Second), u%uint64(Second)
	if frac == 0 {
		return sign + strconv.FormatUint(whole, 10)
	}
	f := strings.TrimRight(fmt.Sprintf("%06d", frac), "0")
	return sign + strconv.FormatUint(whole, 10) + "." + f
}

// SecondsToTime converts a float number of seconds, rounding to the
// microsecond. s must be within ±MaxSeconds (CheckSeconds checks it):
// beyond, the conversion overflows.
func SecondsToTime(s float64) Time { return Time(math.Round(s * float64(Second))) }

// MaxSeconds is the largest number of seconds, either way, that a time or
// a duration read from a file or a flag may have: 9·10^12 s (285,000
// years) is 9·10^18 µs, just inside Time's int64, with room left to add
// two of them without wrapping.
const MaxSeconds = 9e12

// CheckSeconds converts s seconds to a Time, rounding to the microsecond,
// or fails for NaN, an infinity or more than MaxSeconds either way, where
// SecondsToTime would overflow. Sign and range beyond that (a duration
// ≥ 0, a timeout > 0) are the caller's to check.
func CheckSeconds(s float64) (Time, error) {
	switch {
	case math.IsNaN(s):
		return 0, fmt.Errorf("not a number of seconds (NaN)")
	case math.IsInf(s, 0) || math.Abs(s) > MaxSeconds:
		return 0, fmt.Errorf("%s s is out of range (at most %s s either way)", FormatNumber(s), FormatNumber(MaxSeconds))
	}
	return SecondsToTime(s), nil
}

// FormatNumber writes v for a message as a user would have written it:
// plain decimals (9300000000000, 0.25) up to 16 characters, an exponent
// without "+" (1e20, 1e-300) past them, never Go's %g 9.3e+12.
func FormatNumber(v float64) string {
	if f := strconv.FormatFloat(v, 'f', -1, 64); len(f) <= 16 {
		return f
	}
	return strings.Replace(strconv.FormatFloat(v, 'g', -1, 64), "e+", "e", 1)
}

// ParseSeconds reads a decimal number of seconds ("88.51", "-1", "1e3")
// exactly when it has at most six decimals; longer fractions are rounded to
// the microsecond.
func ParseSeconds(s string) (Time, error) {
	if s == "" {
		return 0, fmt.Errorf("empty time")
	}
	neg := false
	body := s
	if body[0] == '-' || body[0] == '+' {
		neg = body[0] == '-'
		body = body[1:]
	}
	intPart, fracPart, hasDot := strings.Cut(body, ".")
	if strings.ContainsAny(body, "eE") || (intPart == "" && (!hasDot || fracPart == "")) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > MaxSeconds {
			return 0, fmt.Errorf("bad time %q", s)
		}
		return SecondsToTime(f), nil
	}
	var whole uint64
	if intPart != "" {
		w, err := strconv.ParseUint(intPart, 10, 64)
		if err != nil || w > MaxSeconds {
			return 0, fmt.Errorf("bad time %q", s)
		}
		whole = w
	}
	var micros uint64
	for i, c := range []byte(fracPart) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad time %q", s)
		}
		if i < 6 {
			micros = micros*10 + uint64(c-'0')
		} else if i == 6 && c >= '5' {
			micros++ // round half up at the microsecond
		}
	}
	for i := len(fracPart); i < 6; i++ {
		micros *= 10
	}
	t := Time(whole*uint64(Second) + micros)
	if neg {
		t = -t
	}
	return t, nil
}
