package script

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/schedsim/schedsim/policies/placement"
)

// The entry points a script may define, with the parameters each must
// take, by name: LXD calls instance_placement with keywords in some
// versions, so the names are part of the contract.
const (
	EntryPlacement = "instance_placement"
	EntryScore     = "score"
	EntryFilter    = "filter"
)

var entryParams = map[string][2]string{
	EntryPlacement: {"request", "candidate_members"},
	EntryScore:     {"task", "node"},
	EntryFilter:    {"task", "node"},
}

// Script is a compiled, validated script and the state of the call in
// progress. It is not safe for concurrent use: one pipeline, one Script
// (a replay places one job at a time).
type Script struct {
	name string
	cfg  Config
	// placement, score and filter are the entry points the script
	// defines, nil for those it does not.
	placement, score, filter *starlark.Function
	predeclared              starlark.StringDict
	thread                   *starlark.Thread
	exceeded                 bool // the current call ran out of steps
	// timeBudget bounds one call's wall time (deadline.go); 0: none.
	timeBudget time.Duration
	watch      watch
	// memBudget is what the growing operations of one call may allocate
	// in all, memUsed what they have (memory.go).
	memBudget, memUsed uint64
	args               starlark.Tuple
	// pure is set when score and filter are pure functions of the task's
	// shape and the node's state (purity.go): the score index may cache
	// them. unindexed is set once one of them failed under the index:
	// from then on every placement takes the full scan (decider.go).
	pure, unindexed bool

	env *env // the cluster the script last saw
	cur call
	log logBook
	// pending is the first error a filter or scorer met while placing the
	// job with key pendingKey; the Decider turns it into the job's
	// rejection (or the run's stop), since a filter or a scorer cannot.
	pending    *Error
	pendingKey int64
	taskCache  taskCache
	reqCache   taskCache
	members    *starlark.List // candidate_members, reused (decider.go)
}

// call is the state one entry-point call reads and writes.
type call struct {
	t      *placement.Task
	entry  string
	cands  []int32
	target int // set_target's node, −1 for none
	// rng is rand's stream, seeded on the first draw (next) from t, entry
	// and node (the node scored or filtered, −1 for instance_placement).
	rng    uint64
	seeded bool
	node   int
	hint   int // position in cands of the member last asked about
}

// Error is a failed call: a runtime error (fail() included) at a place in
// the script, the step budget running out, or an operation refused by the
// memory budget. Its message is the job's rejection reason under
// on_error: reject.
type Error struct {
	Entry  string // the entry point that failed
	Pos    string // file:line of the failing statement, "" when unknown
	Msg    string
	Budget bool // the step budget ran out
	Steps  uint64
	Memory bool // the memory budget refused an operation (Msg says which)
	// Time: the call ran past the time budget (Limit); Interrupted: a
	// SIGINT or SIGTERM cancelled it.
	Time        bool
	Limit       time.Duration
	Interrupted bool
}

func (e *Error) Error() string {
	switch {
	case e.Budget:
		return fmt.Sprintf("script: step budget exceeded (%d steps in %s; step_budget)", e.Steps, e.Entry)
	case e.Time:
		return fmt.Sprintf("script: time budget exceeded (%s ran past %s; time_budget_ms)", e.Entry, e.Limit)
	case e.Interrupted:
		return fmt.Sprintf("script: %s interrupted (SIGINT or SIGTERM)", e.Entry)
	case e.Pos != "":
		return fmt.Sprintf("script: error at %s: %s", e.Pos, e.Msg)
	}
	return fmt.Sprintf("script: error in %s: %s", e.Entry, e.Msg)
}

// Load validates cfg, reads the script at cfg.Path and compiles it.
func Load(cfg Config) (*Script, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	return Compile(cfg.Path, src, cfg)
}

// fileOptions are the dialect: while loops and top-level control flow are
// allowed (the step budget bounds them), recursion and reassigning
// globals are not (LXD's defaults).
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true}

// Compile parses, resolves and runs the top level of src (named filename
// in messages), and checks its entry points. cfg.Path is not read; the
// other fields are used as Validate would fill them.
func Compile(filename string, src []byte, cfg Config) (*Script, error) {
	if cfg.OnError == "" {
		cfg.OnError = Reject
	}
	if cfg.StepBudget == 0 {
		cfg.StepBudget = DefaultStepBudget
	}
	if cfg.Weight == 0 {
		cfg.Weight = 1
	}
	if cfg.MemoryBudgetMiB == 0 {
		cfg.MemoryBudgetMiB = DefaultMemoryBudgetMiB
	}
	if cfg.TimeBudgetMS == 0 {
		cfg.TimeBudgetMS = DefaultTimeBudgetMS
	}
	if cfg.LogMaxMiB == 0 {
		cfg.LogMaxMiB = DefaultLogMaxMiB
	}
	return compileScript(filename, src, cfg, true)
}

// compileScript is Compile with the defaults filled; guarded says whether the
// growing operations charge the memory budget (only the benchmark that
// measures what that costs turns it off).
func compileScript(filename string, src []byte, cfg Config, guarded bool) (*Script, error) {
	s := &Script{name: filename, cfg: cfg, args: make(starlark.Tuple, 2), memBudget: min(cfg.MemoryBudgetMiB, MaxMemoryBudgetMiB) << 20,
		timeBudget: time.Duration(min(cfg.TimeBudgetMS, MaxTimeBudgetMS)) * time.Millisecond}
	s.log.limit = min(cfg.LogMaxMiB, MaxLogMaxMiB) << 20
	s.predeclared = s.builtins()
	s.thread = s.newThread()
	f, err := fileOptions.Parse(filename, src, 0)
	if err != nil {
		return nil, loadError(err)
	}
	if guarded {
		if err := guard(f); err != nil {
			return nil, err
		}
	}
	prog, err := starlark.FileProgram(f, s.predeclared.Has)
	if err != nil {
		return nil, loadError(err)
	}
	if prog.NumLoads() > 0 {
		mod, pos := prog.Load(0)
		return nil, fmt.Errorf("%s: load(%q): scripts cannot load modules", pos, mod)
	}
	globals, err := s.init(prog)
	if err != nil {
		return nil, err
	}
	globals.Freeze()
	var errs []error
	for _, name := range []string{EntryPlacement, EntryScore, EntryFilter} {
		v, ok := globals[name]
		if !ok {
			continue
		}
		fn, err := checkEntry(filename, name, v)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch name {
		case EntryPlacement:
			s.placement = fn
		case EntryScore:
			s.score = fn
		default:
			s.filter = fn
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if s.placement == nil && s.score == nil && s.filter == nil {
		return nil, fmt.Errorf("%s: defines none of instance_placement(request, candidate_members), score(task, node), filter(task, node)", filename)
	}
	s.pure = pure(f, s.score, s.filter)
	return s, nil
}

// init runs the top level once, under the step budget.
func (s *Script) init(prog *starlark.Program) (g starlark.StringDict, err error) {
	s.reset()
	defer func() {
		if r := recover(); r != nil {
			s.replaceThread()
			g, err = nil, fmt.Errorf("%s: internal error at load: %v", s.name, r)
		}
	}()
	s.cur = call{entry: "the top level", target: -1, seeded: true} // rand's stream starts at 0
	s.begin()
	defer s.end()
	g, err = prog.Init(s.thread, s.predeclared)
	if err != nil {
		e := s.wrap(err, "the top level")
		if e.Pos != "" {
			return nil, fmt.Errorf("%s: %s", e.Pos, strings.TrimPrefix(e.Error(), "script: error at "+e.Pos+": "))
		}
		return nil, fmt.Errorf("%s: %w", s.name, e)
	}
	return g, nil
}

// loadError lists every syntax or resolve error as file:line:column: msg.
func loadError(err error) error {
	var list resolve.ErrorList
	if errors.As(err, &list) {
		errs := make([]error, len(list))
		for i, e := range list {
			errs[i] = fmt.Errorf("%s: %s", e.Pos, e.Msg)
		}
		return errors.Join(errs...)
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %s", se.Pos, se.Msg)
	}
	return err
}

// checkEntry checks that v is a function taking exactly the entry point's
// parameters, by name.
func checkEntry(filename, name string, v starlark.Value) (*starlark.Function, error) {
	want := entryParams[name]
	fn, ok := v.(*starlark.Function)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a function (def %s(%s, %s)), not %s", filename, name, name, want[0], want[1], v.Type())
	}
	var got []string
	for i := 0; i < fn.NumParams(); i++ {
		p, _ := fn.Param(i)
		got = append(got, p)
	}
	if fn.NumParams() != 2 || fn.HasVarargs() || fn.HasKwargs() || fn.NumKwonlyParams() > 0 || got[0] != want[0] || got[1] != want[1] {
		return nil, fmt.Errorf("%s: %s must take (%s, %s), has (%s)", fn.Position(), name, want[0], want[1], strings.Join(got, ", "))
	}
	return fn, nil
}

// Defines reports which entry points the script defines.
func (s *Script) Defines() (placement, score, filter bool) {
	return s.placement != nil, s.score != nil, s.filter != nil
}

// Config returns the script's configuration, defaults filled.
func (s *Script) Config() Config { return s.cfg }

func (s *Script) newThread() *starlark.Thread {
	th := &starlark.Thread{Name: s.name}
	th.Print = func(_ *starlark.Thread, msg string) { s.logf("print", msg) }
	th.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, errors.New("scripts cannot load modules")
	}
	th.OnMaxSteps = s.checkpoint
	return th
}

// replaceThread gives the script a new thread after a panic, whose state
// the old one may have kept; Interrupt reads the field.
func (s *Script) replaceThread() {
	th := s.newThread()
	s.watch.mu.Lock()
	s.thread = th
	s.watch.mu.Unlock()
}

// reset readies the thread for one call: a fresh step budget, no
// cancellation left from the last call. Only OnMaxSteps cancels the
// thread, and it sets exceeded: without it, there is nothing to undo (and
// Uncancel's atomic store is a tenth of what calling a one-line score
// costs).
func (s *Script) reset() {
	s.thread.Steps = 0
	s.nextCheckpoint(s.thread)
	s.watch.cpuKnown = false
	s.memUsed = 0
	if s.exceeded || s.timedOutReset() {
		s.thread.Uncancel()
	}
	s.exceeded = false
}

// timedOutReset clears the time-out of the last call, reporting whether
// there was one (its cancellation is then undone by reset).
func (s *Script) timedOutReset() bool {
	t := s.watch.timedOut
	s.watch.timedOut = false
	return t
}

// call runs entry point fn on (a, b) under the step budget. A Go panic in
// a builtin is recovered into an Error, and the thread, whose state it may
// have left behind, is replaced.
func (s *Script) call(fn *starlark.Function, a, b starlark.Value) (v starlark.Value, err *Error) {
	s.reset()
	defer func() {
		s.args[0], s.args[1] = nil, nil
		if r := recover(); r != nil {
			s.replaceThread()
			v, err = nil, &Error{Entry: fn.Name(), Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	// The tuple is reused: Starlark copies arguments into the callee's
	// locals and the entry points take no *args that could keep it.
	s.args[0], s.args[1] = a, b
	s.begin()
	defer s.end()
	res, e := starlark.Call(s.thread, fn, s.args, nil)
	if e != nil {
		return nil, s.wrap(e, fn.Name())
	}
	return res, nil
}

// wrap turns an evaluation error into an Error that names the innermost
// line of the script on the call stack.
func (s *Script) wrap(err error, entry string) *Error {
	out := &Error{Entry: entry, Msg: err.Error()}
	switch {
	case s.exceeded:
		out.Budget, out.Steps = true, s.cfg.StepBudget
		return out
	case s.interrupted():
		out.Interrupted = true
		return out
	case s.timedOut():
		out.Time, out.Limit = true, s.timeBudget
		return out
	}
	out.Memory = errors.Is(err, errMemoryBudget)
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		out.Msg = ee.Msg
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			pos := ee.CallStack[i].Pos
			if pos.Filename() == s.name && pos.Line > 0 {
				out.Pos = fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
				break
			}
		}
	}
	return out
}

// bind points the script at ledger l's cluster (building its view on
// first sight) and readies the call state for task t.
func (s *Script) bind(l *placement.Ledger, t *placement.Task, entry string, cands []int32, node int) {
	if s.env == nil || s.env.c != l.Cluster {
		s.env = newEnv(l.Cluster)
	}
	s.env.l = l
	s.cur = call{t: t, entry: entry, cands: cands, target: -1, node: node, hint: -1}
}

// failure is a failed call's Decision under the configured error mode.
func (s *Script) failure(e *Error) placement.Decision {
	if s.cfg.OnError == Stop {
		return placement.Decision{Index: -1, Err: e}
	}
	return placement.Decision{Index: -1, Reject: e.Error()}
}

// fail records the first error met by a filter or scorer while placing
// the job of t, for the Decider to report.
func (s *Script) fail(t *placement.Task, e *Error) {
	if s.pending == nil || s.pendingKey != t.Key {
		s.pending, s.pendingKey = e, t.Key
	}
}

// takePending returns and clears the error recorded for t's job.
func (s *Script) takePending(t *placement.Task) *Error {
	e := s.pending
	if e == nil || s.pendingKey != t.Key {
		return nil
	}
	s.pending = nil
	return e
}

// hasPending reports whether t's job already met an error this attempt.
func (s *Script) hasPending(t *placement.Task) bool {
	return s.pending != nil && s.pendingKey == t.Key
}
