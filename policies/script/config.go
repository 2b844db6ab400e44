package script

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// OnError says what a failing call does to the run.
const (
	// Reject rejects the job being placed, with the error as its reason;
	// the run goes on (the default: one bad input should not cost a
	// long replay).
	Reject = "reject"
	// Stop stops the run with the error (for scripts under development,
	// where a silent rejection would hide the bug).
	Stop = "stop"
)

// DefaultStepBudget is the step budget of one call when the config gives
// none. Starlark counts about one step per bytecode; the examples spend
// roughly 30 steps per candidate, so a million covers a few tens of
// thousands of candidates while stopping a runaway loop within tens of
// milliseconds.
const DefaultStepBudget = 1_000_000

// DefaultMemoryBudgetMiB is the memory budget of one call, in MiB, when
// the config gives none: what the operations that can grow a value in one
// step may allocate in all during the call (memory.go). Placement rules
// build small values; 64 MiB leaves them room while a runaway script stays
// far from taking the process down.
const DefaultMemoryBudgetMiB = 64

// DefaultTimeBudgetMS is the time budget of one call, in milliseconds,
// when the config gives none: a placement decision that takes longer is
// a runaway (a million-step call of the examples takes tens of ms), and a
// replay makes hundreds of thousands of calls.
const DefaultTimeBudgetMS = 100

// MaxTimeBudgetMS caps time_budget_ms (one hour).
const MaxTimeBudgetMS = 3_600_000

// DefaultLogMaxMiB caps script.log when the config gives no log_max_mib:
// a log_info in a loop wrote 417 MB.
const DefaultLogMaxMiB = 16

// MaxLogMaxMiB caps log_max_mib (1 TiB), as MaxMemoryBudgetMiB does.
const MaxLogMaxMiB = 1 << 20

// MaxMemoryBudgetMiB caps memory_budget_mib (1 TiB): larger would
// overflow the byte count and no machine this runs on has it.
const MaxMemoryBudgetMiB = 1 << 20

// Config is a script's block of a replay config (or the --script flag,
// which fills Path alone).
//
//	script:
//	  path: testdata/scripts/most_free_memory.star
//	  on_error: reject   # or stop
//	  step_budget: 1000000
//	  memory_budget_mib: 64
//	  time_budget_ms: 100
//	  log_max_mib: 16
//	  weight: 1          # weight of the script's score(), when it has one
type Config struct {
	Path       string `yaml:"path"`
	OnError    string `yaml:"on_error"`
	StepBudget uint64 `yaml:"step_budget"`
	// MemoryBudgetMiB bounds what one call (and the top level at load)
	// may allocate through operations that grow a value.
	MemoryBudgetMiB uint64 `yaml:"memory_budget_mib"`
	// TimeBudgetMS bounds the CPU time of one call's thread (and the top
	// level's at load), in milliseconds: the machine's load and a sweep's
	// other runs do not count, a slower processor does. A call past it
	// fails like one past the step budget. Keep it well above what the
	// calls take, as the default does.
	TimeBudgetMS uint64 `yaml:"time_budget_ms"`
	// LogMaxMiB caps what the script logs (script.log) in MiB; later
	// messages are counted, and the log's last line says so.
	LogMaxMiB uint64  `yaml:"log_max_mib"`
	Weight    float64 `yaml:"weight"`
	// Seed seeds the rand builtin; the replay's --seed fills it.
	Seed uint64 `yaml:"-"`
}

// Validate checks the config and fills the defaults: OnError reject,
// StepBudget DefaultStepBudget, MemoryBudgetMiB DefaultMemoryBudgetMiB,
// TimeBudgetMS DefaultTimeBudgetMS, LogMaxMiB DefaultLogMaxMiB, Weight 1. It reports every problem at
// once.
func (c *Config) Validate() error {
	var errs []error
	if strings.TrimSpace(c.Path) == "" {
		errs = append(errs, errors.New("script: path is required"))
	}
	switch c.OnError {
	case "":
		c.OnError = Reject
	case Reject, Stop:
	default:
		errs = append(errs, fmt.Errorf("script: on_error %q: want %s or %s", c.OnError, Reject, Stop))
	}
	if c.StepBudget == 0 {
		c.StepBudget = DefaultStepBudget
	}
	switch {
	case c.MemoryBudgetMiB == 0:
		c.MemoryBudgetMiB = DefaultMemoryBudgetMiB
	case c.MemoryBudgetMiB > MaxMemoryBudgetMiB:
		errs = append(errs, fmt.Errorf("script: memory_budget_mib must be at most %d, got %d", MaxMemoryBudgetMiB, c.MemoryBudgetMiB))
	}
	switch {
	case c.TimeBudgetMS == 0:
		c.TimeBudgetMS = DefaultTimeBudgetMS
	case c.TimeBudgetMS > MaxTimeBudgetMS:
		errs = append(errs, fmt.Errorf("script: time_budget_ms must be at most %d, got %d", MaxTimeBudgetMS, c.TimeBudgetMS))
	}
	switch {
	case c.LogMaxMiB == 0:
		c.LogMaxMiB = DefaultLogMaxMiB
	case c.LogMaxMiB > MaxLogMaxMiB:
		errs = append(errs, fmt.Errorf("script: log_max_mib must be at most %d, got %d", MaxLogMaxMiB, c.LogMaxMiB))
	}
	switch {
	case math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0) || c.Weight < 0:
		errs = append(errs, fmt.Errorf("script: weight must be a finite number ≥ 0, got %s", sim.FormatNumber(c.Weight)))
	case c.Weight == 0:
		c.Weight = 1
	}
	return errors.Join(errs...)
}
