package policies

import (
	"fmt"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Backfill names a backfilling discipline.
type Backfill string

// Backfilling disciplines (SPEC §5).
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
	switch b {
	case NoBackfill:
		return &strict{}, nil
	case EASY:
		return &easy{}, nil
	case Conservative:
		return newConservative(), nil
	}
	return nil, fmt.Errorf("unknown backfill %q", strings.TrimSpace(string(b)))
}

// strict starts jobs in queue order until one does not fit.
type strict struct{ buf []int32 }

func (s *strict) Schedule(c *sim.Context) error {
	for _, j := range c.Queue() {
		nodes := firstFit(c, j, nil, s.buf)
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
