// Command schedsim replays workload traces against scheduling policies under
// a virtual clock and writes the outcome as Parquet, Arrow IPC or CSV tables.
//
// Subcommands: replay (one trace, one cluster, one policy; the README's
// first command), sweep and merge (many runs, sim/sweep), tune (sim/tune),
// calibrate and availability (sim/calibrate), compare (metrics/compare),
// report, convert (sim/convert), gen, inspect, export, policies (what can
// be chosen), bench (replay, placement and openb figures, internal/bench),
// openb (the FGD paper's GPU experiment, sim/fgd).
//
// It only parses flags (and the shard variables of Kubernetes and Slurm),
// calls the library and prints what it returns; the simulation lives in
// sim, policies, traces and metrics, and what runs many replays in the
// packages under sim/ named above.
package main
