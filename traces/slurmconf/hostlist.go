package slurmconf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxHosts bounds what one hostlist expression may expand to, and so the
// nodes of one file.
const MaxHosts = 1_000_000

// ExpandHostlist expands a Slurm hostlist expression into host names, in
// the order written: "c[001-004,010],gpu[1-2]" gives c001 c002 c003 c004
// c010 gpu1 gpu2. Commas outside brackets separate hosts; inside brackets
// they separate numbers and ranges lo-hi (lo ≤ hi). A range is zero-padded
// to the width of lo as written ("001-128" gives 001…128, "1-128" gives
// 1…128, "08-10" gives 08 09 10). A name may hold several bracket groups
// ("r[1-2]n[1-3]"): the last varies fastest. Duplicates are kept; the
// caller decides whether they are an error.
func ExpandHostlist(expr string) ([]string, error) {
	if strings.TrimSpace(expr) == "" {
		return nil, errors.New("empty hostlist")
	}
	var out []string
	for _, host := range splitOutside(expr, '[', ']') {
		names, err := expandHost(host, MaxHosts-len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, names...)
	}
	return out, nil
}

// splitOutside cuts s at the commas outside pairs of opening and closing:
// the hosts of a host list (c[1-3],d[1,4]), the items of a Gres list
// (gpu:a100:2(S:0-1),shard:4).
func splitOutside(s string, opening, closing byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case opening:
			depth++
		case closing:
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// expandHost expands one host pattern of literal text and bracket groups
// into at most limit names.
func expandHost(host string, limit int) ([]string, error) {
	if host == "" {
		return nil, errors.New("empty host name in hostlist")
	}
	names := []string{""}
	for rest := host; rest != ""; {
		open := strings.IndexAny(rest, "[]")
		if open < 0 {
			names = appendSuffix(names, []string{rest})
			break
		}
		if rest[open] == ']' {
			return nil, fmt.Errorf("%q: ']' without '['", host)
		}
		closing := strings.IndexAny(rest[open+1:], "[]")
		if closing < 0 || rest[open+1+closing] == '[' {
			return nil, fmt.Errorf("%q: '[' without ']'", host)
		}
		closing += open + 1
		if open > 0 {
			names = appendSuffix(names, []string{rest[:open]})
		}
		nums, err := expandRanges(rest[open+1:closing], limit)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", host, err)
		}
		if len(names)*len(nums) > limit {
			return nil, fmt.Errorf("%q: more than %d hosts", host, MaxHosts)
		}
		names = appendSuffix(names, nums)
		rest = rest[closing+1:]
	}
	if len(names) > limit {
		return nil, fmt.Errorf("%q: more than %d hosts", host, MaxHosts)
	}
	return names, nil
}

// appendSuffix returns every name followed by every suffix, the suffixes
// varying fastest.
func appendSuffix(names, suffixes []string) []string {
	out := make([]string, 0, len(names)*len(suffixes))
	for _, n := range names {
		for _, s := range suffixes {
			out = append(out, n+s)
		}
	}
	return out
}

// expandRanges expands the inside of a bracket group, "001-004,010".
func expandRanges(body string, limit int) ([]string, error) {
	var out []string
	for _, item := range strings.Split(body, ",") {
		lo, hi, isRange := strings.Cut(item, "-")
		if !isRange {
			hi = lo
		}
		a, okA := digits(lo)
		b, okB := digits(hi)
		if !okA || !okB {
			return nil, fmt.Errorf("[%s]: want numbers and ranges lo-hi, got %q", body, item)
		}
		if b < a {
			return nil, fmt.Errorf("[%s]: range %q goes down", body, item)
		}
		if b-a >= int64(limit-len(out)) {
			return nil, fmt.Errorf("[%s]: more than %d hosts", body, MaxHosts)
		}
		width := len(lo)
		for v := a; v <= b; v++ {
			s := strconv.FormatInt(v, 10)
			if pad := width - len(s); pad > 0 {
				s = strings.Repeat("0", pad) + s
			}
			out = append(out, s)
		}
	}
	return out, nil
}
