package swf

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Header holds the header comments that matter for simulation.
type Header struct {
	MaxNodes int
	MaxProcs int
	MaxJobs  int
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
	default:
		return
	}
	if h.lines == nil {
		h.lines = map[string]int{}
	}
	h.lines[key] = n
}
