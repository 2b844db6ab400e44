package lattice

import (
	"fmt"
	"math"

	"github.com/schedsim/schedsim/sim"
)

// ServiceArgs is one entry of the lattice block's services: list, a
// reactive allocation (an autoscaling service):
//
//	services:
//	  - name: web
//	    min_nodes: 1
//	    max_nodes: 4
//	    metric: web-load.csv     # CSV time_s,value
//	    metric_kind: total       # total (default): value / nodes held; per_node: as is
//	    scale_up_above: 80       # per-node load above which it asks for step_nodes more
//	    scale_down_below: 30     # per-node load below which it gives step_nodes back
//	    cooldown_s: 300          # no new step for this long after one
//	    step_nodes: 1            # default 1
//	    start_s: 0               # when it asks for its min_nodes
//	    end_s: 0                 # when it releases everything; 0: never
type ServiceArgs struct {
	Name           string  `yaml:"name"`
	MinNodes       int     `yaml:"min_nodes"`
	MaxNodes       int     `yaml:"max_nodes"`
	Metric         string  `yaml:"metric"`
	MetricKind     string  `yaml:"metric_kind,omitempty"`
	ScaleUpAbove   float64 `yaml:"scale_up_above"`
	ScaleDownBelow float64 `yaml:"scale_down_below"`
	CooldownS      float64 `yaml:"cooldown_s"`
	StepNodes      int     `yaml:"step_nodes,omitempty"`
	StartS         float64 `yaml:"start_s,omitempty"`
	EndS           float64 `yaml:"end_s,omitempty"`
}

// How a service's metric is read.
const (
	// MetricTotal is the service's whole load (requests per second, say):
	// the scaler compares it divided by the nodes held, so scaling up
	// lowers the per-node load it sees.
	MetricTotal = "total"
	// MetricPerNode is a load already per node (a utilisation), compared
	// as it is.
	MetricPerNode = "per_node"
)

// ServiceConfig is a service resolved: its metric loaded, times on the
// engine's clock.
type ServiceConfig struct {
	Name               string
	MinNodes, MaxNodes int
	Metric             *MetricSeries
	PerNode            bool
	UpAbove, DownBelow float64
	Cooldown           sim.Time
	Step               int
	Start, End         sim.Time // End 0: never
}

// validateServices reports every problem of the services: list, each
// naming services[i].key.
func validateServices(svcs []ServiceArgs) []error {
	var errs []error
	seen := map[string]int{}
	for i, sv := range svcs {
		add := func(key, format string, args ...any) {
			errs = append(errs, fmt.Errorf("services[%d].%s: %s", i, key, fmt.Sprintf(format, args...)))
		}
		switch j, dup := seen[sv.Name]; {
		case sv.Name == "":
			add("name", "give the service a name")
		case dup:
			add("name", "%q is also services[%d]'s name", sv.Name, j)
		default:
			seen[sv.Name] = i
		}
		if sv.MinNodes < 0 {
			add("min_nodes", "must be ≥ 0, got %d", sv.MinNodes)
		}
		if sv.MaxNodes < 1 || sv.MaxNodes < sv.MinNodes {
			add("max_nodes", "must be ≥ 1 and ≥ min_nodes (%d), got %d", sv.MinNodes, sv.MaxNodes)
		}
		if sv.StepNodes < 0 {
			add("step_nodes", "must be ≥ 1 (0: the default 1), got %d", sv.StepNodes)
		}
		switch sv.MetricKind {
		case "", MetricTotal, MetricPerNode:
		default:
			add("metric_kind", "want %s or %s, got %q", MetricTotal, MetricPerNode, sv.MetricKind)
		}
		finite := func(key string, v float64) bool {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				add(key, "must be a number ≥ 0, got %s", sim.FormatNumber(v))
				return false
			}
			return true
		}
		up, down := finite("scale_up_above", sv.ScaleUpAbove), finite("scale_down_below", sv.ScaleDownBelow)
		if up && down && sv.ScaleDownBelow >= sv.ScaleUpAbove {
			add("scale_down_below", "must be below scale_up_above (%g), got %g: the service would scale both ways at once", sv.ScaleUpAbove, sv.ScaleDownBelow)
		}
		finite("cooldown_s", sv.CooldownS)
		finite("start_s", sv.StartS)
		if finite("end_s", sv.EndS) && sv.EndS != 0 && sv.EndS <= sv.StartS {
			add("end_s", "must be after start_s (%g), or 0 for never, got %g", sv.StartS, sv.EndS)
		}
		if sv.Metric == "" {
			add("metric", "give the CSV of the service's load (time_s,value)")
		} else if _, err := LoadMetric(sv.Metric); err != nil {
			add("metric", "%v", err)
		}
	}
	return errs
}

// resolveServices loads the services' metrics.
func resolveServices(svcs []ServiceArgs) ([]ServiceConfig, error) {
	if errs := validateServices(svcs); len(errs) > 0 {
		return nil, fmt.Errorf("lattice.%w", errs[0])
	}
	out := make([]ServiceConfig, len(svcs))
	for i, sv := range svcs {
		m, err := LoadMetric(sv.Metric)
		if err != nil {
			return nil, fmt.Errorf("lattice.services[%d].metric: %w", i, err)
		}
		out[i] = ServiceConfig{
			Name: sv.Name, MinNodes: sv.MinNodes, MaxNodes: sv.MaxNodes, Metric: m, PerNode: sv.MetricKind == MetricPerNode,
			UpAbove: sv.ScaleUpAbove, DownBelow: sv.ScaleDownBelow, Cooldown: sim.SecondsToTime(sv.CooldownS),
			Step: max(sv.StepNodes, 1), Start: sim.SecondsToTime(sv.StartS), End: sim.SecondsToTime(sv.EndS),
		}
	}
	return out, nil
}
