// Package openb reads the node and pod lists of Alibaba's GPU cluster trace
// "openb" (cluster-trace-gpu-v2023), the input of the FGD paper (Weng et al.,
// "Beware of Fragmentation", USENIX ATC'23).
//
// Node lists have the columns
//
//	sn          node name
//	cpu_milli   CPU capacity in thousandths of a core
//	memory_mib  memory capacity in MiB
//	gpu         number of GPUs (0 for a CPU-only node)
//	model       GPU model (G2, T4, P100, V100M16, …); empty when gpu is 0
//
// and pod lists
//
//	name            pod name
//	cpu_milli       CPU request, thousandths of a core
//	memory_mib      memory request, MiB
//	num_gpu         GPUs asked for (0–8)
//	gpu_milli       thousandths of each GPU: <1000 is a share of one GPU
//	                (then num_gpu is 1), 1000 is whole GPUs, 0 is CPU-only
//	gpu_spec        allowed GPU models, '|'-separated ("V100M16|V100M32");
//	                empty means any model
//	qos, pod_phase  free text, kept
//	creation_time, deletion_time, scheduled_time
//	                seconds; empty means unknown
//
// Columns are found by header name; the lists of the multigpu variants stop
// after gpu_milli, so every pod column from gpu_spec on is optional.
//
// Reading is whole-file (the largest list has ten thousand lines). A bad
// record is a *traces.ParseError naming file, line and column: strict mode
// stops there, lenient mode skips the record and counts it. NodeSpecs turns
// nodes into engine nodes (cpu and gpu in milli-units, mem in MiB) with the
// GPU model as the attribute "gpu_model".
package openb
