package slurmconf

import (
	"errors"
	"slices"
	"strings"
)

// gres is what a node's Gres= gives the simulator: its GPUs and their
// types. Other generic resources (mps, shards, bandwidth…) are kept only
// as the node's "gres" attribute: sacct's job records do not request them
// in a form this package's readers map.
type gres struct {
	gpus  int64
	types []string // GPU types as written ("a100"), in order, without repeats
}

// parseGres reads a Gres value: comma-separated name[:type][:count]
// entries, each optionally followed by "(S:0-1)" (scontrol's socket
// binding) or flags (no_consume). A missing count is 1; a count may carry
// a K, M, G or T suffix (powers of 1024), as Slurm allows.
func parseGres(v string) (gres, error) {
	var g gres
	if v == "" || strings.EqualFold(v, "(null)") {
		return g, nil
	}
	for _, item := range splitOutside(v, '(', ')') {
		if i := strings.IndexByte(item, '('); i >= 0 {
			item = item[:i]
		}
		parts := strings.Split(item, ":")
		if parts[0] == "" {
			return g, errors.New("a gres entry has no name (want name[:type]:count, as gpu:a100:4)")
		}
		count := int64(1)
		if len(parts) > 1 {
			if c, ok := gresCount(parts[len(parts)-1]); ok {
				count = c
				parts = parts[:len(parts)-1]
			}
		}
		if parts[0] != "gpu" {
			continue
		}
		g.gpus += count
		if g.gpus > 1<<20 {
			return g, errors.New("too many GPUs")
		}
		for _, t := range parts[1:] {
			if t == "" || strings.EqualFold(t, "no_consume") {
				continue
			}
			if !slices.Contains(g.types, t) {
				g.types = append(g.types, t)
			}
			break
		}
	}
	return g, nil
}

// gresCount reads a count with an optional K, M, G or T suffix.
func gresCount(s string) (int64, bool) {
	mult := int64(1)
	if n := len(s); n > 1 {
		switch s[n-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		case 'T', 't':
			mult = 1 << 40
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	v, ok := digits(s)
	if !ok {
		return 0, false
	}
	return v * mult, true
}
