package script

import (
	"fmt"
	"math/bits"
	"strings"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
)

// builtins returns the names a script may use beyond Starlark's universe
// (which has no clock, no I/O and no randomness): LXD's scriptlet
// functions and a seeded rand.
func (s *Script) builtins() starlark.StringDict {
	b := func(name string, fn func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) *builtin {
		return &builtin{name: name, fn: fn}
	}
	d := starlark.StringDict{
		"set_target":                   b("set_target", s.setTarget),
		"get_cluster_member_state":     b("get_cluster_member_state", s.memberState),
		"get_cluster_member_resources": b("get_cluster_member_resources", s.memberResources),
		"get_instance_resources":       b("get_instance_resources", s.instanceResources),
		"log_info":                     b("log_info", s.logAt("info")),
		"log_warn":                     b("log_warn", s.logAt("warn")),
		"log_error":                    b("log_error", s.logAt("error")),
		"rand":                         b("rand", s.rand),
	}
	s.growthBuiltins(d)
	s.linearBuiltins(d)
	d.Freeze()
	return d
}

// builtin is a Go function callable from a script. It is
// starlark.Builtin without the defensive copy of the arguments that
// starlark.Builtin makes on every call: these functions keep no reference
// to them, and get_cluster_member_state runs once per candidate.
type builtin struct {
	name string
	fn   func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)
}

var _ starlark.Callable = (*builtin)(nil)

func (b *builtin) Name() string          { return b.name }
func (b *builtin) String() string        { return "<built-in function " + b.name + ">" }
func (b *builtin) Type() string          { return "builtin_function_or_method" }
func (b *builtin) Freeze()               {}
func (b *builtin) Truth() starlark.Bool  { return true }
func (b *builtin) Hash() (uint32, error) { return starlark.String(b.name).Hash() }
func (b *builtin) CallInternal(th *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return b.fn(th, b, args, kwargs)
}

// memberName reads the one member_name argument.
func memberName(fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		if s, ok := args[0].(starlark.String); ok {
			return string(s), nil // the common case, without UnpackArgs' allocation
		}
	}
	var name string
	err := starlark.UnpackArgs(fn.Name(), args, kwargs, "member_name", &name)
	return name, err
}

// during returns an error when no entry point is running (a builtin
// called from the top level at load).
func (s *Script) during(fn *builtin) error {
	if s.cur.t == nil || s.env == nil {
		return fmt.Errorf("%s: only inside instance_placement, score or filter", fn.Name())
	}
	return nil
}

// setTarget is set_target(member_name): place the instance on that
// member. It must be one of the candidates; the last call wins.
func (s *Script) setTarget(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name, err := memberName(fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	if s.cur.entry != EntryPlacement || s.cur.t == nil {
		return nil, fmt.Errorf("set_target: only inside instance_placement")
	}
	n, ok := s.env.names[name]
	if ok {
		for _, c := range s.cur.cands {
			if int(c) == n {
				s.cur.target = n
				return starlark.None, nil
			}
		}
	}
	return nil, fmt.Errorf("set_target: %q is not a candidate member", name)
}

// member resolves a member_name argument to a node index. Any member of
// the cluster may be asked about, as in LXD, not only the candidates.
func (s *Script) member(fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (int, error) {
	name, err := memberName(fn, args, kwargs)
	if err != nil {
		return 0, err
	}
	if err := s.during(fn); err != nil {
		return 0, err
	}
	// Scripts mostly walk the candidates in order: try the one after the
	// last member asked about before the name map.
	if k := s.cur.hint + 1; k < len(s.cur.cands) {
		if n := int(s.cur.cands[k]); s.env.c.Nodes[n].Name == name {
			s.cur.hint = k
			return n, nil
		}
	}
	n, ok := s.env.names[name]
	if !ok {
		return 0, fmt.Errorf("%s: no cluster member %q", fn.Name(), name)
	}
	return n, nil
}

// memberState is get_cluster_member_state(member_name): an
// api.ClusterMemberState computed from the ledger (values.go, stateKind).
func (s *Script) memberState(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, err := s.member(fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return stateKind.view(s.env, n), nil
}

// memberResources is get_cluster_member_resources(member_name): an
// api.Resources from the ledger's capacities and free amounts
// (values.go, resourcesKind).
func (s *Script) memberResources(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, err := s.member(fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return resourcesKind.view(s.env, n), nil
}

// instanceResources is get_instance_resources(): what one task of the
// job asks for (values.go, instanceResourcesKind).
func (s *Script) instanceResources(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs); err != nil {
		return nil, err
	}
	if err := s.during(fn); err != nil {
		return nil, err
	}
	return s.env.instanceResources(s.cur.t), nil
}

// logAt returns log_<level>(*messages): the messages joined without a
// separator (LXD's form: log_info("free: ", n, " MB")), strings as they
// are and other values as str() shows them.
func (s *Script) logAt(level string) func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(kwargs) > 0 {
			return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn.Name(), kwargs[0][0])
		}
		if n := s.sizeOfStrs(args...); !s.charge(n) {
			return nil, s.overBudget(n, fn.Name()+"()")
		}
		var b strings.Builder
		for _, a := range args {
			b.WriteString(str(a))
		}
		s.logf(level, b.String())
		return starlark.None, nil
	}
}

// str is Starlark's str(v): a string as it is, anything else as printed.
func str(v starlark.Value) string {
	if s, ok := starlark.AsString(v); ok {
		return s
	}
	return v.String()
}

// rand is rand() → a float in [0, 1), or rand(n) → an int in [0, n). The
// stream is seeded by the run seed, the job, the task, the entry point
// and (for score and filter) the node, so a draw does not depend on what
// was drawn for other jobs or nodes before: the same inputs give the same
// numbers.
func (s *Script) rand(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "n?", &n); err != nil {
		return nil, err
	}
	x := s.next()
	if n == starlark.None {
		return starlark.Float(float64(x>>11) / (1 << 53)), nil
	}
	var k int64
	if err := starlark.AsInt(n, &k); err != nil || k < 1 {
		return nil, fmt.Errorf("rand: n must be an int ≥ 1, got %s", n)
	}
	// Lemire's multiply-shift: unbiased enough for placement (bias
	// below 2⁻³² for n < 2³²), and exact for powers of two.
	hi, _ := bits.Mul64(x, uint64(k))
	return starlark.MakeUint64(hi), nil
}

// next advances the call's splitmix64 stream, seeding it on first use
// (seed): most calls draw nothing, and a score or filter call is one per
// node.
func (s *Script) next() uint64 {
	if !s.cur.seeded {
		s.cur.rng, s.cur.seeded = s.seed(s.cur.t, s.cur.entry, s.cur.node), true
	}
	s.cur.rng += 0x9e3779b97f4a7c15
	return mix(s.cur.rng)
}

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// seed is the start of a call's rand stream.
func (s *Script) seed(t *placement.Task, entry string, node int) uint64 {
	h := mix(s.cfg.Seed ^ 0x5c7a1b)
	if t != nil {
		h = mix(h ^ uint64(t.Key))
		h = mix(h ^ uint64(t.Index))
	}
	for i := 0; i < len(entry); i++ {
		h = h*31 + uint64(entry[i])
	}
	return mix(h ^ uint64(int64(node)+1))
}
