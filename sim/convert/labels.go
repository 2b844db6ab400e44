package convert

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/native"
)

// carriedLabels carries what the native format has no field for as
// labels that replay reads back: a job's checkpoint interval and restore
// cost as checkpoint_s and checkpoint_cost_s, and its co-task group as
// native.CotaskLabel when its labels do not already say it; j is not
// changed.
func carriedLabels(j *sim.Job) *sim.Job {
	var group string
	if j.CotaskGroup != "" && (j.Traits == nil || !slices.ContainsFunc(j.Traits.Labels, func(x sim.Label) bool { return x.Key == native.CotaskLabel })) {
		group = j.CotaskGroup
	}
	if j.CheckpointInterval == 0 && j.CheckpointCost == 0 && group == "" {
		return j
	}
	c := *j
	var t sim.Traits
	if j.Traits != nil {
		t = *j.Traits
	}
	t.Labels = slices.Clone(t.Labels)
	for _, l := range []struct {
		key, val string
	}{
		{"checkpoint_s", seconds(j.CheckpointInterval)},
		{"checkpoint_cost_s", seconds(j.CheckpointCost)},
		{native.CotaskLabel, group},
	} {
		if l.val != "" && !slices.ContainsFunc(t.Labels, func(x sim.Label) bool { return x.Key == l.key }) {
			t.Labels = append(t.Labels, sim.Label{Key: l.key, Value: l.val})
		}
	}
	c.Traits = &t
	return &c
}

// seconds is t as a label value, "" for zero (no label).
func seconds(t sim.Time) string {
	if t == 0 {
		return ""
	}
	return sim.FormatSeconds(t)
}
