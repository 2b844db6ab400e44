// Package sacct reads Slurm's accounting: the output of
//
//	sacct --allocations --parsable2 --format=JobID,Submit,Start,End,…
//
// a header line of '|'-separated field names, then one line per job. The
// fields may come in any order; those the reader does not use are ignored;
// --parsable's trailing '|' is accepted; the file may be gzipped. Sniff
// recognises the format by its header. Jobs are yielded in (submit time,
// file order), streaming: a first pass finds the few records out of
// submit order (requeued jobs, array tasks) and they are merged back.
//
// # Fields
//
// Required: JobID or JobIDRaw, Submit, Start, End or Elapsed (or
// ElapsedRaw), and a CPU count (NCPUS, AllocCPUS, ReqCPUS, AllocTRES or
// ReqTRES). Read when present: Eligible, Timelimit (or TimelimitRaw),
// NNodes, ReqMem, ReqTRES, AllocTRES, Partition, QOS, Priority, User,
// Account, State, Dependency. Field names are case-insensitive.
//
//   - JobID is the job's id as sacct prints it: 123, array tasks 123_4,
//     heterogeneous job components 123+0 (each its own job). A record
//     whose JobID or JobIDRaw has a '.' is a step (123.batch, 123.0), not
//     an allocation: skipped and counted.
//   - Submit, Eligible, Start, End are calendar times: sacct's
//     YYYY-MM-DDTHH:MM:SS in the site's time zone (Options.Location), an
//     ISO 8601 time with an offset, or Unix seconds; "Unknown", "None" or
//     empty is no time. Sim time 0 is Epoch(): Options.Epoch, else the
//     earliest Submit of the dump.
//   - Runtime is End − Start, else Elapsed ([D-]HH:MM:SS) or ElapsedRaw
//     (a job running at dump time has no End: its Elapsed so far).
//   - Walltime is Timelimit in Slurm's time format (minutes, MM:SS,
//     HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS; TimelimitRaw in minutes):
//     UNLIMITED is none (sim.NoWalltime); Partition_Limit is the
//     partition's limit from Options.PartitionTimeLimit, else none.
//   - Recorded is true and RecordedStart is Start: what really happened,
//     for calibration.
//   - User is User, Group is Account, Partition, QOS and Priority as
//     written; RequestedProcs is the CPU count.
//   - State: COMPLETED, FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY,
//     PREEMPTED, DEADLINE, BOOT_FAIL, CANCELLED (also "CANCELLED by
//     UID", and a '+'-cut name) ran and are replayed alike; the replay
//     decides how they end. PENDING at dump time is skipped, as is
//     REVOKED (another cluster of a federation ran it). RUNNING,
//     SUSPENDED, REQUEUED, RESIZING at dump time are replayed with the
//     runtime known so far.
//
// # Jobs that never ran
//
// A record with no Start, or with nothing allocated (AllocTRES empty and
// NCPUS 0, where the dump has them; without either field, Start = End),
// never ran: Slurm dumps a job cancelled while pending with Start = End =
// its cancel time and no allocation. It is skipped and counted, as
// "cancelled before it started" when CANCELLED, else "never started".
// Skips() counts these, steps and pending jobs by reason, in strict mode
// too; only malformed records stop a strict reader.
//
// # Tasks
//
// The CPU count is NCPUS (AllocCPUS), else AllocTRES cpu, else ReqCPUS,
// else ReqTRES cpu. The node count is NNodes, else AllocTRES node, else
// ReqTRES node. Memory is AllocTRES mem, else ReqTRES mem, else ReqMem,
// in MB (K, M, G, T, P are powers of 1024; no unit is MB): a total for
// the job, or, with the c or n suffix of releases before 21.08, per CPU
// or per node. GPUs are AllocTRES gres/gpu, else ReqTRES gres/gpu (the
// sum of typed gres/gpu:TYPE entries when untyped is absent).
//
// With a node count N, the job is N tasks, one per node (Gang), each
// requesting ⌈CPUs/N⌉ cpu, its share of the memory (⌈total/N⌉, per-CPU
// memory × ⌈CPUs/N⌉, or the per-node amount) and ⌈GPUs/N⌉ gpu: an
// uneven allocation (5 CPUs on 2 nodes) is rounded up on every node.
// Without one, the job is one task per CPU of 1 cpu, memory/CPUs and
// GPUs/CPUs. A memory of 0 (--mem=0, all of a node's) is not requested.
// With Options.ConfinePartitions every task also requests 0 of the tag
// partition:NAME (slurmconf.PartitionResource), which only the nodes of
// its partition define.
//
// # Dependencies
//
// sacct has no dependency field, but a Dependency field in Slurm's syntax
// (afterok:123,afterany:124_2) is read when a dump carries one
// (parseDependency lists the mapping). A dependency on a job the dump does
// not hold before it (outside its window, or skipped) is dropped; one on a
// whole array waits for the array's tasks. With Options.SubmitAtEligible
// jobs arrive at Eligible instead, which already holds the wait, and
// Dependency is not read.
//
// # Errors
//
// A malformed record (a field count unlike the header's, a bad time,
// number, memory size, TRES list, state or dependency, End before Start,
// Start before Submit) is a *traces.ParseError naming file, line and
// field: strict mode stops there, lenient mode skips and counts it.
package sacct
