//go:build !linux

package addrspace

// Restore has nothing to restore off Linux.
func Restore() {}
