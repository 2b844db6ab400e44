package slurmconf

import (
	"slices"
	"strings"
	"testing"
)

func TestExpandHostlist(t *testing.T) {
	cases := []struct {
		expr string
		want string // space-separated
	}{
		{"c001", "c001"},
		{"c[1-3]", "c1 c2 c3"},
		{"c[001-004,010],gpu[1-2]", "c001 c002 c003 c004 c010 gpu1 gpu2"},
		{"c[08-11]", "c08 c09 c10 c11"},
		{"c[98-101]", "c98 c99 c100 c101"},
		{"c[098-101]", "c098 c099 c100 c101"},
		{"c[7]", "c7"},
		{"c[1,3,5]", "c1 c3 c5"},
		{"r[1-2]n[01-02]", "r1n01 r1n02 r2n01 r2n02"},
		{"[1-2]x", "1x 2x"},
		{"a,b,c[1-2]", "a b c1 c2"},
		{"node-[1-2].ib", "node-1.ib node-2.ib"},
		{"c[1-2],c[1-2]", "c1 c2 c1 c2"}, // duplicates kept: the caller judges
	}
	for _, c := range cases {
		got, err := ExpandHostlist(c.expr)
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%q = %v, want %v", c.expr, got, want)
		}
	}
}

func TestExpandHostlistErrors(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"", "empty hostlist"},
		{"c[1-3", "'[' without ']'"},
		{"c1-3]", "']' without '['"},
		{"c[[1]]", "'[' without ']'"},
		{"c[3-1]", "goes down"},
		{"c[a-b]", "want numbers"},
		{"c[1-]", "want numbers"},
		{"c[]", "want numbers"},
		{"c[1-2],,d", "empty host name"},
		{"c[1-2:2]", "want numbers"},
		{"c[0-999999999]", "more than 1000000 hosts"},
		{"a[1-1000]b[1-1001]", "more than 1000000 hosts"},
	} {
		_, err := ExpandHostlist(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.expr, err, c.want)
		}
	}
}
