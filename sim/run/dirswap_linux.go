package run

import "golang.org/x/sys/unix"

// exchangeDirs swaps the directories at a and b in one step
// (renameat2 RENAME_EXCHANGE): at every instant each name holds one whole
// directory. It fails with an error on file systems without the call.
func exchangeDirs(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
