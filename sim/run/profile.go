package run

import "github.com/schedsim/schedsim/policies/registry"

// Profile is the run's weight profile (--profile): the one given to the
// run's queue order when it reads one, else the first one given to an
// order that does; "" when none.
func (c *Spec) Profile() string {
	target := profileTarget(c.Queue)
	for _, o := range append([]registry.Order{target}, registry.Orders()...) {
		if p, ok := c.Args.Get(o.Name).(registry.Profiled); ok && o.Profiles && *p.WeightProfile() != "" {
			return *p.WeightProfile()
		}
	}
	return ""
}

// SetProfile makes p the run's weight profile, as --profile does: in the
// arguments of the run's queue order when it reads one (else of the first
// order that does, for validation to refuse), no other order's.
func (c *Spec) SetProfile(p string) {
	target := profileTarget(c.Queue)
	for _, o := range registry.Orders() {
		if !o.Profiles || (o.Name != target.Name && c.Args.Get(o.Name) == nil) || (p == "" && c.Args.Get(o.Name) == nil) {
			continue
		}
		if args, ok := c.Args.Edit(o.Name).(registry.Profiled); ok {
			if o.Name == target.Name {
				*args.WeightProfile() = p
			} else {
				*args.WeightProfile() = ""
			}
		}
	}
}

// profileTarget is the order whose arguments hold the profile of a run of
// queue: the queue's when it reads profiles, else the first that does.
func profileTarget(queue string) registry.Order {
	if o, err := registry.LookupOrder(queue); err == nil && o.Profiles {
		return o
	}
	for _, o := range registry.Orders() {
		if o.Profiles {
			return o
		}
	}
	return registry.Order{}
}
