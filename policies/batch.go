package policies

import (
	"fmt"
	"strings"

	"github.com/schedsim/schedsim/policies/conservative"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// Backfill names a backfilling discipline.
type Backfill string

// Backfilling disciplines.
const (
	NoBackfill   Backfill = "none"         // strict queue order: the head blocks everyone
	EASY         Backfill = "easy"         // only the head holds a reservation
	Conservative Backfill = "conservative" // every queued job holds one
)

var backfillDocs = map[Backfill]string{
	NoBackfill:   "no backfilling: jobs start in queue order, the first that does not fit blocks the rest",
	EASY:         "EASY: the queue head holds a reservation; later jobs start now if they do not delay it",
	Conservative: "conservative: every queued job holds a reservation; later jobs start now if they delay none",
}

// ParseBackfill checks a backfill name.
func ParseBackfill(s string) (Backfill, error) {
	b := Backfill(s)
	if _, ok := backfillDocs[b]; !ok {
		return "", fmt.Errorf("unknown backfill %q (known: none, easy, conservative)", s)
	}
	return b, nil
}

// BackfillDoc returns the one-line description of a discipline.
func BackfillDoc(b Backfill) string { return backfillDocs[b] }

// NewBatch returns the classic HPC batch scheduler: the engine keeps the
// queue in the chosen order; this scheduler starts jobs by first fit in node
// order under the chosen backfilling.
func NewBatch(b Backfill) (sim.Scheduler, error) {
	return NewPlacedBatch(b, nil, nil)
}

// NewPlacedBatch is NewBatch with the nodes chosen by a placement pipeline
// over cluster c (nil for first fit), with the default Options.
func NewPlacedBatch(b Backfill, c *sim.Cluster, p *placement.Pipeline) (sim.Scheduler, error) {
	return NewBatchWith(b, c, p, Options{})
}

// NewBatchWith is NewPlacedBatch with options (Options.Validate).
// Conservative backfilling places by its reservations (first fit in time,
// lowest-numbered nodes): it takes only the plain first-fit pipeline,
// rejects jobs carrying placement constraints, and does not handle
// parents, shortcomings or wards, whose fit its per-node profile does not
// model.
func NewBatchWith(b Backfill, c *sim.Cluster, p *placement.Pipeline, o Options) (sim.Scheduler, error) {
	if err := o.Validate(b); err != nil {
		return nil, err
	}
	var pl placer = firstFitPlacer{}
	if p != nil {
		pl = newPipelinePlacer(c, p)
	}
	switch b {
	case NoBackfill:
		return &strict{pl: pl}, nil
	case EASY:
		return &easy{pl: pl}, nil
	case Conservative:
		if p != nil && !p.Plain() {
			return nil, fmt.Errorf("conservative backfilling places by its reservations: use placement first-fit, or backfill none or easy with placement %s", p.Name)
		}
		if c != nil && c.Special() {
			return nil, fmt.Errorf("conservative backfilling does not model parents, shortcomings or wards: use backfill none or easy on this cluster")
		}
		return conservative.New(conservative.Config{Repick: o.Reservations == Repick, PlanningDelay: o.PlanningDelay}), nil
	}
	return nil, fmt.Errorf("unknown backfill %q", strings.TrimSpace(string(b)))
}

// strict starts jobs in queue order until one does not fit. A job found
// unschedulable is rejected and the next one becomes the head.
type strict struct {
	pl  placer
	buf []int32
}

func (s *strict) Schedule(c *sim.Context) error {
	s.pl.sync(c)
	for _, j := range c.Queue() {
		nodes, err := s.pl.place(c, j, nil, nil, s.buf)
		if err != nil {
			return err
		}
		if j.Status == sim.Rejected {
			continue
		}
		if nodes == nil {
			return nil
		}
		if err := c.Start(j, nodes); err != nil {
			return err
		}
		s.buf = nodes
	}
	return nil
}
