// Package availability infers, from a recorded schedule alone (each job's
// submit, recorded start and end), the stretches when the machine or part
// of it cannot have been available, and writes them as a node-events file
// (drains) that a replay takes with --node-events.
//
// Logs rarely mark down time, maintenance or reservations, yet a replay
// that assumes the whole machine was always there starts jobs the real
// one could not. The rule (Rule, Infer) is deliberately narrow:
//
//   - A suspect instant is one when the recorded busy processors are at
//     most Rule.BusyShare of the machine and some job waiting in the
//     record (submitted, not yet started) would fit in the idle ones.
//   - A stretch is a maximal run of suspect instants lasting at least
//     Rule.MinDuration. During it the machine is taken to have offered
//     only what it was seen running: the most processors held at once by
//     jobs started in the stretch, or those busy at its end if more (jobs
//     already running when it began may sit on the part that went away);
//     the rest of the capacity was unavailable.
//   - Its confidence is the share of the stretch that no EASY-style
//     reservation can explain: a head job waiting for processors held by
//     running jobs gets them at the latest when those jobs reach their
//     walltimes (their recorded ends when the log gives no walltime), so
//     an idle machine with a fitting job waiting after that instant has no
//     explanation but unavailability (or a limit on users or queues,
//     which a replay models separately). 1 means the whole stretch lies
//     past it, 0 that a reservation could explain all of it.
//
// The drained nodes are the last ones of the cluster, as many as fit in
// the unavailable processors; running jobs on them finish (a drain, not a
// failure).
package availability
