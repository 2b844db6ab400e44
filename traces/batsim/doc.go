// Package batsim reads Batsim inputs: JSON workloads (jobs and profiles)
// and SimGrid platform XML (hosts and their power). It is what
// `schedsim replay --trace W.json --platform P.xml [--max-hosts N]` uses.
//
// # Workloads
//
// OpenWorkload (or ParseWorkload for bytes in memory) reads a Batsim JSON
// workload, old and current: a top-level object with "nb_res",
// "jobs" and "profiles"; other top-level keys (description, command, date)
// are ignored. Each job becomes one sim.Job:
//
//	id       → Job.ID, the text as written: a string's contents ("w0!1"),
//	           or a number's digits as they appear in the file ("424242")
//	subtime  → Job.Submit (absolute, seconds, kept to the microsecond)
//	walltime → Job.Walltime; absent, null or negative (Batsim writes -1)
//	           → sim.NoWalltime; 0 is a bad record (Batsim rejects it too)
//	res      → Job.Tasks: res whole hosts, each task requesting
//	           {host: 1}; Gang = true (all hosts start together)
//	profile  → Job.Runtime = the profile's "delay"
//
// Only delay profiles can be replayed, since their run time does not
// depend on the platform: type "delay" (older Batsim, e.g. the evalys
// examples) or "DelayProfile" (current Batsim). A job whose profile has
// another type (parallel tasks, ptask_homogeneous, SMPI replays,
// sequences…) is a bad record, like a job with a missing or undefined
// profile, a missing or negative subtime, a res that is not a positive
// integer, or an id already used. In strict mode the first bad record, in
// file order, is a *traces.ParseError naming the file, the line of the
// job's object, the field ("profile", "res", …) and the job id; in lenient
// mode it is skipped and counted in Skips under "field: reason", without
// the job id so that alike records group (Skips.First keeps the full
// message). Whole-file problems — bad JSON (its line is found from the byte
// offset), a top level that is not an object, no "jobs" array — are errors
// in both modes.
//
// The file is read whole (Batsim workloads are small) and the jobs are
// served sorted by (subtime, position in file). (Batsim itself breaks
// subtime ties by id string; file order keeps "10" after "9".) Times are
// parsed from the JSON text with sim.ParseSeconds, so 88.51 stays 88.51;
// longer fractions (Python's 4.709164021244639) are rounded to the
// microsecond.
//
// # Platforms
//
// ReadPlatform (or ParsePlatform) reads a SimGrid platform, DTD versions
// 3 to 4.1: hosts may sit in <AS> (older DTDs) or <zone> elements at
// any depth, and come from <host>, from <cluster> (hosts prefix+i+suffix for
// every i of radical, "0-31" or "0-3,5,8-9", sharing the cluster's
// attributes and <prop> children) or from the older <cabinet>. Every other
// element (links, routes, routers, <config>…) is ignored.
//
// A host is a compute host unless its name is "master_host" or its "role"
// property is "master" (Batsim's master host) or "storage" (a Batsim
// storage tier, which runs no jobs). Each compute host becomes a node:
//
//	Name        the host id
//	Capacity    {host: 1, cpu: core attribute (default 1)}
//	Attributes  every <prop> except the power ones, plus
//	            speed       the speed of the host's initial power state,
//	                        as written ("100.0Mf"); the "power"
//	                        attribute of DTD 3 when there is no "speed"
//	            wattage_off the off draw in watts, from wattage_off
//	                        (or watt_off), for power-off modelling
//	            zone        the id of the innermost enclosing zone/AS
//	            cluster     the id of the <cluster> the host comes from
//	            (a <prop> of the same name wins over these)
//	Power       IdleW and MaxW from wattage_per_state (current SimGrid)
//	            or watt_per_state (older SimGrid; wattage_per_state wins
//	            when a host has both), Resource "host"; OffW and the
//	            switches from sleep_pstates (sleep.go), else OffW from
//	            wattage_off (switches then instant and free)
//
// wattage_per_state lists one entry per power state, separated by commas;
// an entry is "Idle:AllCores" or "Idle:Epsilon:AllCores" (older files wrote
// "min:max", same positions). The entry of the host's initial power state
// is used — its "pstate" attribute, 0 when absent, which is pstate 0 in all
// the shipped platforms: IdleW is the first value (the idle host) and MaxW
// the last (every core busy), which must be no lower. Epsilon (the draw of a host that runs
// something at ~0% load) and the DVFS levels are not modelled. Batsim's
// sleep_pstates "sleep:switch_off:switch_on" gives what power-down uses:
// OffW is the sleep state's idle value, and each switch lasts one flop at
// its virtual state's speed (1 / 0.1639 flops/s = 6.1 s) at that state's
// draw. A host without power
// properties draws 0 W, as in SimGrid.
//
// The power resource is "host", not "cpu": jobs request whole hosts, so a
// host with a job draws MaxW and an idle one IdleW. (Batsim itself charges
// a delay job at the idle draw, since a delay job does not load the CPU;
// MaxW is the realistic reading for replayed production jobs.)
//
// maxHosts > 0 keeps only the first maxHosts compute hosts in document
// order, like Batsim's --mmax; master and storage hosts never count. A
// platform may expand to at most 2^20 compute hosts. Errors are
// *traces.ParseError with the file, the line (of the element, or of the
// <prop> at fault) and the attribute or property name; a platform with no
// compute host is an error.
package batsim
