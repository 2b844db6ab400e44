// Package addrspace keeps the Starlark interpreter from reserving 4 GiB of
// address space when the process runs under an address-space limit
// (ulimit -v, RLIMIT_AS, which batch systems set).
//
// go.starlark.net/starlark reserves 4 GiB at package initialization
// (int_posix64.go: small ints are addresses inside the reservation, so
// that an Int needs no allocation). With the Go runtime's own
// reservations that made some 5.9 GB at start, so a replay failed under
// ulimit -v 6000000. Under a finite limit this package lowers the limit
// for the moment Starlark initializes, so that its reservation fails and
// it falls back to plain big.Int-backed ints (scripts run a little
// slower, results are the same), and it keeps Starlark's log line about
// it off the terminal; package after restores both once Starlark is
// initialized.
//
// The ordering rests on the Go specification's initialization order: of
// the packages whose imports are initialized, the first by import path
// goes first. This package imports only what Starlark imports too, and
// github.com/… sorts before go.starlark.net/…, so it is initialized
// before Starlark; package after imports Starlark, so it comes after.
//
// In a cgo build it also holds glibc's malloc to one arena under a finite
// limit, from a C constructor that runs before the Go runtime starts a
// thread (arenas_cgo.go): each thread's arena would reserve 64 MiB.
package addrspace
