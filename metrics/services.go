package metrics

import (
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// ServiceHolding is one change of an autoscaled service's nodes: from At
// on it holds Nodes and waits for Pending more.
type ServiceHolding struct {
	At             sim.Time
	Service        string
	Nodes, Pending int
}

// ScaleEvent is one step of an autoscaled service: a request, a scale-up
// or -down, a withdrawn request, the service's stop.
type ScaleEvent struct {
	At       sim.Time
	Service  string
	Action   string
	From, To int
	Load     float64 // per node; +Inf when it held none (written null)
	Waited   sim.Time
	Nodes    []string
}

// ServiceAccount is a service's account over the run.
type ServiceAccount struct {
	Service                        string
	MinNodes, MaxNodes             int
	NodeSeconds                    float64
	Above, Waiting, AtMax, Cooling sim.Time
	Ups, Downs, Withdrawn          int
}

// Services writes the tables of autoscaled services: service_nodes (the
// nodes each holds over time), scale_events and services (one row per
// service: time above its threshold, unable to scale — waiting for nodes
// or at its maximum — and cooling down). Call it after the run, before
// Close.
func (r *Recorder) Services(holdings []ServiceHolding, events []ScaleEvent, accounts []ServiceAccount) error {
	f64, str, i64 := arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64
	field := func(name string, t arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: true}
	}
	tables := []struct {
		name   string
		schema *arrow.Schema
		fill   func(b builders)
	}{
		{"service_nodes", arrow.NewSchema([]arrow.Field{field("time_s", f64), field("service", str), field("nodes", i64), field("pending", i64)}, nil),
			func(b builders) {
				for _, h := range holdings {
					b.f64("time_s").Append(h.At.Seconds())
					b.str("service").Append(h.Service)
					b.i64("nodes").Append(int64(h.Nodes))
					b.i64("pending").Append(int64(h.Pending))
				}
			}},
		{"scale_events", arrow.NewSchema([]arrow.Field{field("time_s", f64), field("service", str), field("action", str), field("from_nodes", i64),
			field("to_nodes", i64), field("load", f64), field("waited_s", f64), field("nodes", str)}, nil),
			func(b builders) {
				for _, e := range events {
					b.f64("time_s").Append(e.At.Seconds())
					b.str("service").Append(e.Service)
					b.str("action").Append(e.Action)
					b.i64("from_nodes").Append(int64(e.From))
					b.i64("to_nodes").Append(int64(e.To))
					if math.IsInf(e.Load, 0) || math.IsNaN(e.Load) {
						b.f64("load").AppendNull()
					} else {
						b.f64("load").Append(e.Load)
					}
					b.f64("waited_s").Append(e.Waited.Seconds())
					nodes := ""
					for i, n := range e.Nodes {
						if i > 0 {
							nodes += " "
						}
						nodes += n
					}
					b.str("nodes").Append(nodes)
				}
			}},
		{"services", arrow.NewSchema([]arrow.Field{field("service", str), field("min_nodes", i64), field("max_nodes", i64), field("node_s", f64),
			field("above_s", f64), field("waiting_s", f64), field("at_max_s", f64), field("unable_s", f64), field("cooling_s", f64),
			field("ups", i64), field("downs", i64), field("withdrawn", i64)}, nil),
			func(b builders) {
				for _, a := range accounts {
					b.str("service").Append(a.Service)
					b.i64("min_nodes").Append(int64(a.MinNodes))
					b.i64("max_nodes").Append(int64(a.MaxNodes))
					b.f64("node_s").Append(a.NodeSeconds)
					b.f64("above_s").Append(a.Above.Seconds())
					b.f64("waiting_s").Append(a.Waiting.Seconds())
					b.f64("at_max_s").Append(a.AtMax.Seconds())
					b.f64("unable_s").Append((a.Waiting + a.AtMax).Seconds())
					b.f64("cooling_s").Append(a.Cooling.Seconds())
					b.i64("ups").Append(int64(a.Ups))
					b.i64("downs").Append(int64(a.Downs))
					b.i64("withdrawn").Append(int64(a.Withdrawn))
				}
			}},
	}
	for _, t := range tables {
		tb, err := newTable(r.dir, t.name, r.opt.Format, t.schema, r.mem)
		if err != nil {
			return err
		}
		r.tables = append(r.tables, tb)
		fill := t.fill
		if err := tb.send(func(rb *array.RecordBuilder) { fill(builders{rb}) }); err != nil {
			return err
		}
	}
	return nil
}
