package run

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// energyConfig reads --price and --carbon (CSV time_s,value step series)
// and sets power-down from --power-down.
func energyConfig(cfg *Spec, e *sim.Config) (price, carbon *sim.StepSeries, err error) {
	if cfg.PowerDownS >= 0 {
		e.PowerDown = &sim.PowerDown{After: sim.SecondsToTime(cfg.PowerDownS)}
	}
	if cfg.Price != "" {
		if price, err = sim.LoadStepSeries(cfg.Price); err != nil {
			return nil, nil, fmt.Errorf("--price: %w", err)
		}
	}
	if cfg.Carbon != "" {
		if carbon, err = sim.LoadStepSeries(cfg.Carbon); err != nil {
			return nil, nil, fmt.Errorf("--carbon: %w", err)
		}
	}
	return price, carbon, nil
}

// validateEnergy checks the energy flags.
func (c *Spec) validateEnergy() []error {
	var errs []error
	if c.PowerDownS >= 0 && c.Backfill == "conservative" {
		errs = append(errs, c.problem("power_down_s", "conservative backfilling's reservations do not model the wait for nodes to wake; use none or easy"))
	}
	return errs
}
