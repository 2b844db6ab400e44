// Package convert writes any trace that a replay reads as a native trace
// (schedsim-native v1, package traces/native): Parquet, JSON Lines or CSV
// by the output's extension, the last two optionally gzipped (`schedsim
// convert`). Replaying the converted trace gives the same results as
// replaying the original with the same flags: what the native format has
// no field for (a job's checkpoint interval and cost, its co-task group)
// goes into labels that replay reads back, and the trace's cluster, node
// events, epoch and time zone go into the Parquet metadata or the text
// encodings' first line, and, when asked, to a cluster file and a
// --node-events CSV. Every file is written under a temporary name and
// renamed into place once complete.
package convert
