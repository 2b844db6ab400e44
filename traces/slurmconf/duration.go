package slurmconf

import (
	"errors"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// ErrBadDuration is the error of a value that is not a Slurm time.
var ErrBadDuration = errors.New("not a Slurm time (want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)")

// maxDurationSeconds bounds a parsed time: a hundred years, far beyond any
// limit or elapsed time, and far within sim.Time.
const maxDurationSeconds = 100 * 366 * 86400

// ParseDuration reads a time in Slurm's format (the one of time limits,
// MaxTime, Elapsed): "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes" or "days-hours:minutes:seconds".
// "UNLIMITED", "INFINITE" and "-1" (any case) mean no limit: unlimited is
// true and the time 0. A bare number counts minutes, as Slurm reads it.
func ParseDuration(s string) (t sim.Time, unlimited bool, err error) {
	switch strings.ToUpper(s) {
	case "UNLIMITED", "INFINITE", "-1":
		return 0, true, nil
	}
	days := int64(0)
	rest := s
	hasDays := false
	if d, r, ok := strings.Cut(s, "-"); ok {
		v, ok := digits(d)
		if !ok {
			return 0, false, ErrBadDuration
		}
		days, rest, hasDays = v, r, true
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, false, ErrBadDuration
	}
	nums := make([]int64, len(parts))
	for i, p := range parts {
		v, ok := digits(p)
		if !ok {
			return 0, false, ErrBadDuration
		}
		nums[i] = v
	}
	var secs int64
	switch {
	case hasDays: // D-H, D-H:M, D-H:M:S
		secs = days * 86400
		for i, unit := range []int64{3600, 60, 1}[:len(nums)] {
			secs += nums[i] * unit
		}
	case len(nums) == 3: // H:M:S
		secs = nums[0]*3600 + nums[1]*60 + nums[2]
	case len(nums) == 2: // M:S
		secs = nums[0]*60 + nums[1]
	default: // minutes
		secs = nums[0] * 60
	}
	if secs > maxDurationSeconds {
		return 0, false, errors.New("time too large")
	}
	return sim.Time(secs) * sim.Second, false, nil
}

// digits reads a non-empty run of decimal digits (at most 9: no overflow).
func digits(s string) (int64, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}
