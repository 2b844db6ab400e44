package sacct

import (
	"errors"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/slurmconf"
)

// maxCPUs bounds a job's CPU count (and so its tasks).
const maxCPUs = 1 << 24

// shape sets the job's tasks and per-task request (doc.go, "Tasks"):
// with a node count, one task per node holding that node's share of the
// CPUs, memory and GPUs, rounded up; without one, one task per CPU.
func (w row) shape(j *sim.Job, alloc, req tres, ncpus int64) *traces.ParseError {
	cpus, cpuCol := ncpus, cNCPUS
	if cpus == 0 && alloc.cpu > 0 {
		cpus, cpuCol = alloc.cpu, cAllocTRES
	}
	if cpus == 0 {
		v, _, perr := w.count(cReqCPUS)
		if perr != nil {
			return perr
		}
		cpus, cpuCol = v, cReqCPUS
	}
	if cpus == 0 && req.cpu > 0 {
		cpus, cpuCol = req.cpu, cReqTRES
	}
	if !w.r.hdr.has(cpuCol) {
		cpuCol = w.firstPresent(cNCPUS, cAllocTRES, cReqCPUS, cReqTRES)
	}
	switch {
	case cpus <= 0:
		return w.bad(cpuCol, errors.New("no CPU count: NCPUS, AllocTRES cpu, ReqCPUS and ReqTRES cpu are all 0 or empty"))
	case cpus > maxCPUs:
		return w.bad(cpuCol, errors.New("too many CPUs"))
	}
	nodes, nodeCol, perr := w.nodes(alloc, req)
	if perr != nil {
		return perr
	}
	if nodes > cpus {
		return w.bad(nodeCol, errors.New("more nodes than CPUs"))
	}
	mem, hasMem, perr := w.memory(alloc, req)
	if perr != nil {
		return perr
	}
	gpus := max(alloc.gpu, 0)
	if alloc.gpu < 0 {
		gpus = max(req.gpu, 0)
	}
	j.RequestedProcs = cpus

	var cpu, memory, gpu sim.Amount
	if nodes > 0 {
		perNode := ceilDiv(cpus, nodes)
		j.Tasks = int(nodes)
		cpu = sim.Units(perNode)
		gpu = sim.Units(ceilDiv(gpus, nodes))
		switch mem.basis {
		case memTotal:
			memory = sim.Amount(ceilDiv(int64(mem.mb), nodes))
		case memPerCPU:
			if int64(mem.mb) > 9e15/perNode {
				return w.bad(w.firstPresent(cAllocTRES, cReqTRES, cReqMem), errors.New("memory too large"))
			}
			memory = mem.mb * sim.Amount(perNode)
		case memPerNode:
			memory = mem.mb
		}
	} else {
		j.Tasks = int(cpus)
		cpu = sim.Milli
		gpu = sim.Amount(ceilDiv(int64(sim.Units(gpus)), cpus))
		if mem.basis == memPerCPU {
			memory = mem.mb
		} else {
			memory = sim.Amount(ceilDiv(int64(mem.mb), cpus))
		}
	}
	j.Request = []sim.Quantity{{Resource: "cpu", Amount: cpu}}
	// A memory of 0 (--mem=0) asks for all of each node's memory, which
	// the request cannot say: memory is then not requested.
	if hasMem && memory > 0 {
		j.Request = append(j.Request, sim.Quantity{Resource: "mem", Amount: memory})
	}
	if gpu > 0 {
		j.Request = append(j.Request, sim.Quantity{Resource: "gpu", Amount: gpu})
	}
	if w.r.opt.ConfinePartitions {
		p := j.Partition
		if p == "" {
			p = w.r.opt.DefaultPartition
		}
		// A job eligible in several partitions (a,b) is left free: one
		// tag cannot say "any of".
		if p != "" && !strings.Contains(p, ",") {
			j.Request = append(j.Request, sim.Quantity{Resource: slurmconf.PartitionResource(p)})
		}
	}
	return nil
}

// nodes is NNodes, else AllocTRES node, else ReqTRES node; 0 when none
// gives one.
func (w row) nodes(alloc, req tres) (int64, column, *traces.ParseError) {
	n, _, perr := w.count(cNNodes)
	if perr != nil {
		return 0, cNNodes, perr
	}
	switch {
	case n > 0:
		return n, cNNodes, nil
	case alloc.node > 0:
		return alloc.node, cAllocTRES, nil
	case req.node > 0:
		return req.node, cReqTRES, nil
	}
	return 0, cNNodes, nil
}

// memory is AllocTRES mem, else ReqTRES mem, else ReqMem. ReqMem is always
// read, so that strict mode checks it.
func (w row) memory(alloc, req tres) (memory, bool, *traces.ParseError) {
	var reqMem memory
	hasReqMem := false
	if s := w.get(cReqMem); s != "" {
		m, err := parseMemory(s, true)
		if err != nil {
			return m, false, w.bad(cReqMem, err)
		}
		reqMem, hasReqMem = m, true
	}
	switch {
	case alloc.hasMem:
		return alloc.mem, true, nil
	case req.hasMem:
		return req.mem, true, nil
	}
	return reqMem, hasReqMem, nil
}

// firstPresent is the first of cols the dump has (for messages).
func (w row) firstPresent(cols ...column) column {
	for _, c := range cols {
		if w.r.hdr.has(c) {
			return c
		}
	}
	return cols[0]
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
