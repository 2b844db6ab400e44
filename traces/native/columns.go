package native

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// Columns are the optional columns a CSV or Parquet writer emits: one
// requirement column per resource, in the order the resources first
// appear, and a column for each recorded field (qos, requested_procs,
// recorded_start_s), each trait field and depends_on when some job has
// it. A writer needs them before its first row, so a streaming
// converter gathers them in a first pass over the trace (Add), then writes
// in a second; ColumnsOf does it for jobs in memory.
type Columns struct {
	// Resources name the req_ columns, in order.
	Resources []string
	has       [numFields]bool // optional fields (from firstOptional) that some job has
	index     map[string]int  // resource → position in Resources
}

// ColumnsOf returns the columns jobs need, or the first job a writer
// would reject.
func ColumnsOf(jobs []*sim.Job) (Columns, error) {
	var c Columns
	for _, j := range jobs {
		if err := c.Add(j); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Add notes the resources, recorded fields, trait fields and
// dependencies of j. It checks j as a writer would and returns the error
// naming the job.
func (c *Columns) Add(j *sim.Job) error {
	if err := checkJob(j); err != nil {
		return fmt.Errorf("job %q: %w", j.ID, err)
	}
	for f := firstOptional; f < firstTrait; f++ {
		c.has[f] = c.has[f] || hasRecorded(f, j)
	}
	if t := j.Traits; t != nil {
		for f := firstTrait; f < fDependsOn; f++ {
			c.has[f] = c.has[f] || hasTrait(f, t)
		}
	}
	c.has[fDependsOn] = c.has[fDependsOn] || len(j.DependsOn) > 0
	for _, q := range j.Request {
		c.addResource(q.Resource)
	}
	return nil
}

func (c *Columns) addResource(r string) {
	if c.index == nil {
		c.index = map[string]int{}
		for i, name := range c.Resources { // a caller may have set Resources
			c.index[name] = i
		}
	}
	if _, ok := c.index[r]; !ok {
		c.index[r] = len(c.Resources)
		c.Resources = append(c.Resources, r)
	}
}

// resource returns the position of r among the req_ columns.
func (c *Columns) resource(r string) (int, bool) {
	if c.index == nil && len(c.Resources) > 0 {
		c.addResource(c.Resources[0]) // builds the index
	}
	i, ok := c.index[r]
	return i, ok
}

// optional lists the recorded fields, trait fields and depends_on that
// have a column, in schema order.
func (c *Columns) optional() []field {
	var fs []field
	for f := firstOptional; f < numFields; f++ {
		if c.has[f] {
			fs = append(fs, f)
		}
	}
	return fs
}

// fits reports the first thing of j that has no column.
func (c *Columns) fits(j *sim.Job) error {
	for _, q := range j.Request {
		if _, ok := c.resource(q.Resource); !ok {
			return fmt.Errorf("job %q: resource %s has no column (not seen when the columns were gathered)", j.ID, q.Resource)
		}
	}
	for f := firstOptional; f < firstTrait; f++ {
		if !c.has[f] && hasRecorded(f, j) {
			return fmt.Errorf("job %q: %s has no column (not seen when the columns were gathered)", j.ID, f)
		}
	}
	if t := j.Traits; t != nil {
		for f := firstTrait; f < fDependsOn; f++ {
			if !c.has[f] && hasTrait(f, t) {
				return fmt.Errorf("job %q: %s has no column (not seen when the columns were gathered)", j.ID, f)
			}
		}
	}
	if !c.has[fDependsOn] && len(j.DependsOn) > 0 {
		return fmt.Errorf("job %q: depends_on has no column (not seen when the columns were gathered)", j.ID)
	}
	return nil
}

// hasRecorded reports whether j has a value for the recorded field f
// (qos, requested_procs, recorded_start_s).
func hasRecorded(f field, j *sim.Job) bool {
	switch f {
	case fQOS:
		return j.QOS != ""
	case fRequestedProcs:
		return j.RequestedProcs != 0
	case fRecordedStart:
		return j.Recorded
	}
	return false
}
