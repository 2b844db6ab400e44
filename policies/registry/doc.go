// Package registry is the one list of what a run can choose: queue orders,
// backfilling disciplines and placement strategies (the GPU policies of
// the FGD experiment among them), each a name with a line of
// documentation, the arguments it reads and how it is built — in the shape
// of the Kubernetes scheduler's in-tree plugin registry. The run spec
// validates against it, the commands build from it, and `schedsim
// policies` and every --help print it.
//
// Adding a queue order is its package (with an Args type holding its YAML
// arguments and their Validate), its test, and one entry in orders.go; a
// placement strategy is one entry in policies/placement's registry.
package registry
