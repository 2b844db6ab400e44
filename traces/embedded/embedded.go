// Package embedded holds the trace schedsim replays when none is given:
// the KTH-SP2 log of the Parallel Workloads Archive (ATTRIBUTION.md), so
// that `schedsim replay`, `bench` and the tests run from anywhere.
package embedded

import _ "embed"

// KTH is the gzip-compressed SWF log KTH-SP2-1996-2.1-cln.
//
//go:embed KTH-SP2-1996-2.1-cln.swf.gz
var KTH []byte

// KTHName is its file name.
const KTHName = "KTH-SP2-1996-2.1-cln.swf.gz"
