package sacct

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// Error messages of bad values: fixed text (the value is in the file at
// the line and field the ParseError names), so that lenient mode counts
// skips by a handful of reasons.
var (
	errTime   = errors.New("not a calendar time (want YYYY-MM-DDTHH:MM:SS, Unknown or None)")
	errCount  = errors.New("not a whole number ≥ 0")
	errMemory = errors.New("not a memory size (want a number with an optional K, M, G, T or P, and c or n of older releases)")
	errTRES   = errors.New("not a TRES list (want name=count,…, as cpu=4,mem=16G,node=1,gres/gpu=2)")
)

// calendarLayout is sacct's time format (strftime %FT%T), in the site's
// time zone.
const calendarLayout = "2006-01-02T15:04:05"

// parseCalendar reads a time sacct prints: ISO 8601 in the site's zone
// (loc), or with an explicit offset (2024-03-01T12:00:00+01:00, …Z), or
// Unix seconds (SLURM_TIME_FORMAT=%s). "Unknown", "None" and "" are no
// time: known is false.
func parseCalendar(s string, loc *time.Location) (t time.Time, known bool, err error) {
	switch s {
	case "", "Unknown", "None":
		return time.Time{}, false, nil
	}
	if s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, "-T:") {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v > 1<<40 {
			return time.Time{}, false, errTime
		}
		return time.Unix(v, 0).In(loc), true, nil
	}
	if t, err := time.ParseInLocation(calendarLayout, s, loc); err == nil {
		return t, true, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.In(loc), true, nil
	}
	return time.Time{}, false, errTime
}

// parseCount reads a whole number ≥ 0; "" is 0.
func parseCount(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > 1<<50 {
		return 0, errCount
	}
	return v, nil
}

// memBasis says what a memory amount is for.
type memBasis uint8

const (
	memTotal   memBasis = iota // the whole job (TRES mem, ReqMem of releases ≥ 21.08)
	memPerCPU                  // ReqMem's 'c' suffix of older releases
	memPerNode                 // ReqMem's 'n' suffix of older releases
)

// memory is an amount of memory in MB (sim.Amount: thousandths of a MB)
// and what it is for.
type memory struct {
	mb    sim.Amount
	basis memBasis
}

// parseMemory reads ReqMem or a TRES mem count: a number, an optional
// unit K, M (the default), G, T or P (powers of 1024), and, when perSuffix
// is set, the c (per CPU) or n (per node) of Slurm releases before 21.08.
func parseMemory(s string, perSuffix bool) (memory, error) {
	var m memory
	if perSuffix && s != "" {
		switch s[len(s)-1] {
		case 'c':
			m.basis, s = memPerCPU, s[:len(s)-1]
		case 'n':
			m.basis, s = memPerNode, s[:len(s)-1]
		}
	}
	if s == "" {
		return m, errMemory
	}
	scale := 1.0
	switch s[len(s)-1] {
	case 'K', 'k':
		scale = 1.0 / 1024
	case 'M', 'm':
	case 'G', 'g':
		scale = 1024
	case 'T', 't':
		scale = 1024 * 1024
	case 'P', 'p':
		scale = 1024 * 1024 * 1024
	default:
		scale = 0
	}
	if scale != 0 {
		s = s[:len(s)-1]
	} else {
		scale = 1
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || s == "" || s[0] == '+' || s[0] == '-' || math.IsInf(v, 0) || math.IsNaN(v) || v*scale > 1e12 {
		return m, errMemory
	}
	m.mb = sim.Amount(math.Ceil(v * scale * float64(sim.Milli)))
	return m, nil
}

// tres is what a TRES list (ReqTRES, AllocTRES) says of a job; -1 for
// an absent count.
type tres struct {
	cpu, node, gpu int64
	mem            memory
	hasMem         bool
	empty          bool // the list is empty: nothing (allocated)
}

// parseTRES reads "cpu=4,mem=16G,node=1,billing=4,gres/gpu=2". GPUs are
// gres/gpu, else the sum of the typed gres/gpu:TYPE entries; other
// resources (billing, energy, licenses…) are ignored.
func parseTRES(s string) (tres, error) {
	t := tres{cpu: -1, node: -1, gpu: -1, empty: s == ""}
	typedGPUs := int64(-1)
	if s == "" {
		return t, nil
	}
	for _, item := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(item, "=")
		if !ok || k == "" {
			return t, errTRES
		}
		switch {
		case k == "mem":
			m, err := parseMemory(v, false)
			if err != nil {
				return t, err
			}
			t.mem, t.hasMem = m, true
		case k == "cpu" || k == "node" || k == "gres/gpu" || strings.HasPrefix(k, "gres/gpu:"):
			n, err := parseCount(v)
			if err != nil || v == "" {
				return t, errTRES
			}
			switch k {
			case "cpu":
				t.cpu = n
			case "node":
				t.node = n
			case "gres/gpu":
				t.gpu = n
			default:
				typedGPUs = max(typedGPUs, 0) + n
				if typedGPUs > 1<<50 {
					return t, errTRES
				}
			}
		}
	}
	if t.gpu < 0 {
		t.gpu = typedGPUs
	}
	return t, nil
}
