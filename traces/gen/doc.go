// Package gen makes synthetic workloads, seeded, as sim.Sources: the same
// model, options and seed give the same jobs, whatever the platform.
//
// Models (New, or NewLublin, NewPoisson, NewGoogle with parameters):
//
//   - lublin: the Lublin–Feitelson model of rigid parallel jobs (JPDC
//     63(11), 2003) with its published parameters, batch and interactive
//     jobs with their own sizes (two-stage uniform log2 size, serial and
//     power-of-two probabilities), runtimes (hyper-gamma ln(runtime) whose
//     mixing probability falls with size) and arrivals (gamma ln
//     inter-arrival times warped by a daily cycle). See LublinType.
//   - poisson: Poisson arrivals, log-normal runtimes, categorical sizes.
//   - google: many small single-task jobs shaped like the Google cluster
//     data 2011 (normalized cpu and memory requests, the trace's machine
//     mix), for scale tests.
//
// A Generator streams: it holds the model's state and the next job, never
// the jobs it has yielded, so ten million jobs take no more memory than
// ten. Each model also describes the cluster it is made for (Cluster),
// which WriteYAML writes as a cluster file; WriteTrace writes the jobs as
// a native trace (a Parquet one carries that cluster in its metadata).
//
// Randomness comes from math/rand/v2's PCG, one stream per component of a
// model (arrivals, sizes, runtimes, …: rand.NewPCG(seed, stream)), so that
// a change to how one component draws leaves the others unchanged. Times
// are rounded to the millisecond and amounts to the thousandth, the
// resolution of the native trace format's decimals.
package gen
