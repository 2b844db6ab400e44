package nodeevents

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Load reads a node-events file.
func Load(path string) ([]sim.NodeEvent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse reads a node-events file's content; name is used in messages.
func Parse(data []byte, name string) ([]sim.NodeEvent, error) {
	r := traces.NewCSVReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, &traces.ParseError{File: name, Line: 1, Err: errors.New("empty file: want a header time_s,node,event[,deadline_s]")}
	}
	if err != nil {
		return nil, traces.CSVError(name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		switch h {
		case "time_s", "node", "event", "deadline_s":
		default:
			line, _ := r.FieldPos(i)
			return nil, &traces.ParseError{File: name, Line: line, Field: h, Err: errors.New("unknown column (known: time_s, node, event, deadline_s)")}
		}
		if _, dup := col[h]; dup {
			line, _ := r.FieldPos(i)
			return nil, &traces.ParseError{File: name, Line: line, Field: h, Err: errors.New("column given twice")}
		}
		col[h] = i
	}
	for _, need := range []string{"time_s", "node", "event"} {
		if _, ok := col[need]; !ok {
			line, _ := r.FieldPos(0)
			return nil, &traces.ParseError{File: name, Line: line, Field: need, Err: errors.New("missing column")}
		}
	}
	var events []sim.NodeEvent
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return nil, traces.CSVError(name, err)
		}
		line, _ := r.FieldPos(0)
		get := func(c string) string {
			i, ok := col[c]
			if !ok || i >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		bad := func(field string, err error) error {
			return &traces.ParseError{File: name, Line: line, Field: field, Err: err}
		}
		var ev sim.NodeEvent
		if ev.At, err = sim.ParseSeconds(get("time_s")); err != nil || ev.At < 0 {
			return nil, bad("time_s", fmt.Errorf("want seconds ≥ 0, got %q", get("time_s")))
		}
		if ev.Node = get("node"); ev.Node == "" {
			return nil, bad("node", errors.New("missing"))
		}
		if ev.Kind, err = sim.ParseNodeEventKind(get("event")); err != nil {
			return nil, bad("event", err)
		}
		if d := get("deadline_s"); d != "" {
			if ev.Kind != sim.NodeDrain {
				return nil, bad("deadline_s", fmt.Errorf("only a drain has a deadline, not a %s", ev.Kind))
			}
			if ev.Deadline, err = sim.ParseSeconds(d); err != nil || ev.Deadline < ev.At {
				return nil, bad("deadline_s", fmt.Errorf("want seconds ≥ time_s, got %q", d))
			}
		}
		events = append(events, ev)
	}
}
