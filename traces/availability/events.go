package availability

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Node is a node of the cluster the events drain: its name and its
// processors (the main resource).
type Node struct {
	Name  string
	Procs float64
}

// Events turns stretches into drains of the last nodes: for each stretch,
// as many nodes from the end of the list as fit in its unavailable
// processors are drained at its start (running jobs finish) and undrained
// at its end. A stretch smaller than the last node drains none.
func Events(stretches []Stretch, nodes []Node) []sim.NodeEvent {
	var evs []sim.NodeEvent
	for _, s := range stretches {
		left := s.Unavailable
		for i := len(nodes) - 1; i >= 0 && nodes[i].Procs <= left+1e-9; i-- {
			left -= nodes[i].Procs
			evs = append(evs, sim.NodeEvent{At: s.Start, Node: nodes[i].Name, Kind: sim.NodeDrain},
				sim.NodeEvent{At: s.End, Node: nodes[i].Name, Kind: sim.NodeUndrain})
		}
	}
	slices.SortStableFunc(evs, func(a, b sim.NodeEvent) int {
		if a.At != b.At {
			if a.At < b.At {
				return -1
			}
			return 1
		}
		return 0
	})
	return evs
}

// DrainedNodes is how many nodes Events drains for s.
func DrainedNodes(s Stretch, nodes []Node) int {
	left, n := s.Unavailable, 0
	for i := len(nodes) - 1; i >= 0 && nodes[i].Procs <= left+1e-9; i-- {
		left -= nodes[i].Procs
		n++
	}
	return n
}

// WriteEvents writes node events in the --node-events format (CSV
// time_s,node,event), with a comment line saying where they come from.
func WriteEvents(w io.Writer, evs []sim.NodeEvent, comment string) error {
	if comment != "" {
		if _, err := fmt.Fprintf(w, "# %s\n", comment); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(w, "time_s,node,event"); err != nil {
		return err
	}
	for _, e := range evs {
		kind := "drain"
		if e.Kind == sim.NodeUndrain {
			kind = "undrain"
		}
		if _, err := fmt.Fprintf(w, "%s,%s,%s\n", e.At, e.Node, kind); err != nil {
			return err
		}
	}
	return nil
}

// WriteStretches writes the stretches as CSV, one a line.
func WriteStretches(w io.Writer, ss []Stretch, nodes []Node) error {
	if _, err := fmt.Fprintln(w, "start_s,end_s,hours,peak_busy_procs,unavailable_procs,drained_nodes,confidence"); err != nil {
		return err
	}
	for _, s := range ss {
		if _, err := fmt.Fprintf(w, "%s,%s,%s,%s,%s,%d,%s\n", s.Start, s.End,
			strconv.FormatFloat((s.End-s.Start).Seconds()/3600, 'f', 3, 64),
			strconv.FormatFloat(s.PeakBusy, 'g', -1, 64), strconv.FormatFloat(s.Unavailable, 'g', -1, 64),
			DrainedNodes(s, nodes), strconv.FormatFloat(s.Confidence, 'f', 3, 64)); err != nil {
			return err
		}
	}
	return nil
}
