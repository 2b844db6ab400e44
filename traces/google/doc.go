// Package google reads the Google cluster traces as a stream of jobs, the
// cluster they ran on and its machines' failures.
//
// # Versions and layout
//
//   - 2011 (clusterdata-2011-2, "Google cluster-usage traces: format +
//     schema", version 2.1 of the trace): a directory with job_events/,
//     task_events/, machine_events/, and optionally machine_attributes/ and
//     task_constraints/, each of headerless CSV part files
//     (part-00000-of-00500.csv.gz …, plain .csv too) with the schema's
//     columns in its order (csv2011.go). task_usage is not read.
//   - 2019 (clusterdata-2019, "Google cluster-usage traces v3" and
//     clusterdata_trace_format_v3.proto): collection_events,
//     instance_events, machine_events and optionally machine_attributes as
//     JSON Lines, the way BigQuery exports them: files
//     <table>-000000000000.json.gz in the directory (or any .json[.gz] /
//     .jsonl[.gz] file under <table>/), one object a line with the proto's
//     field names, INT64 values as numbers or strings (json2019.go).
//     instance_usage is not read.
//
// # Time
//
// Times are the trace's microseconds, kept as they are (sim.Time is µs):
// the window starts at 600 s, 0 means "before the window" (tasks already
// there when the trace starts) and 2^63−1 "after the window" (such
// records are ignored). Jobs are yielded in submit order.
//
// # Jobs: one per task attempt
//
// sim.Job tasks are identical and start together, while a Google job's
// tasks start, stop and restart on their own. So every task attempt is a
// single-task sim.Job:
//
//   - An attempt is one SUBMIT of a task until the EVICT, FAIL, FINISH,
//     KILL or LOST that ends it, or its job's end (the job's FAIL, FINISH,
//     KILL or LOST ends its tasks' open attempts). A task resubmitted after
//     an eviction (or a failure) is a new attempt: job id "<job>-<task>"
//     for the first, "<job>-<task>.<n>" for the n-th. The replay then
//     counts the eviction's lost work as the trace had it.
//   - Submit = the attempt's SUBMIT; runtime = SCHEDULE to the ending
//     event. An attempt still running when the trace ends runs to the
//     trace's last task event (label end=trace-end). An attempt that never
//     ran (killed while pending, or still pending at the end) is not
//     replayed: without a run there is no runtime (Stats.NeverRan).
//   - Walltime: unknown (Google gives none). Tasks: 1. Group: the Google
//     job id, so the tasks of a job can be regrouped (and --tenants group
//     makes the job the tenant). User: the trace's user hash.
//   - Request: cpu and mem (and disk, 2011, when scaled in) per task, as the
//     attempt started (UPDATE_PENDING applied, UPDATE_RUNNING ignored: the
//     simulator does not resize running tasks). A field a record leaves
//     empty keeps the task's last value.
//   - Priority: the tier (tiers.go) as sim.Job.Priority 0–4 and the tier's
//     name as the queue; labels priority (the trace's), scheduling_class
//     (0–3), end (finish, fail, kill, evict, lost, trace-end) and, 2019,
//     alloc_collection_id for a task running in an alloc set.
//   - Constraints (2011 task_constraints, 2019 the instance's constraint
//     field at SUBMIT): hard constraints on the node attribute of that name
//     (constraints.go): EQUAL → host-attribute, the others →
//     sim.AttributeNotEqual, …Less, …Greater, …AtMost, …AtLeast, …Present,
//     …Absent.
//   - The different-machines restriction (2011; 2019: a collection's
//     max_per_machine of 1): anti-affinity as Traits.AversionGroups keyed
//     by the Google job, since the job's tasks are separate sim.Jobs. An
//     aversion group is a strong preference (the tasks share a machine only
//     when no other fits), not the trace's hard rule.
//   - 2019: alloc sets (collection_type 1) and their instances are not
//     replayed: they reserve room for tasks that are replayed themselves.
//     Vertical scaling (vertical_scaling) is ignored: requests are as
//     submitted or updated while pending. start_after_collection_ids,
//     parent_collection_id and max_per_switch are not modelled.
//
// # Cluster
//
// machine_events and machine_attributes give the nodes and node events
// (machines.go): a node m<id> per machine, capacity at its first ADD,
// REMOVE → fail, a later ADD → recover; attributes from
// machine_attributes (first values), platform and, 2019, switch.
//
// # Units and scale
//
// The traces normalise cpu and memory: 1 is the largest machine. Options.Scale
// multiplies each into the replay's units (default 1: normalised units
// kept); sim amounts are exact to a thousandth, so with scale 1 requests
// are rounded to 0.1 % of the largest machine (ties to even). Disk is
// left out by default; a disk scale adds a "disk" request and gives every
// machine the largest machine's disk.
//
// # Streaming
//
// A table's part files are merged by time (merge.go), opening a part only
// when the merge reaches its first record, so only the parts whose spans
// overlap are open. The task tables are read twice (Reader): the first
// pass indexes the attempts that outlast Options.Lookahead, the second
// yields every attempt once the trace is read that far past its submit.
// Memory holds the jobs alive, that index and one look-ahead of attempts,
// never the whole trace. The machine tables are read whole at Open (they
// are small: one row per machine change).
//
// # Bad records
//
// As every reader: strict mode (traces.Options.Strict) stops at the first
// bad record with a *traces.ParseError naming the part file, line and
// field ("task_events/part-00000-of-00500.csv.gz:12: field 9 (priority):
// 12 out of range 0–11"); lenient mode skips it and counts it (Skips). A
// record whose time goes back within its part file is a bad record. A
// missing required table, an unreadable file and a line over 1 MiB stop
// the reader in both modes.
package google
