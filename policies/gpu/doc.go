// Package gpu is the device-level placement model of the openb GPU traces
// and the policy family of Weng et al., "Beware of Fragmentation:
// Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent",
// USENIX ATC'23, with the paper's experiment as a ready mode.
//
// A Node has CPU (milli), memory (MiB) and N GPUs of one model, each of
// 1000 milli-GPU. A Demand asks CPU, memory and either k whole GPUs or a
// share (< 1000 milli) of one GPU, of an allowed model. It fits a node when
// CPU and memory fit, the model is allowed, and k GPUs are wholly free or
// one GPU has the share free (Node.Fits). Which GPU takes a share is part
// of the policy's choice.
//
// Fragmentation (frag.go) is measured against a TaskTable, the workload's
// most popular task types and their popularity, exactly as in the paper;
// the Cluster keeps each node's fragmentation up to date incrementally,
// through placements (Place) and, in a replay where tasks end, releases
// (Release, the exact inverse of Place).
//
// Each policy is a per-node scoring function, Policy.Score(node, demand) →
// (score in [0, 1], higher is better; the GPUs to take; whether it fits),
// wrapped as a filter and a scorer of the generic placement pipeline by
// package placement (its GPU strategies fgd, best-fit, …; gpufamily.go).
// Cluster.Best and Cluster.Schedule are the simple driver: score every
// node, take the best, ties to the lowest node index (or at random, as the
// Kubernetes scheduler does, on request).
//
//	random          uniform among fitting nodes; a random fitting GPU for a share
//	dot-product     Tetris alignment of free (CPU, GPU) with the demand, least first
//	gpu-clustering  nodes running the same GPU kind first
//	gpu-packing     partly used GPUs, then used nodes, then idle nodes
//	best-fit        least CPU and GPU left after placing
//	fgd             least growth of fragmentation (node and GPU)
//
// Every policy but random and fgd gives a share to the fitting GPU with the
// least free milli, and whole GPUs are the lowest-index free ones; the
// definitions and score formulas follow the paper's simulator
// (hkust-adsl/kubernetes-scheduler-simulator, its score plugins), except
// that continuous scores are not truncated to Kubernetes' integer 0–100:
// that rounding is an artefact of the framework, and the exact scores
// make ties (broken to the lowest node index) rare and meaningful.
//
// Experiment (experiment.go) is the paper's evaluation: pods arrive and
// never leave, shuffled and inflated by seed to 130% of GPU capacity; it
// records the GPU allocation ratio and fragmentation against arrived GPU.
// Seeds derive streams with math/rand/v2 PCG (seed, stream): 1 shuffles,
// 2 inflates, 3 drives the random policy, 4 breaks ties when asked.
package gpu
