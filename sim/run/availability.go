package run

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/availability"
)

// Availability is what a trace's recorded schedule says about the
// machine's availability (package availability): the stretches, the
// node events that drain them, the recorded jobs it was inferred from,
// and the machine's processors.
type Availability struct {
	Trace     string
	Stretches []availability.Stretch
	Events    []sim.NodeEvent
	Nodes     []availability.Node
	Jobs      []availability.Job
	Capacity  float64
	// Epoch is the calendar time of the trace's time 0 and Zone the
	// trace's own zone name (zero and "" when the trace does not say).
	Epoch time.Time
	Zone  string
}

// InferAvailability reads the spec's trace and cluster and applies rule
// to the jobs the trace records a start for. A trace that records none
// is bad input.
func InferAvailability(c *Spec, rule availability.Rule) (*Availability, error) {
	a, err := ReadRecorded(c)
	if err != nil {
		return nil, err
	}
	a.Infer(rule, sim.Forever)
	return a, nil
}

// ReadRecorded reads the spec's trace and cluster: the machine's
// processors and the jobs the trace records a start for, nothing yet
// inferred. A trace that records none is bad input.
func ReadRecorded(c *Spec) (*Availability, error) {
	w, err := OpenWorkload(c, nil)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	cluster, err := sim.NewCluster(w.Nodes)
	if err != nil {
		return nil, BadInput(fmt.Errorf("cluster (%s): %w", w.Cluster, err))
	}
	res := cluster.PowerResource(0)
	if res < 0 {
		return nil, BadInput(fmt.Errorf("cluster (%s): no resource to count processors of", w.Cluster))
	}
	a := &Availability{Trace: w.Name, Epoch: w.Epoch, Zone: w.TimeZone}
	for n := range cluster.Nodes {
		amt, _ := sim.Get(cluster.Nodes[n].Capacity, cluster.Resources[res])
		a.Nodes = append(a.Nodes, availability.Node{Name: cluster.Nodes[n].Name, Procs: amt.Float()})
		a.Capacity += amt.Float()
	}
	for {
		j, err := w.Source.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, BadInput(err)
		}
		if !j.Recorded {
			continue
		}
		amt, _ := sim.Get(j.Request, cluster.Resources[res])
		a.Jobs = append(a.Jobs, availability.Job{Submit: j.Submit, Start: j.RecordedStart, End: j.RecordedStart + j.Runtime,
			Procs: amt.Float() * float64(j.Tasks), Walltime: j.Walltime, User: j.User})
	}
	if len(a.Jobs) == 0 {
		return nil, BadInput(fmt.Errorf("%s: the trace records no job's start, so nothing can be inferred about availability", w.Name))
	}
	return a, nil
}

// Infer applies rule to the jobs submitted before cut only (sim.Forever:
// all), its stretches ending by cut: what the record up to then says
// about the machine, all that a validation on the later jobs may use.
// The jobs after cut are dropped.
func (a *Availability) Infer(rule availability.Rule, cut sim.Time) {
	if cut != sim.Forever {
		a.Jobs = slices.DeleteFunc(a.Jobs, func(j availability.Job) bool { return j.Submit >= cut })
	}
	a.Stretches = nil
	for _, s := range availability.Infer(a.Jobs, a.Capacity, rule) {
		if s.Start < cut {
			s.End = min(s.End, cut)
			a.Stretches = append(a.Stretches, s)
		}
	}
	a.Events = availability.Events(a.Stretches, a.Nodes)
}
