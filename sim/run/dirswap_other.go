//go:build !linux

package run

import "errors"

// exchangeDirs has no atomic form off Linux; commit then moves the old
// run aside first, and the next run in the directory restores it if a
// crash came between the two renames.
func exchangeDirs(a, b string) error {
	return errors.New("no atomic exchange of directories on this system")
}
