package script

import (
	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// The kinds of objects the builtins and entry points hand to a script.
// Field names follow LXD's JSON names (shared/api); fields LXD has and the
// simulator cannot fill are present with zero values, so LXD scripts that
// read them still run. Extra fields (marked "schedsim") come last.

// memberKind is api.ClusterMember, one per candidate: server_name (node
// name), url "", database False, status "Online" (offline nodes are never
// candidates), message, architecture (attribute arch), failure_domain
// (attribute failure_domain, else "default"), description (attribute
// description), config (the attributes with user.* keys), groups (the
// attribute groups, split at commas), roles [].
var memberKind = newKind("ClusterMember", []string{
	"server_name", "url", "database", "status", "message", "architecture",
	"failure_domain", "description", "config", "groups", "roles",
}, nil)

// stateKind is api.ClusterMemberState: sysinfo, storage_pools {} (the
// simulator has no pools), and (schedsim) instance_count, the tasks on
// the member.
var stateKind = newKind("ClusterMemberState", []string{"sysinfo", "storage_pools", "instance_count"},
	func(e *env, n, i int) starlark.Value {
		switch i {
		case 0:
			return sysinfoKind.view(e, n)
		case 1:
			return starlark.NewDict(0)
		}
		return starlark.MakeInt(e.tasksOn(n))
	})

// sysinfoKind is api.ClusterMemberSysInfo, from the ledger. The simulator
// has no load history: the three load_averages are all the cpu in use on
// the member (in cores, the closest reading of a load average: runnable
// work per core), 0.0 without a cpu resource. total_ram and free_ram are
// the member's mem capacity and what is free of it; logical_cpus its cpu
// capacity; processes its instance (task) count; uptime, shared_ram,
// buffer_ram and the swap fields are 0.
var sysinfoKind = newKind("ClusterMemberSysInfo", []string{
	"uptime", "load_averages", "total_ram", "free_ram", "shared_ram",
	"buffer_ram", "total_swap", "free_swap", "processes", "logical_cpus",
}, func(e *env, n, i int) starlark.Value {
	switch i {
	case 1:
		load := starlark.Float(e.usedOf(n, e.cpu).Float())
		return starlark.NewList([]starlark.Value{load, load, load})
	case 2:
		return amount(e.capacityOf(n, e.mem))
	case 3:
		return amount(e.freeOf(n, e.mem))
	case 8:
		return starlark.MakeInt(e.tasksOn(n))
	case 9:
		return amount(e.capacityOf(n, e.cpu))
	}
	return starlark.MakeInt(0)
})

// resourcesKind is api.Resources, reduced to what a simulated node has:
// cpu, memory, gpu and (schedsim) every resource of the cluster as
// {name: {total, used, free}}.
var resourcesKind = newKind("Resources", []string{"cpu", "memory", "gpu", "resources"},
	func(e *env, n, i int) starlark.Value {
		switch i {
		case 0:
			return cpuKind.view(e, n)
		case 1:
			return memoryKind.view(e, n)
		case 2:
			return gpuKind.view(e, n)
		}
		d := starlark.NewDict(len(e.c.Resources))
		for r, name := range e.c.Resources {
			_ = d.SetKey(starlark.String(name), amountsKind.record(
				amount(e.capacityOf(n, r)), amount(e.usedOf(n, r)), amount(e.freeOf(n, r))))
		}
		return d
	})

var amountsKind = newKind("ResourceAmounts", []string{"total", "used", "free"}, nil)

// cpuKind is api.ResourcesCPU: architecture (attribute arch), sockets []
// (no topology), total (cpu capacity, cores) and (schedsim) used.
var cpuKind = newKind("ResourcesCPU", []string{"architecture", "sockets", "total", "used"},
	func(e *env, n, i int) starlark.Value {
		switch i {
		case 0:
			return starlark.String(e.c.Nodes[n].Attributes["arch"])
		case 1:
			return starlark.NewList(nil)
		case 2:
			return amount(e.capacityOf(n, e.cpu))
		}
		return amount(e.usedOf(n, e.cpu))
	})

// memoryKind is api.ResourcesMemory: total and used (mem, in the
// cluster's unit) and (schedsim) free.
var memoryKind = newKind("ResourcesMemory", []string{"total", "used", "free"},
	func(e *env, n, i int) starlark.Value {
		switch i {
		case 0:
			return amount(e.capacityOf(n, e.mem))
		case 1:
			return amount(e.usedOf(n, e.mem))
		}
		return amount(e.freeOf(n, e.mem))
	})

// gpuKind is api.ResourcesGPU: cards [] and total (the gpu capacity) and
// (schedsim) used.
var gpuKind = newKind("ResourcesGPU", []string{"cards", "total", "used"},
	func(e *env, n, i int) starlark.Value {
		switch i {
		case 0:
			return starlark.NewList(nil)
		case 1:
			return amount(e.capacityOf(n, e.gpu))
		}
		return amount(e.usedOf(n, e.gpu))
	})

// instanceResourcesKind is api.InstanceResources, one task's request:
// cpu_cores (cpu), memory_size (mem), root_disk_size (disk), each in the
// cluster's unit, 0 when not requested.
var instanceResourcesKind = newKind("InstanceResources", []string{"cpu_cores", "memory_size", "root_disk_size"}, nil)

// requestKind is scriptlet.InstancePlacement: name (the job ID), type
// ("container"), architecture (the job's), project, reason ("new",
// "evacuation", "relocation"), config (limits.cpu and limits.memory from
// the request, as strings in the cluster's unit, and the job's labels),
// description "", profiles [], devices (a root disk with its size when the
// job asks for disk), ephemeral, stateful; and (schedsim) task (which of
// the job's tasks, from 0), tasks (how many), placed (the ClusterMembers
// the job's earlier tasks went to, in task order), user, group, queue, partition, priority.
var requestKind = newKind("InstancePlacement", []string{
	"name", "type", "architecture", "project", "reason", "config",
	"description", "profiles", "devices", "ephemeral", "stateful",
	"task", "tasks", "placed", "user", "group", "queue", "partition", "priority",
}, nil)

// taskKind is what score and filter see of a task: name (the job ID),
// project, reason, index (which of the job's tasks), tasks, request (the
// task's amounts by resource, 0 for resources it does not ask for),
// config (as in the request), architecture, placed (ClusterMembers, as
// in the request), user, group, queue,
// partition, priority.
var taskKind = newKind("Task", []string{
	"name", "project", "reason", "index", "tasks", "request", "config",
	"architecture", "placed", "user", "group", "queue", "partition", "priority",
}, nil)

// nodeKind is what score and filter see of a node: name, index (its
// position in the cluster), architecture, groups and config (as for a
// candidate member), attributes (all of them), status, tasks (its task
// count), and its capacity, free and used amounts by resource (node.free.mem
// or node.free["mem"]; 0 for resources it lacks).
var nodeKind = newKind("Node", []string{
	"name", "index", "architecture", "groups", "config", "attributes",
	"status", "tasks", "capacity", "free", "used",
}, func(e *env, n, i int) starlark.Value {
	m := e.members[n].(*object)
	switch i {
	case 0:
		return m.vals[0]
	case 1:
		return starlark.MakeInt(n)
	case 2:
		return m.vals[5]
	case 3:
		return m.vals[9]
	case 4:
		return m.vals[8]
	case 5:
		return e.attrs(n)
	case 6:
		return m.vals[3]
	case 7:
		return starlark.MakeInt(e.tasksOn(n))
	case 8:
		return e.capacity.view(e, n)
	case 9:
		return e.free.view(e, n)
	}
	return e.used.view(e, n)
})

// attrs returns node n's attributes dict, built on first use.
func (e *env) attrs(n int) starlark.Value {
	if e.attributes == nil {
		e.attributes = make([]starlark.Value, len(e.c.Nodes))
	}
	if e.attributes[n] == nil {
		d := attributes(e.c.Nodes[n].Attributes)
		d.Freeze()
		e.attributes[n] = d
	}
	return e.attributes[n]
}

// taskFacts is what the request and the task objects share.
type taskFacts struct {
	name, project, arch, user, group, queue, partition string
	priority, tasks                                    int
	config                                             *starlark.Dict
	placed                                             *starlark.List
}

func (e *env) facts(t *placement.Task) taskFacts {
	f := taskFacts{tasks: 1}
	if j := t.Job; j != nil {
		f.name, f.user, f.group, f.queue, f.partition = j.ID, j.User, j.Group, j.Queue, j.Partition
		f.priority, f.tasks = j.Priority, j.Tasks
		if tr := j.Traits; tr != nil {
			f.project, f.arch = tr.Project, tr.Architecture
		}
	}
	f.config = starlark.NewDict(4)
	if j := t.Job; j != nil && j.Traits != nil {
		for _, lb := range j.Traits.Labels {
			_ = f.config.SetKey(starlark.String(lb.Key), starlark.String(lb.Value))
		}
	}
	// The request's own limits win over a label of the same name.
	if a, ok := need(t, e.cpu); ok {
		_ = f.config.SetKey(starlark.String("limits.cpu"), starlark.String(a.String()))
	}
	if a, ok := need(t, e.mem); ok {
		_ = f.config.SetKey(starlark.String("limits.memory"), starlark.String(a.String()))
	}
	placed := make([]starlark.Value, len(t.Co))
	for i, n := range t.Co {
		placed[i] = e.members[n]
	}
	f.placed = starlark.NewList(placed)
	return f
}

// need returns the task's amount of resource r and whether it asks for it.
func need(t *placement.Task, r int) (sim.Amount, bool) {
	if r < 0 {
		return 0, false
	}
	for _, q := range t.Need {
		if int(q.Res) == r {
			return q.Amt, true
		}
	}
	return 0, false
}

func needOrZero(t *placement.Task, r int) starlark.Value {
	a, _ := need(t, r)
	return amount(a)
}

// request builds the instance_placement request for t.
func (e *env) request(t *placement.Task) *object {
	f := e.facts(t)
	devices := starlark.NewDict(1)
	if a, ok := need(t, e.disk); ok {
		root := starlark.NewDict(4)
		_ = root.SetKey(starlark.String("type"), starlark.String("disk"))
		_ = root.SetKey(starlark.String("path"), starlark.String("/"))
		_ = root.SetKey(starlark.String("size"), starlark.String(a.String()))
		_ = devices.SetKey(starlark.String("root"), root)
	}
	o := requestKind.record(
		starlark.String(f.name), starlark.String("container"), starlark.String(f.arch),
		starlark.String(f.project), starlark.String(t.Reason), f.config,
		starlark.String(""), starlark.NewList(nil), devices, starlark.False, starlark.False,
		starlark.MakeInt(t.Index), starlark.MakeInt(f.tasks), f.placed,
		starlark.String(f.user), starlark.String(f.group), starlark.String(f.queue),
		starlark.String(f.partition), starlark.MakeInt(f.priority),
	)
	o.Freeze()
	return o
}

// task builds the task object score and filter see.
func (e *env) task(t *placement.Task) *object {
	f := e.facts(t)
	req := make([]starlark.Value, len(e.c.Resources))
	for r := range req {
		req[r] = needOrZero(t, r)
	}
	o := taskKind.record(
		starlark.String(f.name), starlark.String(f.project), starlark.String(t.Reason),
		starlark.MakeInt(t.Index), starlark.MakeInt(f.tasks), e.capacity.record(req...), f.config,
		starlark.String(f.arch), f.placed, starlark.String(f.user), starlark.String(f.group),
		starlark.String(f.queue), starlark.String(f.partition), starlark.MakeInt(f.priority),
	)
	o.Freeze()
	return o
}

// instanceResources is get_instance_resources() for t.
func (e *env) instanceResources(t *placement.Task) *object {
	return instanceResourcesKind.record(needOrZero(t, e.cpu), needOrZero(t, e.mem), needOrZero(t, e.disk))
}
