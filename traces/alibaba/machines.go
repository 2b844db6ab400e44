package alibaba

import (
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Machines is what machine_meta says about the cluster.
type Machines struct {
	// Nodes has one node per machine, in order of first appearance in the
	// file: resources cpu (cpu_num cores) and mem (mem_size, normalised
	// 0–100 like plan_mem), attributes failure_domain_1 and
	// failure_domain_2.
	Nodes []sim.NodeSpec
	// Events are the machines' status changes, in time order.
	Events []sim.NodeEvent
	Skips  traces.Skips
}

// InService says whether a machine_meta status keeps the machine usable:
// USING and IDLE (any case). Other statuses take it out of service.
func InService(status string) bool {
	return strings.EqualFold(status, "USING") || strings.EqualFold(status, "IDLE")
}

var (
	errNotCores  = errors.New("not a whole number of cores ≥ 1")
	errMemSize   = errors.New("not a normalised size in (0, 100]")
	errNoMachine = errors.New("no machine in machine_meta")
)

// machineRow is one machine_meta record.
type machineRow struct {
	line   int
	at     sim.Time
	fd1    string
	fd2    string
	cpu    int64
	mem    sim.Amount
	status string
}

// ReadMachines reads a machine_meta table (optionally gzip-compressed).
func ReadMachines(path string, opt traces.Options) (*Machines, error) {
	t, err := traces.OpenCSVTable(path, len(machineColumns))
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return readMachines(t, opt)
}

// ParseMachines reads a machine_meta table from r; name is used in errors.
func ParseMachines(r io.Reader, name string, opt traces.Options) (*Machines, error) {
	return readMachines(traces.NewCSVTable(r, name, len(machineColumns)), opt)
}

// readMachines holds the whole table: it is small (one row per machine
// and status change; 4,000 machines in the published trace).
func readMachines(t *traces.CSVTable, opt traces.Options) (*Machines, error) {
	m := &Machines{}
	reject := func(line int, field string, err error) error {
		return rejectTo(&m.Skips, opt.Strict, &traces.ParseError{File: t.Name, Line: line, Field: field, Err: err})
	}
	rows := map[string][]machineRow{}
	var order []string
	for {
		row, line, err := t.Next(opt.Strict, &m.Skips)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		id := row[0]
		mr, bad := parseMachine(row, line)
		if bad == nil && id == "" {
			bad = &fieldError{"machine_id", errMissing}
		}
		if bad != nil {
			if err := reject(line, bad.field, bad.err); err != nil {
				return nil, err
			}
			continue
		}
		if _, seen := rows[id]; !seen {
			order = append(order, id)
		}
		rows[id] = append(rows[id], mr)
	}
	if len(order) == 0 {
		return nil, &traces.ParseError{File: t.Name, Err: errNoMachine}
	}
	for _, id := range order {
		rs := rows[id]
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].at < rs[b].at })
		first := rs[0]
		node := sim.NodeSpec{
			Name: id,
			Capacity: []sim.Quantity{
				{Resource: "cpu", Amount: sim.Units(first.cpu)},
				{Resource: "mem", Amount: first.mem},
			},
			Power: sim.PowerModel{Resource: "cpu"},
		}
		for _, a := range [...]struct{ key, value string }{{"failure_domain_1", first.fd1}, {"failure_domain_2", first.fd2}} {
			if a.value != "" {
				if node.Attributes == nil {
					node.Attributes = map[string]string{}
				}
				node.Attributes[a.key] = a.value
			}
		}
		m.Nodes = append(m.Nodes, node)
		// A machine that first shows up after the start is absent (down)
		// until then.
		up := true
		if first.at > 0 {
			m.Events = append(m.Events, sim.NodeEvent{At: 0, Node: id, Kind: sim.NodeFail})
			up = false
		}
		for _, r := range rs {
			if want := InService(r.status); want != up {
				kind := sim.NodeFail
				if want {
					kind = sim.NodeRecover
				}
				m.Events = append(m.Events, sim.NodeEvent{At: r.at, Node: id, Kind: kind})
				up = want
			}
		}
	}
	sort.SliceStable(m.Events, func(a, b int) bool { return m.Events[a].At < m.Events[b].At })
	return m, nil
}

// parseMachine checks a machine_meta row. A time_stamp of 0 (before or
// after the window) is read as the start.
func parseMachine(row []string, line int) (machineRow, *fieldError) {
	mr := machineRow{line: line, fd1: strings.TrimSpace(row[2]), fd2: strings.TrimSpace(row[3]), status: strings.TrimSpace(row[6])}
	ts := strings.TrimSpace(row[1])
	if ts == "" {
		return mr, &fieldError{"time_stamp", errMissing}
	}
	at, err := sim.ParseSeconds(ts)
	if err != nil || at < 0 || at > maxTime {
		return mr, &fieldError{"time_stamp", detail(errNotTime, ts)}
	}
	mr.at = at
	cpu, err := strconv.ParseInt(strings.TrimSpace(row[4]), 10, 64)
	if err != nil || cpu < 1 || cpu > 1<<30 {
		return mr, &fieldError{"cpu_num", detail(errNotCores, row[4])}
	}
	mr.cpu = cpu
	ms := strings.TrimSpace(row[5])
	if ms == "" {
		return mr, &fieldError{"mem_size", errMissing}
	}
	f, err := strconv.ParseFloat(ms, 64)
	if err != nil || !(f > 0 && f <= 100) {
		return mr, &fieldError{"mem_size", detail(errMemSize, ms)}
	}
	mr.mem = sim.Amount(f*1000 + 0.5)
	if mr.status == "" {
		return mr, &fieldError{"status", errMissing}
	}
	return mr, nil
}
