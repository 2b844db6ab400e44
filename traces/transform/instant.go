package transform

import (
	"fmt"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// ParseInstant reads a point of the trace's clock: seconds ("86400",
// "3600.5") or a calendar time in RFC 3339 ("2024-03-01T00:00:00Z",
// "2024-03-01T08:00:00+01:00"), which needs the trace's epoch (the
// calendar time of its time 0; the zero time.Time when unknown).
func ParseInstant(s string, epoch time.Time) (sim.Time, error) {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "T:") {
		t, err := sim.ParseSeconds(s)
		if err != nil {
			return 0, fmt.Errorf("want seconds or an RFC 3339 time (2024-03-01T00:00:00Z), got %q", s)
		}
		return t, nil
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("want seconds or an RFC 3339 time (2024-03-01T00:00:00Z), got %q", s)
	}
	if epoch.IsZero() {
		return 0, fmt.Errorf("%s is a calendar time, but the trace's epoch is unknown: give seconds from its time 0", s)
	}
	return sim.Time(at.Sub(epoch).Microseconds()), nil
}

// CheckInstant checks the form of s, as far as it can be known without
// the trace (its epoch).
func CheckInstant(s string) error {
	_, err := ParseInstant(s, time.Unix(0, 0))
	return err
}
