package google

import (
	"fmt"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// relationKinds maps a constraint's comparison operator (2011's
// comparison operator 0–3, 2019's MachineConstraint.Relation 0–7) to the
// sim constraint kind it becomes. Every one is hard, as in Borg.
var relationKinds = [...]string{
	0: sim.HostAttribute,     // EQUAL
	1: sim.AttributeNotEqual, // NOT_EQUAL
	2: sim.AttributeLess,     // LESS_THAN
	3: sim.AttributeGreater,  // GREATER_THAN
	4: sim.AttributeAtMost,   // LESS_THAN_EQUAL (2019)
	5: sim.AttributeAtLeast,  // GREATER_THAN_EQUAL (2019)
	6: sim.AttributePresent,  // PRESENT (2019)
	7: sim.AttributeAbsent,   // NOT_PRESENT (2019)
}

// relationNames are the operators' names in the schemas, for messages.
var relationNames = [...]string{"EQUAL", "NOT_EQUAL", "LESS_THAN", "GREATER_THAN", "LESS_THAN_EQUAL", "GREATER_THAN_EQUAL", "PRESENT", "NOT_PRESENT"}

// constraintOf turns one trace constraint into a hard sim.Constraint on
// the node attribute of the same name (machine_attributes). A bad value
// (an ordering needs a number) says so with badValue; otherwise the name
// is at fault (empty).
func constraintOf(op int64, name, value string) (c sim.Constraint, badValue bool, err error) {
	c = sim.Constraint{Kind: relationKinds[op], Attribute: name, Value: value}
	if op >= 6 {
		c.Value = "" // PRESENT, NOT_PRESENT ignore the value
	}
	if name == "" {
		return c, false, fmt.Errorf("empty attribute name")
	}
	if err := sim.CheckConstraint(c); err != nil {
		if _, numErr := strconv.ParseFloat(value, 64); numErr != nil && op >= 2 && op <= 5 {
			return c, true, fmt.Errorf("%s compares numbers, got %q", relationNames[op], value)
		}
		return c, false, err
	}
	return c, false, nil
}
