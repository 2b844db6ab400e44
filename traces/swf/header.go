package swf

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Header holds the header comments that matter for simulation.
type Header struct {
	MaxNodes int
	MaxProcs int
	MaxJobs  int
	// Epoch is the instant the log's time 0 stands for (UnixStartTime:
	// submit times count seconds from it), in UTC; the zero time.Time when
	// the header does not give it.
	Epoch time.Time
	// TimeZone is the installation's IANA time zone (TimeZoneString,
	// "Europe/Stockholm"); "" when not given.
	TimeZone string
	// ZoneOffset is the older TimeZone field, seconds east of UTC of the
	// installation's standard time (3600 for Stockholm, −28800 for
	// California), when HasZoneOffset.
	ZoneOffset    int
	HasZoneOffset bool
	// Fields holds every "; Key: value" line, first value per key.
	Fields map[string]string
	// Comments holds the header lines, verbatim, for attribution.
	Comments []string

	file  string         // the log's name, for errors
	lines map[string]int // line of MaxNodes, MaxProcs, MaxJobs
}

// parseHeaderLine records one ';' line, line n of the file.
func (h *Header) parseHeaderLine(line string, n int) {
	h.Comments = append(h.Comments, line)
	body := strings.TrimSpace(strings.TrimPrefix(line, ";"))
	key, val, ok := strings.Cut(body, ":")
	if !ok {
		return
	}
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if key == "" || strings.ContainsAny(key, " \t") {
		return
	}
	if h.Fields == nil {
		h.Fields = map[string]string{}
	}
	if _, dup := h.Fields[key]; !dup {
		h.Fields[key] = val
	}
	num := func() int {
		f := strings.Fields(val)
		if len(f) == 0 {
			return 0
		}
		v, err := strconv.Atoi(f[0])
		if errors.Is(err, strconv.ErrRange) && v > 0 {
			return math.MaxInt // too large to hold: Geometry's caps refuse it
		}
		if err != nil || v < 0 {
			return 0
		}
		return v
	}
	switch key {
	case "MaxNodes":
		h.MaxNodes = num()
	case "MaxProcs":
		h.MaxProcs = num()
	case "MaxJobs":
		h.MaxJobs = num()
	case "UnixStartTime":
		if f := strings.Fields(val); len(f) > 0 {
			if sec, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				h.Epoch = time.Unix(sec, 0).UTC()
			}
		}
	case "TimeZoneString":
		h.TimeZone = val
	case "TimeZone":
		if f := strings.Fields(val); len(f) > 0 {
			if off, err := strconv.Atoi(f[0]); err == nil && off > -24*3600 && off < 24*3600 {
				h.ZoneOffset, h.HasZoneOffset = off, true
			}
		}
	default:
		return
	}
	if h.lines == nil {
		h.lines = map[string]int{}
	}
	h.lines[key] = n
}

// Location is the installation's local time: the named zone
// (TimeZoneString) with its daylight saving time, else a fixed zone at
// the TimeZone offset (standard time all year), else nil when the header
// gives neither. A named zone the system cannot load is an error unless
// the offset stands in for it. (Programs that must not depend on the
// system's zone database can import time/tzdata.)
func (h *Header) Location() (*time.Location, error) {
	var err error
	if h.TimeZone != "" {
		var loc *time.Location
		if loc, err = time.LoadLocation(h.TimeZone); err == nil {
			return loc, nil
		}
	}
	if h.HasZoneOffset {
		sign, off := '+', h.ZoneOffset
		if off < 0 {
			sign, off = '-', -off
		}
		return time.FixedZone(fmt.Sprintf("UTC%c%02d:%02d", sign, off/3600, off%3600/60), h.ZoneOffset), nil
	}
	if err != nil {
		return nil, fmt.Errorf("SWF header time zone: %w", err)
	}
	return nil, nil
}
