// Package slurmconf reads the cluster a Slurm site runs: the NodeName and
// PartitionName lines of a slurm.conf, or the output of `scontrol show
// node --oneliner` (and `scontrol show partition --oneliner`), into the
// []sim.NodeSpec that sim.NewCluster compiles, with each partition's
// nodes and time limits.
//
// # Syntax
//
// A line is Key=Value pairs separated by blanks; keys are case-insensitive
// (NodeName, nodename); values may be double-quoted. '#' starts a comment,
// and a line ending in '\' continues on the next. scontrol's output, told
// by keys only it writes (CPUTot=, CfgTRES=, TotalNodes=), has no comments
// and values with unquoted blanks (OS=Linux 5.14 #1 SMP): a word that is
// not Key=Value continues the value before it. Lines that are neither
// NodeName nor PartitionName lines (ClusterName=, SchedulerType=…) are
// other settings and are ignored; an Include line is an error (it is not
// followed: give one file).
//
//	NodeName=DEFAULT RealMemory=256000 Feature=ib
//	NodeName=c[001-128] CPUs=64 Gres=gpu:a100:4 Feature=ib,zen3 Weight=10
//	PartitionName=DEFAULT MaxTime=1-00:00:00
//	PartitionName=batch Nodes=c[001-064] Default=YES
//	PartitionName=long Nodes=c[065-128] MaxTime=7-00:00:00
//
// NodeName=DEFAULT and PartitionName=DEFAULT lines set values for the
// node (partition) lines after them; a later DEFAULT line adds to or
// replaces the earlier ones key by key, and a line's own values win.
//
// # Nodes
//
// NodeName is a hostlist expression (ExpandHostlist): c[001-004,010],
// gpu[1-2]. Each node has the resources
//   - cpu: CPUs= (alias Procs; scontrol's CPUEfctv, else CPUTot), else
//     the product of Sockets (else Boards × SocketsPerBoard),
//     CoresPerSocket and ThreadsPerCore, each 1 when not given, as Slurm
//     derives it;
//   - mem: RealMemory= in MB (Slurm's default, 1, when not given);
//   - gpu: the sum of the counts of the gpu entries of Gres=
//     (gpu:a100:4,gpu:v100:2 is 6); none when 0;
//   - partition:NAME, a tag (amount 0) for each partition the node is in
//     (PartitionResource).
//
// and the attributes (all strings)
//   - features: Feature= (alias Features, scontrol's AvailableFeatures) as
//     written, and feature.NAME = "yes" for each feature, for node
//     selectors and host-attribute constraints;
//   - partitions: the node's partitions, comma-separated;
//   - gpu_model: the GPU types of Gres= (a100), comma-separated;
//   - gres: Gres= as written; weight: Weight=; arch: scontrol's Arch=.
//
// Other keys (State, TmpDisk, MemSpecLimit, CoreSpecCount…) are ignored:
// every node is up and offers all its CPUs and memory. Node order is file
// order, each hostlist in its own order; placement breaks ties by it.
//
// # Partitions and jobs
//
// PartitionName lines give a partition's Nodes= (a hostlist, or ALL),
// MaxTime= and DefaultTime= (Slurm times, or UNLIMITED; NONE for no
// default) and Default=YES|NO (the last YES wins, as in Slurm). A node of
// scontrol's output joins the partitions of its Partitions= too. A job is
// confined to its partition by requesting 0 of the tag
// partition:NAME (traces/sacct does so with ConfinePartitions): a task
// fits only a node defining every resource it lists, so this works under
// every placement policy and backfilling, conservative included, with no
// placement traits. A job naming a partition no node is in is rejected by
// the engine ("no node has resource partition:NAME"). TimeLimits gives
// the limit of a job that set none (sacct's Partition_Limit).
//
// # Errors
//
// Every problem is reported, up to 20, one per line of the error, as
// "file:line: field KEY: what is wrong" (traces.ParseError): bad numbers,
// hostlists and times, nodes defined twice, partition nodes that no
// NodeName line defines, a file without nodes.
package slurmconf
