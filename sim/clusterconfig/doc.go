// Package clusterconfig reads the cluster YAML file (`schedsim replay
// --cluster PATH`) into the []sim.NodeSpec that sim.NewCluster compiles.
//
// # Schema
//
//	name: example            # optional label
//	power: {idle_w: 100, max_w: 250, resource: cpu}   # optional default for every node
//	node_groups:             # many alike nodes: a name prefix and a count
//	  - prefix: cn
//	    count: 16            # names cn00 … cn15
//	    start: 0             # optional first index (default 0)
//	    resources: {cpu: 32, mem: 131072, gpu: 4}
//	    attributes: {rack: r1, arch: x86_64}
//	    power: {idle_w: 95, max_w: 190}               # replaces the default
//	nodes:                   # single nodes
//	  - name: fat1
//	    resources: {cpu: 128, mem: 1048576, spiders: -inf}
//	    attributes: {zone: b}
//	    parent: rack1         # Bistro hierarchy
//	    taints: [{key: dedicated, value: db, effect: NoSchedule}]
//	  - name: rack1
//	    resources: {uplink_gbps: 40}
//	defaults: {avoid-special: 1}   # what a job requires of what it does not list
//
// Top level (every key optional, but the file needs at least one node):
//   - name: string, a label.
//   - power: the power model of every node that has none of its own.
//   - node_groups: a list of groups. A group is count nodes (1 ≤ count ≤
//     1 000 000) named prefix (a non-empty string) followed by the indices
//     start, start+1, …, start+count−1 (start ≥ 0, default 0), each
//     zero-padded to the width of the last index: count 16 gives cn00…cn15,
//     count 10 with start 1 gives cn01…cn10, count 4 gives cn0…cn3.
//   - nodes: a list of single nodes, each with a name (a non-empty string).
//   - defaults: resource → amount that every job requires of each resource
//     it does not list (Bistro entitlements: "avoid" and "force" a special
//     resource). The job then needs the resource like one it lists.
//
// Groups and single nodes share these keys:
//   - resources: resource name → amount per node, in the resource's own
//     unit (cpu in cores, mem in MiB, gpu in devices; the names and units
//     are free-form but must match what the trace requests). Amounts are
//     numbers ≥ 0, integers or decimals ("0.5", quoted or not), kept exact
//     in thousandths (sim.Amount; decimals are rounded to the thousandth).
//     A resource a node does not list, it does not have. A resource listed
//     with 0 is a tag; a negative amount is a shortcoming that
//     blocks every task not listing a matching negative requirement, and
//     -inf is a ward that only an immunity overcomes. One node's amount and
//     the cluster's total of a resource are at most 9e15 in size.
//   - parent: the name of the node one level up (rack, switch, feed). A
//     task consumes its requirements on its node and on every ancestor that
//     defines the resource; a node that is a parent holds no tasks and
//     does not inherit the top-level power model (it draws 0 W unless it
//     has its own).
//   - taints: a list of {key, value, effect}; effect NoSchedule (default,
//     hard) or PreferNoSchedule (soft). Jobs tolerate them (k8s).
//   - attributes: string → string (zone, rack, arch, model, user.*). Values
//     must be YAML strings: quote numbers and dates ("1", "2024-01-01").
//   - power: {idle_w, max_w, resource}. idle_w and max_w are required watts
//     with 0 ≤ idle_w ≤ max_w. resource names the resource whose utilization
//     drives the draw, idle_w + (max_w − idle_w) · utilization; it must be
//     one of the node's resources; left out, it is cpu when the cluster has
//     cpu, else the cluster's first resource. A group's or node's power
//     replaces the top-level one as a whole (nothing is merged). A node with
//     no power model draws 0 W. Optional, for replays that power idle nodes
//     down (schedsim replay --power-down): off_w, the draw asleep (default
//     0), and switch_off_s, switch_off_j, switch_on_s, switch_on_j, the
//     time (s) and energy (J) of going to sleep and waking (default 0: an
//     instant, free switch; energy needs a time > 0). A switch may give its
//     draw in watts instead of its energy (switch_off_w, switch_on_w).
//
// # Node order
//
// The node index is the order of the nodes: the groups in file order, each
// from its first index to its last, then the single nodes in file order.
// Placement breaks ties by the lowest node index and first-fit policies scan
// in this order, so reordering a file changes schedules.
//
// Resources keep the order they are written in, node by node; sim.Cluster
// numbers resources in first-seen order over the nodes, so the file fixes
// that numbering too. Nothing in this package ranges over a Go map to make
// output, so a file always gives the same nodes.
//
// # Strictness
//
// Every problem of a file is reported at once, one per line of the error
// message, sorted by line, each as "file:line: key.path: what is wrong":
//
//	cluster.yaml:7: node_groups[0].resorces: unknown field
//	cluster.yaml:9: node_groups[0].resources.cpu: must be ≥ 0
//	cluster.yaml:12: nodes[0].name: node name cn03 is also made by node_groups[0]
//
// Unknown keys, values of the wrong type (a list where a mapping belongs, a
// number where an attribute string belongs), keys given twice, a
// count below 1, empty prefixes and names, duplicate node names, unknown
// parents and cycles of parents, max_w < idle_w and a power resource the
// node lacks are all errors. YAML
// anchors and aliases may be used to share blocks; merge keys (<<) may not.
//
// Decode and Config.Validate expose the two steps of Parse (structure, then
// values) for tools that build or edit a Config.
package clusterconfig
