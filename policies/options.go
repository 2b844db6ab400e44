package policies

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// Reservations names what conservative backfilling does with a queued
// job's reservation when jobs end.
type Reservations string

// Reservation rules. Both are conservative backfilling: no job is ever
// delayed by a later one. They differ in which nodes a reservation holds.
const (
	// Keep moves a reservation only when the job can start earlier, to
	// the lowest-numbered nodes free at that start; otherwise it keeps its
	// nodes (Mu'alem & Feitelson, pyss, which count processors only).
	Keep Reservations = "keep"
	// Repick takes every queued job, in queue order, out of the schedule
	// at every job end and puts it back at its first fit (the earliest
	// start, then the lowest-numbered nodes free over its whole window)
	// even when its start does not change, so a job can move to other
	// nodes. This is batsched's conservative_bf, the scheduler of Batsim.
	Repick Reservations = "repick"
)

var reservationDocs = map[Reservations]string{
	Keep:   "keep a reservation's nodes unless the job can start earlier (pyss, Mu'alem & Feitelson)",
	Repick: "re-place every queued job at its first fit at every job end, nodes included (batsched, Batsim)",
}

// ParseReservations checks a reservation rule name; "" is Keep.
func ParseReservations(s string) (Reservations, error) {
	if s == "" {
		return Keep, nil
	}
	r := Reservations(s)
	if _, ok := reservationDocs[r]; !ok {
		return "", fmt.Errorf("unknown reservations rule %q (known: keep, repick)", s)
	}
	return r, nil
}

// ReservationsDoc returns the one-line description of a rule.
func ReservationsDoc(r Reservations) string { return reservationDocs[r] }

// Options tunes the batch scheduler. The zero value is the default:
// reservations kept, no planning delay.
type Options struct {
	// Reservations is conservative backfilling's rule ("" is Keep).
	Reservations Reservations
	// PlanningDelay is added to every job's walltime for planning only:
	// reservations and running jobs' expected ends are that much longer
	// (batsched's "RJMS delay", 5 s in a default Batsim run). Jobs are
	// still killed at their walltime, so a job that uses all of it ends
	// early in the plan and the schedule is compressed.
	PlanningDelay sim.Time
}

// Validate checks the options for backfilling b: a known rule, a delay
// ≥ 0, and neither Repick nor a delay outside conservative backfilling
// (EASY's choices do not change when every walltime grows alike).
func (o Options) Validate(b Backfill) error {
	if _, err := ParseReservations(string(o.Reservations)); err != nil {
		return err
	}
	if o.PlanningDelay < 0 {
		return fmt.Errorf("planning delay must be ≥ 0 seconds, got %s", o.PlanningDelay)
	}
	if b != Conservative {
		if o.Reservations == Repick {
			return fmt.Errorf("reservations repick applies to conservative backfilling only, not %s", b)
		}
		if o.PlanningDelay != 0 {
			return fmt.Errorf("a planning delay applies to conservative backfilling only, not %s", b)
		}
	}
	return nil
}
