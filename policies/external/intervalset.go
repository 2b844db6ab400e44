package external

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// FormatIntervals writes sorted distinct resource ids as Batsim's interval
// set string: "0-3 7".
func FormatIntervals(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return b.String()
}

// ParseIntervals reads an interval set string ("0-3 7", ids or a-b ranges
// separated by spaces) into sorted resource ids. An id given twice is an
// error, as is any id not below limit.
func ParseIntervals(s string, limit int) ([]int, error) {
	var ids []int
	for _, part := range strings.Fields(s) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("interval set %q: %q is not a resource id", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("interval set %q: %q is not a range a-b with a ≤ b", s, part)
			}
		}
		if b >= limit {
			return nil, fmt.Errorf("interval set %q: resource %d does not exist (the platform has %d, 0-%d)", s, b, limit, limit-1)
		}
		for id := a; id <= b; id++ {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return nil, fmt.Errorf("interval set %q: resource %d is given twice", s, ids[i])
		}
	}
	return ids, nil
}
