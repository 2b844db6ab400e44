package multifactor

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errUnlimited is a time string that says INFINITE or UNLIMITED.
var errUnlimited = errors.New("unlimited")

// parseSlurmMinutes reads a slurm.conf time string as Slurm's
// time_str2mins does for PriorityMaxAge and PriorityDecayHalfLife, and
// returns seconds, rounded up to whole minutes:
//
//	min   min:sec   hr:min:sec   days-hr   days-hr:min   days-hr:min:sec
//
// "INFINITE", "UNLIMITED" and "-1" give errUnlimited.
func parseSlurmMinutes(s string) (int64, error) {
	secs, err := parseSlurmTime(s)
	if err != nil {
		return 0, err
	}
	return (secs + 59) / 60 * 60, nil
}

// parseSlurmTime reads a time string into seconds.
func parseSlurmTime(s string) (int64, error) {
	switch strings.ToUpper(s) {
	case "INFINITE", "UNLIMITED", "-1":
		return 0, errUnlimited
	case "":
		return 0, errors.New("empty time")
	}
	bad := fmt.Errorf("bad time %q: want min, min:sec, hr:min:sec, days-hr, days-hr:min or days-hr:min:sec", s)
	var days int64
	rest := s
	dashed := false
	if d, r, ok := strings.Cut(s, "-"); ok {
		v, err := field(d)
		if err != nil {
			return 0, bad
		}
		days, rest, dashed = v, r, true
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, bad
	}
	vals := make([]int64, len(parts))
	for i, p := range parts {
		v, err := field(p)
		if err != nil {
			return 0, bad
		}
		vals[i] = v
	}
	var h, m, sec int64
	switch {
	case dashed: // days-hr[:min[:sec]]
		h = vals[0]
		if len(vals) > 1 {
			m = vals[1]
		}
		if len(vals) > 2 {
			sec = vals[2]
		}
	case len(vals) == 3:
		h, m, sec = vals[0], vals[1], vals[2]
	case len(vals) == 2:
		m, sec = vals[0], vals[1]
	default:
		m = vals[0]
	}
	total := days*86400 + h*3600 + m*60 + sec
	if total < 0 || float64(total) > maxSeconds {
		return 0, fmt.Errorf("time %q is out of range", s)
	}
	return total, nil
}

// field is one non-empty run of digits.
func field(s string) (int64, error) {
	if s == "" || len(s) > 9 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errors.New("not a number")
	}
	return strconv.ParseInt(s, 10, 64)
}
