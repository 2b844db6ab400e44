package script

import (
	"errors"
	"fmt"
	"math"
	"strings"
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
//	  weight: 1          # weight of the script's score(), when it has one
type Config struct {
	Path       string `yaml:"path"`
	OnError    string `yaml:"on_error"`
	StepBudget uint64 `yaml:"step_budget"`
	// MemoryBudgetMiB bounds what one call (and the top level at load)
	// may allocate through operations that grow a value.
	MemoryBudgetMiB uint64  `yaml:"memory_budget_mib"`
	Weight          float64 `yaml:"weight"`
	// Seed seeds the rand builtin; the replay's --seed fills it.
	Seed uint64 `yaml:"-"`
}

// Validate checks the config and fills the defaults: OnError reject,
// StepBudget DefaultStepBudget, MemoryBudgetMiB DefaultMemoryBudgetMiB,
// Weight 1. It reports every problem at
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
	case math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0) || c.Weight < 0:
		errs = append(errs, fmt.Errorf("script: weight must be a finite number ≥ 0, got %g", c.Weight))
	case c.Weight == 0:
		c.Weight = 1
	}
	return errors.Join(errs...)
}
