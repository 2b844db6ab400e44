// Package external hands a replay's scheduling decisions to a process
// outside schedsim that speaks Batsim's protocol (version 4, as Batsim
// v4.2.1 documents it): schedsim plays Batsim's side. It sends JSON
// messages on a ZeroMQ REQ socket that connects to the scheduler's REP
// socket (a pure-Go ZeroMQ, no cgo) and applies the decisions of each reply
// through sim.Context, which checks them like any policy's.
//
// What the scheduler sees (events.go): SIMULATION_BEGINS with the
// resources, JOB_SUBMITTED with the job and its profile (every job is a
// delay profile of the runtime schedsim replays), JOB_COMPLETED with
// Batsim's job states, JOB_KILLED, REQUESTED_CALL, NOTIFY
// (no_more_static_job_to_submit, machine_unavailable/machine_available for
// node events) and SIMULATION_ENDS. What it may send (decisions.go):
// EXECUTE_JOB, REJECT_JOB, CALL_ME_LATER, KILL_JOB, NOTIFY, QUERY
// (consumed_energy, answered with ANSWER at once) and SET_RESOURCE_STATE
// (acknowledged, see below). Events of one instant go out in one message,
// as Batsim sends them; a decision applies at its timestamp, and a reply
// whose now is later keeps the scheduler busy until then, as in Batsim.
//
// Resources (resources.go) are numbered as Batsim numbers hosts: one per
// node of the cluster, in its order (a Batsim platform's compute hosts in
// document order). Hosts are exclusive (allow_compute_sharing false). The
// SWF pool model, one node of MaxProcs processors, is shown as MaxProcs
// resources, one per processor, a job asking for as many as its
// processors.
//
// A scheduler that misbehaves ends the run with a *ProtocolError naming
// the event and quoting the message: a process that dies, a reply that
// does not come within the timeout, malformed JSON, an unknown job, an
// allocation of the wrong size or on busy or non-existent resources, a
// timestamp in the past. A scheduler process started by schedsim
// (process.go) is stopped by its pid in every case.
package external
