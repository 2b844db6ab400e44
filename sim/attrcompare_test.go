package sim

import "testing"

// TestAttributeHolds: each comparison on a node whose attribute "x" is
// "5", "" (present, empty), "abc" (not a number) or absent.
func TestAttributeHolds(t *testing.T) {
	type node struct {
		v       string
		present bool
	}
	five, empty, text, absent := node{"5", true}, node{"", true}, node{"abc", true}, node{"", false}
	cases := []struct {
		kind, value string
		n           node
		want        bool
	}{
		{AttributeNotEqual, "4", five, true},
		{AttributeNotEqual, "5", five, false},
		{AttributeNotEqual, "", absent, false}, // absent reads as ""
		{AttributeNotEqual, "a", absent, true},
		{AttributeLess, "6", five, true},   // 5 < 6
		{AttributeLess, "5", five, false},  // 5 < 5 is false
		{AttributeLess, "5.5", five, true}, // numbers, not strings
		{AttributeLess, "10", five, true},  // as strings "5" > "10"
		{AttributeLess, "6", text, false},  // not a number
		{AttributeLess, "6", absent, false},
		{AttributeLess, "6", empty, false},
		{AttributeGreater, "4", five, true},
		{AttributeGreater, "5", five, false},
		{AttributeAtMost, "5", five, true},
		{AttributeAtMost, "4.9", five, false},
		{AttributeAtLeast, "5", five, true},
		{AttributeAtLeast, "5.1", five, false},
		{AttributePresent, "", empty, true},
		{AttributePresent, "", absent, false},
		{AttributeAbsent, "", absent, true},
		{AttributeAbsent, "", five, false},
	}
	for _, c := range cases {
		con := Constraint{Kind: c.kind, Attribute: "x", Value: c.value}
		if err := CheckConstraint(con); err != nil {
			t.Fatalf("%+v: %v", con, err)
		}
		if got := AttributeHolds(&con, c.n.v, c.n.present); got != c.want {
			t.Errorf("%s %q on %+v: got %t, want %t", c.kind, c.value, c.n, got, c.want)
		}
	}
}

func TestCheckAttributeComparison(t *testing.T) {
	for _, c := range []struct {
		con  Constraint
		want string
	}{
		{Constraint{Kind: AttributeLess, Value: "1"}, "attribute-less-than needs an attribute"},
		{Constraint{Kind: AttributeGreater, Attribute: "x", Value: "ab"}, `attribute-greater-than needs a number as value, got "ab"`},
		{Constraint{Kind: AttributeAtLeast, Attribute: "x", Value: "NaN"}, `attribute-at-least needs a number as value, got "NaN"`},
		{Constraint{Kind: AttributeNotEqual, Attribute: "x", Value: "ab"}, ""},
		{Constraint{Kind: AttributeAbsent, Attribute: "x"}, ""},
	} {
		err := CheckConstraint(c.con)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%+v: got %q, want %q", c.con, got, c.want)
		}
	}
}
