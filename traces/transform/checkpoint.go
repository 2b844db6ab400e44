package transform

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Checkpoints sets each job's checkpoint interval and restore cost from its
// labels checkpoint_s and checkpoint_cost_s (native traces), else the
// interval to every (--checkpoint; 0: none). A label that is not a number
// of seconds ≥ 0 is a parse error naming file and the label.
func Checkpoints(src sim.Source, every sim.Time, file string) sim.Source {
	return &checkpoints{Source: src, every: every, file: file}
}

type checkpoints struct {
	sim.Source
	every sim.Time
	file  string
}

func (c *checkpoints) Next() (*sim.Job, error) {
	j, err := c.Source.Next()
	if err != nil {
		return j, err
	}
	interval, cost := j.CheckpointInterval, j.CheckpointCost
	if j.Traits != nil {
		for _, l := range j.Traits.Labels {
			var dst *sim.Time
			switch l.Key {
			case "checkpoint_s":
				dst = &interval
			case "checkpoint_cost_s":
				dst = &cost
			default:
				continue
			}
			t, perr := sim.ParseSeconds(l.Value)
			if perr != nil || t < 0 {
				return nil, &traces.ParseError{File: c.file, Field: "labels." + l.Key,
					Err: fmt.Errorf("job %s: want seconds ≥ 0, got %q", j.ID, l.Value)}
			}
			*dst = t
		}
	}
	if interval == 0 {
		interval = c.every
	}
	if interval != j.CheckpointInterval || cost != j.CheckpointCost {
		// The reader's job may be shared by runs (a trace cache): change a
		// copy.
		cp := *j
		cp.CheckpointInterval, cp.CheckpointCost = interval, cost
		j = &cp
	}
	return j, nil
}
