package registry

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

// ConservativeArgs are conservative backfilling's arguments: the
// conservative: block, or the top-level keys reservations,
// planning_delay_s and compat (--reservations, --planning-delay,
// --compat).
type ConservativeArgs struct {
	// Reservations is the rule for a queued job's reservation: keep its
	// nodes unless the job can start earlier (""), or repick every
	// queued job's first fit at every job end (batsched's rule).
	Reservations string `yaml:"reservations,omitempty"`
	// PlanningDelayS are seconds added to walltimes for planning only
	// (Batsim's RJMS delay).
	PlanningDelayS float64 `yaml:"planning_delay_s,omitempty"`
	// Compat batsim sets both as a default Batsim run does (repick, 5 s);
	// the keys given beside it win.
	Compat string `yaml:"compat,omitempty"`
}

// IsZero says whether the block sets nothing.
func (a ConservativeArgs) IsZero() bool { return a == ConservativeArgs{} }

// Options are the batch scheduler's options for a run of backfilling
// run: compat's, then the keys given. The error starts with its key.
func (a *ConservativeArgs) Options(run policies.Backfill) (policies.Options, error) {
	var o policies.Options
	switch a.Compat {
	case "":
	case "batsim":
		if run == policies.Conservative {
			o = policies.Options{Reservations: policies.Repick, PlanningDelay: sim.SecondsToTime(5)}
		}
	default:
		return o, fmt.Errorf("compat: unknown simulator %q (known: batsim)", a.Compat)
	}
	if a.Reservations != "" {
		r, err := policies.ParseReservations(a.Reservations)
		if err != nil {
			return o, fmt.Errorf("reservations: %w", err)
		}
		o.Reservations = r
	}
	if a.PlanningDelayS != 0 {
		d, err := sim.CheckSeconds(a.PlanningDelayS)
		if err != nil {
			return o, fmt.Errorf("planning_delay_s: %w", err)
		}
		o.PlanningDelay = d
	}
	if err := o.Validate(run); err != nil {
		key := "reservations"
		if a.Reservations == "" {
			key = "planning_delay_s"
		}
		return o, fmt.Errorf("%s: %w", key, err)
	}
	return o, nil
}

// Validate reports the problem of the arguments for a run of
// backfilling run, if any.
func (a *ConservativeArgs) Validate(run policies.Backfill) error {
	_, err := a.Options(run)
	return err
}

// conservativeBackfill is conservative backfilling, with its reservation
// rule and planning delay.
var conservativeBackfill = Backfill{
	Kind: policies.Conservative, Doc: policies.BackfillDoc(policies.Conservative),
	NewArgs: func() Args { return &ConservativeArgs{} },
	Flat:    []string{"reservations", "planning_delay_s", "compat"},
	Options: func(args Args, run policies.Backfill) (policies.Options, error) {
		return args.(*ConservativeArgs).Options(run)
	},
	Flags: conservativeFlags,
}

// conservativeFlags binds --reservations, --planning-delay and --compat
// to the run's conservative block.
func conservativeFlags(fs *pflag.FlagSet, args func() Args) {
	of := func() *ConservativeArgs { return args().(*ConservativeArgs) }
	fs.Var(stringArg(func() *string { return &of().Reservations }), "reservations", "conservative backfilling's reservations: keep (a job keeps its nodes unless it can start earlier; default) or repick (batsched: every queued job takes its first fit again at every job end)")
	fs.Var(floatArg(func() *float64 { return &of().PlanningDelayS }), "planning-delay", "seconds added to every walltime for planning only (Batsim's RJMS delay); jobs are still killed at their walltime")
	fs.Var(stringArg(func() *string { return &of().Compat }), "compat", "batsim: conservative backfilling as a default Batsim run plans it (--reservations repick, --planning-delay 5)")
}
