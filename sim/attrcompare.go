package sim

import (
	"fmt"
	"math"
	"strconv"
)

// Attribute comparisons: hard or soft constraints that compare one node
// attribute with a value, beyond host-attribute's equality. They carry
// the Google cluster traces' task constraints (2011: =, ≠, <, >; 2019 adds
// ≤, ≥, present, not present). EQUAL is HostAttribute. As in the traces,
// ≠ compares strings, with an absent attribute read as ""; the orderings
// compare numbers and fail on a node whose value is absent or not a
// number; present and absent ignore Value.
const (
	AttributeNotEqual = "attribute-not-equal"    // the node's Attribute ≠ Value
	AttributeLess     = "attribute-less-than"    // the node's Attribute < Value, as numbers
	AttributeGreater  = "attribute-greater-than" // the node's Attribute > Value, as numbers
	AttributeAtMost   = "attribute-at-most"      // ≤, as numbers
	AttributeAtLeast  = "attribute-at-least"     // ≥, as numbers
	AttributePresent  = "attribute-present"      // the node has Attribute
	AttributeAbsent   = "attribute-absent"       // the node lacks Attribute
)

// IsAttributeComparison reports whether kind is one of the comparisons
// above, which AttributeHolds evaluates.
func IsAttributeComparison(kind string) bool {
	switch kind {
	case AttributeNotEqual, AttributeLess, AttributeGreater, AttributeAtMost, AttributeAtLeast, AttributePresent, AttributeAbsent:
		return true
	}
	return false
}

func numericComparison(kind string) bool {
	switch kind {
	case AttributeLess, AttributeGreater, AttributeAtMost, AttributeAtLeast:
		return true
	}
	return false
}

// checkAttributeComparison: every comparison names an attribute; the
// orderings need a number.
func checkAttributeComparison(c Constraint) error {
	if c.Attribute == "" {
		return fmt.Errorf("%s needs an attribute", c.Kind)
	}
	if numericComparison(c.Kind) {
		if _, ok := attrNumber(c.Value); !ok {
			return fmt.Errorf("%s needs a number as value, got %q", c.Kind, c.Value)
		}
	}
	return nil
}

// AttributeHolds evaluates comparison c on a node whose attribute
// c.Attribute is v (present false: the node lacks it).
func AttributeHolds(c *Constraint, v string, present bool) bool {
	switch c.Kind {
	case AttributeNotEqual:
		return v != c.Value
	case AttributePresent:
		return present
	case AttributeAbsent:
		return !present
	}
	want, ok1 := attrNumber(c.Value)
	have, ok2 := attrNumber(v)
	if !present || !ok1 || !ok2 {
		return false
	}
	switch c.Kind {
	case AttributeLess:
		return have < want
	case AttributeGreater:
		return have > want
	case AttributeAtMost:
		return have <= want
	case AttributeAtLeast:
		return have >= want
	}
	return false
}

func attrNumber(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && !math.IsNaN(f)
}
