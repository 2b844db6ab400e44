package script

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// FuzzScript feeds random bytes as a script, and random values to the
// builtins: nothing may panic or hang, whatever the script does.
func FuzzScript(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "scripts", "*.star"))
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, []byte{1, 2, 3, 4})
	}
	for _, src := range []string{
		"def score(task, node):\n    return rand(node.index + 1) / 3\n",
		"def filter(task, node):\n    return [True, False, \"x\", 1, None][rand(5)]\n",
		"def instance_placement(request, candidate_members):\n    set_target(candidate_members[rand(len(candidate_members))].server_name)\n    return [None, 1, \"no\"][rand(3)]\n",
		"def instance_placement(request, candidate_members):\n    while True:\n        pass\n",
		"def instance_placement(request, candidate_members):\n    return dict(get_cluster_member_resources(\"n1\")), list(request), dir(request)\n",
		"def score(task, node):\n    return float(\"nan\")\n",
		"x = [",
	} {
		f.Add([]byte(src), []byte{0, 9, 200, 7, 255, 3})
	}
	c, err := sim.NewCluster([]sim.NodeSpec{
		node("n0", 4, 64, "arch=x86_64", "user.zone=a", "groups=g1,g2"),
		node("n1", 8, 32, "user.zone=b"),
		node("n2", 2, 128),
	})
	if err != nil {
		f.Fatal(err)
	}
	fixed, err := Compile("fixed.star", []byte("def score(task, node):\n    return 1\n"), Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src, args []byte) {
		s, err := Compile("fuzz.star", src, Config{StepBudget: 20_000, Seed: 1})
		if err == nil {
			l := placement.NewLedger(c)
			for _, strategy := range []string{"first-fit", "least-allocated"} {
				p, err := placement.Build(c, placement.Spec{Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				p.Decider = nil
				if err := Attach(p, s); err != nil {
					t.Fatal(err)
				}
				for i, why := range []string{"new", "evacuation", "relocation"} {
					j := job("j", int64(1+i), 8)
					j.Tasks = 2
					tk := task(t, c, j, why)
					p.PlaceJob(l, tk, 2, nil, nil)
				}
			}
		} else {
			s = fixed
		}
		callBuiltins(t, s, c, args)
	})
}

// callBuiltins calls every builtin of s, during a call on c's ledger and
// outside any, with arguments drawn from args.
func callBuiltins(t *testing.T, s *Script, c *sim.Cluster, args []byte) {
	l := placement.NewLedger(c)
	tk := task(t, c, job("b", 1, 1), "new")
	for _, during := range []bool{true, false} {
		if during {
			s.bind(l, tk, EntryPlacement, []int32{0, 2}, -1)
		} else {
			s.cur = call{target: -1}
		}
		rest := args
		for _, name := range s.predeclared.Keys() {
			var vals starlark.Tuple
			n := 0
			if len(rest) > 0 {
				n, rest = int(rest[0]%4), rest[1:]
			}
			for k := 0; k < n; k++ {
				var v starlark.Value
				v, rest = value(rest, 0)
				vals = append(vals, v)
			}
			s.reset()
			// Errors are fine; panics and hangs are not.
			_, _ = starlark.Call(s.thread, s.predeclared[name], vals, nil)
		}
	}
}

// value decodes one Starlark value from b.
func value(b []byte, depth int) (starlark.Value, []byte) {
	if len(b) == 0 {
		return starlark.None, b
	}
	kind, b := b[0], b[1:]
	num := func() (uint64, []byte) {
		var buf [8]byte
		k := copy(buf[:], b)
		return binary.LittleEndian.Uint64(buf[:]), b[k:]
	}
	switch kind % 9 {
	case 0:
		return starlark.None, b
	case 1:
		x, b := num()
		return starlark.MakeInt64(int64(x)), b
	case 2:
		x, b := num()
		return starlark.Float(math.Float64frombits(x)), b
	case 3:
		return starlark.Bool(kind&16 != 0), b
	case 4:
		names := []string{"n0", "n1", "n2", "", "ghost"}
		return starlark.String(names[int(kind/9)%len(names)]), b
	case 5:
		k := 0
		if len(b) > 0 {
			k, b = int(b[0]%16), b[1:]
		}
		k = min(k, len(b))
		return starlark.String(b[:k]), b[k:]
	case 6, 7:
		if depth > 3 {
			return starlark.None, b
		}
		var elems []starlark.Value
		for k := 0; k < int(kind%4); k++ {
			var v starlark.Value
			v, b = value(b, depth+1)
			elems = append(elems, v)
		}
		if kind%9 == 6 {
			return starlark.NewList(elems), b
		}
		return starlark.Tuple(elems), b
	}
	x, b := num()
	return starlark.MakeUint64(x).Mul(starlark.MakeUint64(x)), b
}
