package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseWindow reads a Gantt window, "FROM,TO": each a number of seconds
// or a duration with a unit (90m, 36h, 2d), since the run's first event.
func ParseWindow(s string) ([2]float64, error) {
	var w [2]float64
	from, to, ok := strings.Cut(s, ",")
	if !ok {
		return w, fmt.Errorf("--gantt-window %q: want FROM,TO, e.g. 2d,3d or 0,86400", s)
	}
	for i, part := range []string{from, to} {
		v, err := parseSpan(strings.TrimSpace(part))
		if err != nil {
			return w, fmt.Errorf("--gantt-window %q: %w", s, err)
		}
		w[i] = v
	}
	if w[0] < 0 || w[1] <= w[0] {
		return w, fmt.Errorf("--gantt-window %q: want 0 ≤ FROM < TO", s)
	}
	return w, nil
}

// parseSpan reads seconds ("3600"), a Go duration ("90m", "36h") or days
// ("2d", "1.5d").
func parseSpan(s string) (float64, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if v, err := strconv.ParseFloat(d, 64); err == nil {
			return v * 86400, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not seconds or a duration (90m, 36h, 2d)", s)
	}
	return d.Seconds(), nil
}
