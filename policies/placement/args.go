package placement

import (
	"errors"
	"fmt"
)

// Args are a placement strategy's or scorer's typed arguments: a pointer
// to a struct with YAML tags whose keys sit in the placement: block
// beside strategy, limit and scorers (or in a scorers item beside name
// and weight), decoded strictly by the name the strategy or scorer is
// registered under. Validate checks what needs no cluster; Build checks
// the rest (a resource no node has).
type Args interface {
	Validate() error
}

// ResourceArgs are the resources a strategy or scorer weighs: the
// allocation scorers' weights (default cpu and mem, 1 each) and
// binpack's rubric.
type ResourceArgs struct {
	Resources Weights `yaml:"resources,omitempty"`
}

// Validate checks the weights: finite and ≥ 0, each resource once.
func (a *ResourceArgs) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for _, r := range a.Resources {
		if !finiteWeight(r.Weight) {
			errs = append(errs, fmt.Errorf("resource %q: weight must be a finite number ≥ 0", r.Name))
		}
		if seen[r.Name] {
			errs = append(errs, fmt.Errorf("resource %q given twice", r.Name))
		}
		seen[r.Name] = true
	}
	return errors.Join(errs...)
}

// AttributeArgs name the node attribute a scorer reads (spread's zone).
type AttributeArgs struct {
	Attribute string `yaml:"attribute,omitempty"`
}

// Validate requires the attribute.
func (a *AttributeArgs) Validate() error {
	if a.Attribute == "" {
		return errors.New("needs an attribute")
	}
	return nil
}

// CalculatorArgs choose Fenzo's fitness calculator: cpu, mem, cpu+mem
// (the default) or none.
type CalculatorArgs struct {
	Calculator string `yaml:"calculator,omitempty"`
}

// Validate checks the calculator's name.
func (a *CalculatorArgs) Validate() error {
	switch a.Calculator {
	case "", "cpu", "mem", "cpu+mem", "none":
		return nil
	}
	return fmt.Errorf("fitness calculator %q: want cpu, mem, cpu+mem or none", a.Calculator)
}

// calculator is the calculator of args, cpu+mem by default.
func calculator(args Args) string {
	if a, ok := args.(*CalculatorArgs); ok && a.Calculator != "" {
		return a.Calculator
	}
	return "cpu+mem"
}

// resources are the weights of args; nil when none were given.
func resources(args Args) Weights {
	if a, ok := args.(*ResourceArgs); ok {
		return a.Resources
	}
	return nil
}

// attribute is the attribute of args; "" when none was given.
func attribute(args Args) string {
	if a, ok := args.(*AttributeArgs); ok {
		return a.Attribute
	}
	return ""
}

// Typed argument constructors for the registries.
func newResourceArgs() Args   { return &ResourceArgs{} }
func newAttributeArgs() Args  { return &AttributeArgs{} }
func newCalculatorArgs() Args { return &CalculatorArgs{} }
