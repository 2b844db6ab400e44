// Package multifactor is Slurm's multifactor job priority
// (PriorityType=priority/multifactor) as a queue order that any batch
// scheduler of package policies runs on: no backfilling, EASY or
// conservative. The formulas follow Slurm's documentation pages "Multifactor
// Priority Plugin" (priority_multifactor.html), "Classic Fairshare
// Algorithm" (classic_fair_share.html) and slurm.conf(5), and, where those
// pages are vague, the multifactor plugin's source
// (src/plugins/priority/multifactor/priority_multifactor.c).
//
// At every scheduling pass, at time t, each queued job j gets
//
//	P(j) = ⌊ W_age·A + W_fs·F + W_size·Z + W_part·T + W_qos·Q ⌋,  kept in 1…2³²−1
//
// with the PriorityWeight* integers W and five factors in [0, 1]:
//
//	A  age        min(1, (t − submit) / PriorityMaxAge); 1 for every job when PriorityMaxAge = 0
//	F  fair-share 2^(−U/S), classic; 0 for a tenant with no shares
//	Z  job size   (n/N + c/C) / 2, or n/N when the job asks for no cpu;
//	              with PriorityFavorSmall ((N − n)/N + (C − c)/C) / 2, or (N − n)/N
//	T  partition  PriorityJobFactor of the job's partition / the highest of all partitions
//	Q  QOS        priority of the job's QOS / the highest of all QOSs
//
// Slurm multiplies each factor by its weight in floating point, sums, and
// truncates to an unsigned integer of at least 1 (0 marks held jobs);
// this package does the same (Factors.Sum, Factors.Priority). The queue is
// ordered as Slurm's scheduler evaluates jobs: partition PriorityTier
// (higher first), then P (higher first), then submit time, then arrival
// order (Slurm's job id). Submit time is when the job entered the queue:
// a job held back by dependencies ages only from its release, as Slurm's
// age factor does not grow while a job waits for a dependency.
//
// Fair-share. A tenant is the job's account (sim.Job.Group) or its user
// (Config.SharesBy), flat under the root: the classic formula's tier just
// below root, where effective usage is the actual usage. Its normalised
// shares are S = s/Σs over the tenants known (configured, or seen in the
// queue so far; a tenant not configured holds 1 share, sacctmgr's
// default). Its usage U = U_H/R_H is its decayed usage over everyone's:
// every cpu-second a job is allocated (node-second for a job that asks for
// no cpu; Slurm's default billing counts allocated cpus) counts
// 2^(−age/H) after age seconds, H = PriorityDecayHalfLife (no decay when
// 0). Between two job starts or ends a tenant consumes at a constant rate
// ρ, so usage advances exactly,
//
//	U(t) = U(a)·2^(−(t−a)/H) + ρ·H/ln 2·(1 − 2^(−(t−a)/H)),
//
// the limit of Slurm's decay applied every PriorityCalcPeriod. F = 1/2
// means a tenant used exactly its share; above, less; below, more.
//
// Job size. n is the fewest nodes the job's tasks fit on, every node
// empty (SWF's node model: one task per node; pool model: one node), c its
// cpus (tasks × the per-task cpu request), N the nodes and C the cpus of
// the cluster. The formula is the plugin's: slurm.conf(5)'s "a single node
// job receives 1.0" is, in the source, (N − 1)/N averaged with the cpu
// term. On a one-node cluster (SWF's pool model) the node term is constant.
//
// Partition and QOS. A job without a partition uses the default one
// (Default=YES); a job listing several partitions (a,b) takes the best
// factor and tier among them. Partitions and QOSs not configured have
// factor 0.
//
// Not modelled: the association, nice, site and TRES factors; the
// NO_NORMAL_* and SMALL_RELATIVE_TO_TIME flags; Fair Tree, Slurm's default
// fair-share since 19.05 (slurm.conf must say PriorityFlags=NO_FAIR_TREE for
// the classic formula this package computes; ParseSlurmConf notes it);
// account hierarchies deeper than one level; PriorityUsageResetPeriod;
// and Slurm's recomputing priorities every PriorityCalcPeriod rather than
// at every pass.
//
// The order is stateful (usage, the time): Order.Wrap puts it around a
// scheduler, and each pass scores and sorts the queue before the scheduler
// reads it. Config is the multifactor: block of a run spec, with
// Validate; ParseSlurmConf reads the same settings from slurm.conf.
package multifactor
