package report

import (
	"path/filepath"
	"strings"
)

// LabelPart is one dimension of a run's label: the trace, the cluster,
// the queue, the backfill, the placement.
type LabelPart struct{ Dim, Value string }

// labelDims are the dimensions of a run label, in the order they read.
var labelDims = []string{"sweep", "trace", "cluster", "queue", "backfill", "placement", "replica"}

// legendText is what the figures say about a set of runs: Shared, the
// label parts every run has (for the title's second line), Varying, the
// dimensions in which they differ, and Entries, one short legend entry per
// run made of its differing values only.
type legendText struct {
	Shared  []LabelPart
	Varying []string
	Entries []string
}

// reduceLabels splits the runs' labels into what they share and what
// tells them apart. Runs that differ in no dimension (seeds of one
// configuration, say) are told apart by their directory names.
func reduceLabels(runs []*Run) legendText {
	var lt legendText
	for _, dim := range labelDims {
		first, same, present := "", true, false
		for i, r := range runs {
			v := r.part(dim)
			present = present || v != ""
			if i == 0 {
				first = v
			} else if v != first {
				same = false
			}
		}
		switch {
		case !present:
		case same:
			lt.Shared = append(lt.Shared, LabelPart{dim, first})
		default:
			lt.Varying = append(lt.Varying, dim)
		}
	}
	lt.Entries = make([]string, len(runs))
	for i, r := range runs {
		var vals []string
		for _, dim := range lt.Varying {
			v := r.part(dim)
			if v == "" {
				v = "(no " + dim + ")"
			}
			vals = append(vals, v)
		}
		lt.Entries[i] = fitLegendText(strings.Join(vals, " · "))
	}
	// Entries that still collide get the directory name.
	count := map[string]int{}
	for _, e := range lt.Entries {
		count[e]++
	}
	for i, r := range runs {
		if count[lt.Entries[i]] > 1 || lt.Entries[i] == "" {
			dir := filepath.Base(filepath.Clean(r.Dir))
			if lt.Entries[i] == "" {
				lt.Entries[i] = dir
			} else {
				lt.Entries[i] += " [" + dir + "]"
			}
		}
	}
	return lt
}

// Subtitle is the shared part as one line: the trace on the cluster, then
// the other shared settings by name, then the dimensions that vary.
func (lt legendText) Subtitle() string {
	var head string
	var rest []string
	for _, p := range lt.Shared {
		switch p.Dim {
		case "trace":
			head = p.Value
		case "cluster":
			head += " on " + p.Value
		default:
			rest = append(rest, p.Dim+" "+p.Value)
		}
	}
	parts := rest
	if head = strings.TrimSpace(head); head != "" {
		parts = append([]string{head}, rest...)
	}
	s := strings.Join(parts, " · ")
	if len(lt.Varying) > 0 {
		if s != "" {
			s += "; "
		}
		s += "runs differ in " + strings.Join(lt.Varying, " and ")
	}
	return s
}

// part is the value of one label dimension of the run, "" if unknown.
func (r *Run) part(dim string) string {
	for _, p := range r.Parts {
		if p.Dim == dim {
			return p.Value
		}
	}
	return ""
}
