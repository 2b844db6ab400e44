package sim

import "fmt"

// Traits are a job's placement constraints and preferences beyond its
// resource request. Traces and configs fill them; the placement pipeline
// (package policies/placement) interprets them. The engine itself reads
// only Immunities, which change what fits. A nil *Traits means
// none, the case of every HPC trace.
type Traits struct {
	// Immunities are resources whose node value the job's tasks ignore: a
	// ward (−∞) or shortcoming on them does not block; a listed immune
	// resource is still subtracted (pylighthouse; k8s tolerations are the
	// same idea).
	Immunities []string
	// AversionGroups: tasks sharing a group prefer different nodes and
	// share one only when nothing else fits (pylighthouse anti-affinity).
	AversionGroups []string
	// Selector: node attributes that must have these values (k8s
	// nodeSelector), in a deterministic order.
	Selector []Label
	// Tolerations of node taints (k8s).
	Tolerations []Toleration
	// Constraints are Fenzo-style rules, each hard or soft.
	Constraints []Constraint
	// Architecture, when set, must equal the node's "arch" attribute (LXD).
	Architecture string
	// MemberGroup, when set, must be one of the node's "groups" attribute
	// (a comma-separated list; LXD cluster groups for the job's project).
	MemberGroup string
	// Project is the job's LXD project, shown to scriptlets.
	Project string
	// Labels are free-form job metadata (shown to scriptlets as config).
	Labels []Label
}

// Label is one key/value pair.
type Label struct{ Key, Value string }

// Toleration tolerates taints with Key and, when Value is set, that value.
// Effect, when set, limits it to taints of that effect.
type Toleration struct{ Key, Value, Effect string }

// Tolerates reports whether t tolerates taint x.
func (t Toleration) Tolerates(x Taint) bool {
	return t.Key == x.Key && (t.Value == "" || t.Value == x.Value) && (t.Effect == "" || t.Effect == x.Effect)
}

// Constraint is one Fenzo constraint. Kind is one of
// "exclusive-host", "host-attribute", "unique-attribute",
// "balanced-attribute". Attribute and Value are the kind's arguments
// (unique-attribute's attribute defaults to the host name); Groups is
// balanced-attribute's expected number of attribute values (0: count the
// values present in the cluster). Soft constraints score instead of
// filtering.
type Constraint struct {
	Kind      string
	Attribute string
	Value     string
	Groups    int
	Soft      bool
}

// Fenzo's constraint kinds, the values of Constraint.Kind.
const (
	ExclusiveHost     = "exclusive-host"     // the host runs only this task
	HostAttribute     = "host-attribute"     // the host's Attribute equals Value
	UniqueAttribute   = "unique-attribute"   // co-tasks on distinct values of Attribute
	BalancedAttribute = "balanced-attribute" // co-tasks spread evenly over Attribute's values
)

// CheckConstraint reports what is wrong with a constraint, or nil.
func CheckConstraint(c Constraint) error {
	switch c.Kind {
	case ExclusiveHost:
		return nil
	case HostAttribute:
		if c.Attribute == "" {
			return fmt.Errorf("%s needs an attribute", c.Kind)
		}
		return nil
	case UniqueAttribute:
		return nil
	case BalancedAttribute:
		if c.Attribute == "" {
			return fmt.Errorf("%s needs an attribute", c.Kind)
		}
		if c.Groups < 0 {
			return fmt.Errorf("%s: groups must be ≥ 0", c.Kind)
		}
		return nil
	}
	if IsAttributeComparison(c.Kind) {
		return checkAttributeComparison(c) // attrcompare.go
	}
	return fmt.Errorf("unknown constraint %q (known: %s, %s, %s, %s)", c.Kind, ExclusiveHost, HostAttribute, UniqueAttribute, BalancedAttribute)
}
