package azure

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Columns of vmtable.csv, in the order of the V2 schema.
var columns = []string{"vmid", "subscriptionid", "deploymentid", "vmcreated", "vmdeleted",
	"maxcpu", "avgcpu", "p95maxcpu", "vmcategory", "vmcorecountbucket", "vmmemorybucket"}

// Reasons a record is bad: the skip reasons lenient mode counts. Strict
// errors add the record's value.
var (
	errMissing      = errors.New("missing")
	errNotTime      = errors.New("not a time in seconds ≥ 0")
	errAfterEnd     = errors.New("at or after the end of the trace window")
	errBeforeCreate = errors.New("before vmcreated")
	errBucket       = errors.New(`not a bucket ("8", or ">24" for the open one)`)
	errOpenBucket   = errors.New("open bucket at or above the value it is read as (see Options)")
	errLate         = errors.New("created before VMs already replayed (beyond the sort window; sort the table by vmcreated)")
)

// maxTime bounds time stamps (about 31 years) so sums never overflow.
const maxTime = sim.Time(1e9) * sim.Second

// fieldError is a bad field: its column, the reason and the particulars.
type fieldError struct {
	field  string
	reason error
	value  string
}

// job turns one vmtable row into a sim.Job (see the package doc).
func (r *Reader) job(row []string) (*sim.Job, *fieldError) {
	j := &sim.Job{
		ID:       strings.TrimSpace(row[0]),
		User:     strings.TrimSpace(row[1]),
		Group:    strings.TrimSpace(row[2]),
		Queue:    strings.TrimSpace(row[8]),
		Walltime: sim.NoWalltime,
		Tasks:    1,
	}
	if j.ID == "" {
		return nil, &fieldError{"vmid", errMissing, ""}
	}
	created, bad := parseTime("vmcreated", row[3])
	if bad != nil {
		return nil, bad
	}
	if created >= r.opt.TraceEnd {
		return nil, &fieldError{"vmcreated", errAfterEnd, row[3]}
	}
	deleted := r.opt.TraceEnd // still alive when the window closed
	if strings.TrimSpace(row[4]) != "" {
		if deleted, bad = parseTime("vmdeleted", row[4]); bad != nil {
			return nil, bad
		}
		if deleted < created {
			return nil, &fieldError{"vmdeleted", errBeforeCreate, row[4]}
		}
	}
	j.Submit, j.Runtime = created, deleted-created
	if j.Queue == "" {
		return nil, &fieldError{"vmcategory", errMissing, ""}
	}
	cores, bad := parseBucket("vmcorecountbucket", row[9], r.opt.OpenCores)
	if bad != nil {
		return nil, bad
	}
	mem, bad := parseBucket("vmmemorybucket", row[10], r.opt.OpenMemoryGB)
	if bad != nil {
		return nil, bad
	}
	j.Request = []sim.Quantity{{Resource: "cpu", Amount: cores}, {Resource: "mem", Amount: mem}}
	return j, nil
}

// parseTime reads a time stamp in seconds from the start of the trace.
func parseTime(field, s string) (sim.Time, *fieldError) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, &fieldError{field, errMissing, ""}
	}
	t, err := sim.ParseSeconds(s)
	if err != nil || t < 0 || t > maxTime {
		return 0, &fieldError{field, errNotTime, s}
	}
	return t, nil
}

// parseBucket reads a size bucket: "N" is N (the bucket's upper bound,
// as its name says), ">N" is open: it is read as open, which must be
// above N.
func parseBucket(field, s string, open float64) (sim.Amount, *fieldError) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, &fieldError{field, errMissing, ""}
	}
	bound, isOpen := strings.CutPrefix(s, ">")
	f, err := strconv.ParseFloat(strings.TrimSpace(bound), 64)
	if err != nil || math.IsNaN(f) || f <= 0 || f > 1e9 {
		return 0, &fieldError{field, errBucket, s}
	}
	if isOpen {
		if open <= f {
			return 0, &fieldError{field, errOpenBucket, fmt.Sprintf("%s, read as %g", s, open)}
		}
		f = open
	}
	return sim.Amount(math.Round(f * 1000)), nil
}
