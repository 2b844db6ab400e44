// Package azure reads the VM table of the Azure Public Dataset V2
// (github.com/Azure/AzurePublicDataset, AzurePublicDatasetV2.md, the 2019
// trace): vmtable.csv, headerless, optionally gzip-compressed, columns
//
//	vmid, subscriptionid, deploymentid, vmcreated, vmdeleted, maxcpu, avgcpu,
//	p95maxcpu, vmcategory, vmcorecountbucket, vmmemorybucket
//
// with times in seconds from the start of the 30-day window.
//
// # Mapping
//
// A VM is a job of one task that runs from its creation to its deletion:
//
//	ID        vmid
//	Submit    vmcreated
//	Runtime   vmdeleted − vmcreated. A VM still alive when the window
//	          closed runs to its end: the table gives such a VM the window's
//	          end (or its last reading) as vmdeleted; an empty vmdeleted is
//	          read as Options.TraceEnd (default 30 days)
//	Walltime  none (sim.NoWalltime)
//	Request   cpu = vmcorecountbucket cores, mem = vmmemorybucket GB
//	User      subscriptionid;  Group: deploymentid;  Queue: vmcategory
//	          (Delay-insensitive, Interactive, Unknown)
//
// Buckets are read as their name: "8" is 8 (the bucket's upper bound, so a
// VM never asks for less than it had). The open buckets are read as
// Options.OpenCores (">24" cores: default 32, the next size Azure offers)
// and Options.OpenMemoryGB (">64" GB: default 128). maxcpu, avgcpu and
// p95maxcpu are utilisation, not requests: they are not read.
//
// The trace carries no cluster: a replay needs one (--cluster; an example
// is testdata/azure/cluster.yaml, with mem in GB).
//
// # Order and memory
//
// The table is not sorted by creation time in general. The reader holds a
// sort window of Options.Window VMs (default 65,536) in a heap by
// (vmcreated, file order) and hands out the earliest when the window is
// full: a VM up to Window rows late still comes out in order, memory stays
// bounded by the window. A VM created before one already handed out is a
// bad record ("created before VMs already replayed"): sort the table
// first (`sort -t, -k4,4n vmtable.csv`) when rows are further out of
// order.
//
// # Bad records
//
// Strict mode stops at the first with a *traces.ParseError naming file,
// line and field; lenient mode skips it and counts it by reason. Bad: a
// row without 11 columns, an empty vmid or vmcategory, a vmcreated that is
// missing, negative, not a number or at/after TraceEnd, a vmdeleted that
// is not a time or is before vmcreated, a bucket that is missing, not
// positive, or an open bucket at or above the value it is read as.
package azure
