package metrics

import (
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// snake lowercases s and turns every run of characters other than ASCII
// letters and digits into one underscore, trimmed at both ends: "GPU Mem" →
// "gpu_mem". Column names built from it need no quoting in SQL or pandas.
func snake(s string) string {
	b := make([]byte, 0, len(s))
	under := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			under = len(b) > 0
			continue
		}
		if under {
			b = append(b, '_')
			under = false
		}
		b = append(b, c)
	}
	return string(b)
}

// resourceNames maps the cluster's resources, in index order, to distinct
// snake_case names. A name that sanitizes to nothing becomes r<index>; a
// collision ("GPU" and "gpu") gets _2, _3… in index order, so the mapping is
// deterministic.
func resourceNames(res []string) []string {
	out := make([]string, len(res))
	used := map[string]bool{}
	for i, r := range res {
		base := snake(r)
		if base == "" {
			base = "r" + strconv.Itoa(i)
		}
		name := base
		for k := 2; used[name]; k++ {
			name = base + "_" + strconv.Itoa(k)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

// mainResourceOf is the resource the summary's plain utilization is
// about: the one driving the first node's power (its own choice, a Batsim
// platform's "host"), which defaults to cpu, else the first resource.
func mainResourceOf(c *sim.Cluster) int {
	if len(c.Nodes) > 0 {
		return c.PowerResource(0)
	}
	return mainResource(c.Resources)
}

// mainResource is cpu when the cluster has it, else the first; -1 when
// there is none.
func mainResource(res []string) int {
	if i := slices.Index(res, "cpu"); i >= 0 {
		return i
	}
	if len(res) > 0 {
		return 0
	}
	return -1
}

// appendNodeRanges sorts nodes in place, drops duplicates, appends them to
// dst as ranges ("0-3,7") and returns dst and the number of distinct nodes.
// It allocates nothing when dst has room: it runs once per job.
func appendNodeRanges(dst []byte, nodes []int32) ([]byte, int) {
	if len(nodes) == 0 {
		return dst, 0
	}
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	for i := 0; i < len(nodes); {
		j := i
		for j+1 < len(nodes) && nodes[j+1] == nodes[j]+1 {
			j++
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(nodes[i]), 10)
		if j > i {
			dst = append(dst, '-')
			dst = strconv.AppendInt(dst, int64(nodes[j]), 10)
		}
		i = j + 1
	}
	return dst, len(nodes)
}

// appendRequest appends a per-task request as the trace lists it,
// "cpu=4,mem=2048", amounts exact in units ("gpu=0.5"). It allocates
// nothing when dst has room: it runs once per job.
func appendRequest(dst []byte, req []sim.Quantity) []byte {
	for i, q := range req {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, q.Resource...)
		dst = append(dst, '=')
		dst = appendAmount(dst, q.Amount)
	}
	return dst
}

// appendAmount appends a as sim.Amount.String prints it: units, exact,
// without trailing zeros.
func appendAmount(dst []byte, a sim.Amount) []byte {
	u := uint64(a)
	if a < 0 {
		dst = append(dst, '-')
		u = uint64(-a)
	}
	dst = strconv.AppendUint(dst, u/uint64(sim.Milli), 10)
	if f := u % uint64(sim.Milli); f != 0 {
		dst = append(dst, '.')
		for d := uint64(sim.Milli) / 10; f != 0; d /= 10 {
			dst = append(dst, byte('0'+f/d))
			f %= d
		}
	}
	return dst
}
