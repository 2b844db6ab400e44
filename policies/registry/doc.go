// Package registry is the one list of what a run can choose: queue orders,
// backfilling disciplines and placement strategies (the GPU policies of
// the FGD experiment among them), each a name with a line of
// documentation, the arguments it reads and how it is built — in the shape
// of the Kubernetes scheduler's in-tree plugin registry. The run spec
// validates against it, the commands build from it, and `schedsim
// policies` and every --help print it.
//
// A queue order's or a backfill's arguments are its own type (NewArgs),
// decoded strictly from the run spec's block named after it (Blocks),
// some keys also at the spec's top level (Flat); what an
// order adds to a run beyond its scheduler — its flags, its tenants, its
// own tables — are hooks of its entry, so no caller names an order.
// Adding a queue order is its package (with its arguments type and their
// validation), its test, and one entry in orders.go (RegisterQueue from
// outside); a placement strategy is one entry in policies/placement's
// registry (RegisterStrategy). docs/development.md gives the steps.
package registry
