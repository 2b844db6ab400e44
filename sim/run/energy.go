package run

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/swf"
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

// swfHeaderCluster says whether the cluster was built from the SWF
// header (no --cluster or --platform given).
func swfHeaderCluster(cfg *Spec, w *Workload) bool {
	return w.ClusterModel != ""
}

// powerSource says what the run's energy figures rest on, for run.yaml
// and the printed summary: none, the SWF default assumed for every node,
// or the cluster's own description.
func powerSource(cfg *Spec, w *Workload, c *sim.Cluster) string {
	switch {
	case !c.HasPowerModel():
		return "none (energy not measured)"
	case swfHeaderCluster(cfg, w):
		return assumedSWFPower + " (an SWF header gives none)"
	}
	return "from " + w.Cluster
}

// assumedSWFPower names the power model an SWF header's cluster is given.
var assumedSWFPower = fmt.Sprintf("assumed %g W idle, %g W busy per node", float64(swf.DefaultNodeIdleW), float64(swf.DefaultNodeMaxW))
