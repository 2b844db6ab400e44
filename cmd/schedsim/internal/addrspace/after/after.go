// Package after restores what package addrspace changed, once Starlark is
// initialized (it imports Starlark, so it is initialized after it). The
// schedsim command imports it for that effect alone.
package after

import (
	// Imported for its initialization: this package's init must follow it.
	_ "go.starlark.net/starlark"

	"github.com/schedsim/schedsim/cmd/schedsim/internal/addrspace"
)

func init() { addrspace.Restore() }
