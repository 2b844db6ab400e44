// Package script lets a user steer placement with a Starlark script instead
// of Go. One script may define any of three entry
// points, each exposed as a piece of the placement pipeline
// (policies/placement):
//
//   - instance_placement(request, candidate_members), LXD's placement
//     scriptlet, as a placement.Decider: it has the final say among the
//     candidates that passed every filter. It may call set_target(name) to
//     choose one; returning a value other than None rejects the job with
//     str(value) as the reason; returning None without set_target leaves
//     the choice to LXD's default, the candidate with the fewest
//     instances, or, when the pipeline chooses by scores or a selection of
//     its own (a strategy other than first fit, or the script's score()),
//     to the pipeline (lxddefault.go). Explanations name the placements
//     set_target made under the scorer "script".
//   - score(task, node), a placement.Scorer: a number, clamped into [0, 1]
//     (higher is better); NaN, None or a non-number is a script error.
//   - filter(task, node), a placement.Filter: True keeps the node, False
//     rejects it, a string rejects it with that string as the reason.
//
// Attach installs what a script defines into a pipeline (config.go's
// Config gives the file, the step and memory budgets, the error mode and
// the scorer's weight).
//
// # What the scripts see
//
// LXD marshals its API structs to Starlark values; this package does the
// same with objects that answer both attribute access (request.name) and
// indexing (request["name"]), since LXD's own examples use both. Field
// names are LXD's JSON names; builtins.go and values.go list each field
// and where it comes from. Amounts are in the cluster's own units (cpu in
// cores, mem in whatever unit the cluster file uses, usually MiB), an int
// when whole and a float otherwise: the simulator has no bytes to convert
// from, so a script written for LXD's byte counts must drop its divisions.
//
// # Sandbox
//
// A script is parsed, resolved and run once at load: syntax errors,
// undefined names (unknown builtins included), load statements, a missing
// entry point and entry points with the wrong parameters are load-time
// errors with file:line:column. Its globals are then frozen, so a call
// keeps no state for the next one and the same inputs give the same
// decision. Each call runs under an execution-step budget; there is no
// clock, no I/O and no load(); the only randomness is the rand builtin,
// drawn from a stream seeded by the run seed and the task, so it is
// reproducible. A call that fails (fail(), a runtime error, the budget, a
// Go panic in a builtin, all recovered) either rejects the job with a
// reason naming the file and line, or stops the run (Config.OnError).
//
// The step budget bounds the steps, and a time budget (time_budget_ms,
// 100 ms by default; deadline.go) the CPU time of a call's thread, since one step
// of a builtin over a large value can take milliseconds; Interrupt cancels
// a running call at once (the replay calls it at SIGINT and SIGTERM).
// Builtins whose work grows with their input charge the step budget for
// it (linear.go): x in y and x not in y, max, min, any, all, hash, the
// string and list methods that scan their receiver, and the growing
// builtins above, one step per element or per 64 bytes. The
// log keeps at most log_max_mib (16 MiB by default). A memory budget (memory_budget_mib, 64 MiB
// by default) bounds what a call, or the top level at load, may allocate,
// since one step can build a value of any size (a string doubled forty
// times is a TiB) and a Go process that runs out of memory dies beyond any
// recover. Before the script is compiled, guard.go rewrites x + y, x * y,
// x % y and their augmented forms into calls to builtins that charge the
// size of the result first (growth.go), and str, repr, print, fail, list, tuple,
// sorted, reversed, set, enumerate, zip, the log builtins and the methods
// join, replace, format, split, rsplit, splitlines and extend are wrapped
// the same way; an operation over the budget fails the call like any
// runtime error, with "memory budget exceeded" and what it would have
// allocated. What else a call builds grows by a few values per step (an
// append, a comprehension's element), which the step budget bounds. The
// guard costs a builtin call per guarded operator, about 0.1 µs; operators
// beside a number literal, a difference or a quotient are not guarded
// (they cannot grow anything).
//
// # Speed
//
// Per decision the package builds little: the request and the task
// object once per task, member objects once per cluster, and member
// state, resources and node amounts as views that read the ledger when a
// field is read (object.go). What remains is go.starlark.net's bytecode
// loop (docs/performance.md, "Placement"). A script without
// instance_placement whose score and filter are pure functions of the
// task's shape and the node's state, as checked on its syntax tree
// (purity.go), lets the pipeline use its score index, which re-scores
// only the nodes that changed.
package script
