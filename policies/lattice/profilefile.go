package lattice

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
)

// ProfileFile is a user profile file:
//
//	profile: my-batch            # the run's profile (optional; default:
//	                             # the only one defined, else "default")
//	profiles:
//	  my-batch:
//	    weights: {priority: 0.2, wait_time: 0.4, fair_share: 0.4}
//	    conformance: preferred   # or required (as the sensitive profile)
//	queues:                      # per-queue profiles (job Queue field)
//	  q3: sensitive
//
// Factors a profile does not list weigh 0. Weights need not sum to 1.
type ProfileFile struct {
	Run      string
	Profiles map[string]Profile
	Queues   map[string]string
}

// LoadProfileFile reads and validates a profile file.
func LoadProfileFile(path string) (*ProfileFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pf, err := ParseProfiles(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, nil
}

// ParseProfiles decodes a profile file strictly. Every problem is reported
// at once, each with its line: unknown keys and factors, weights that are
// negative, not numbers or not finite, profiles whose weights are all zero,
// names that redefine a built-in profile, queues naming no profile.
func ParseProfiles(data []byte) (*ProfileFile, error) {
	root, err := strictyaml.Parse("", data)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), ": ")) // the caller names the file
	}
	if root == nil {
		return nil, errors.New("empty profile file")
	}
	p := &profileParser{pf: &ProfileFile{Profiles: map[string]Profile{}, Queues: map[string]string{}}}
	p.file(root)
	if len(p.errs) == 0 {
		p.resolve()
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(a, b int) bool { return p.errs[a].line < p.errs[b].line })
		msgs := make([]string, len(p.errs))
		for i, e := range p.errs {
			msgs[i] = fmt.Sprintf("line %d: %s", e.line, e.msg)
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return p.pf, nil
}

type lineError struct {
	line int
	msg  string
}

type profileParser struct {
	pf        *ProfileFile
	errs      []lineError
	runLine   int
	queueLine map[string]int
}

func (p *profileParser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, lineError{n.Line, fmt.Sprintf(format, args...)})
}

// mapping visits the pairs of a mapping node, reporting duplicate keys.
func (p *profileParser) mapping(n *yaml.Node, what string, visit func(k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return
		}
		p.errorf(n, "%s: want a mapping", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errorf(k, "%s: %q given twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		visit(k, v)
	}
}

func (p *profileParser) file(doc *yaml.Node) {
	root := doc
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		root = doc.Content[0]
	}
	p.queueLine = map[string]int{}
	p.mapping(root, "profile file", func(k, v *yaml.Node) {
		switch k.Value {
		case "profile":
			p.runLine = v.Line
			p.pf.Run = p.scalar(v, "profile")
		case "profiles":
			p.mapping(v, "profiles", func(name, body *yaml.Node) { p.profile(name, body) })
		case "queues":
			p.mapping(v, "queues", func(q, name *yaml.Node) {
				p.pf.Queues[q.Value] = p.scalar(name, "queues."+q.Value)
				p.queueLine[q.Value] = name.Line
			})
		default:
			p.errorf(k, "%s", strictyaml.UnknownKey("", k.Value, []string{"profile", "profiles", "queues"}))
		}
	})
}

func (p *profileParser) scalar(v *yaml.Node, what string) string {
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, "%s: want a name", what)
		return ""
	}
	return v.Value
}

func (p *profileParser) profile(name, body *yaml.Node) {
	pr := Profile{Name: name.Value}
	if _, ok := builtin[name.Value]; ok {
		p.errorf(name, "profile %q redefines a built-in profile; choose another name", name.Value)
	}
	if name.Value == "" {
		p.errorf(name, "a profile has an empty name")
	}
	hasWeights := false
	p.mapping(body, "profile "+name.Value, func(k, v *yaml.Node) {
		switch k.Value {
		case "weights":
			hasWeights = true
			p.mapping(v, "profile "+name.Value+" weights", func(f, w *yaml.Node) {
				fi, ok := FactorByName(f.Value)
				if !ok {
					p.errorf(f, "profile %s: unknown factor %q (known: %s)", name.Value, f.Value, strings.Join(factorNames[:], ", "))
					return
				}
				x, err := strconv.ParseFloat(w.Value, 64)
				switch {
				case w.Kind != yaml.ScalarNode || err != nil:
					p.errorf(w, "profile %s: weight %s: want a number, got %q", name.Value, f.Value, w.Value)
				case math.IsNaN(x) || math.IsInf(x, 0):
					p.errorf(w, "profile %s: weight %s must be finite", name.Value, f.Value)
				case x < 0:
					p.errorf(w, "profile %s: weight %s is negative (%s)", name.Value, f.Value, w.Value)
				default:
					pr.Weights[fi] = x
				}
			})
		case "conformance":
			switch v.Value {
			case "preferred":
			case "required":
				pr.RequireConformance = true
			default:
				p.errorf(v, "profile %s: conformance: want preferred or required, got %q", name.Value, v.Value)
			}
		default:
			p.errorf(k, "profile %s: %s", name.Value, strictyaml.UnknownKey("", k.Value, []string{"weights", "conformance"}))
		}
	})
	zero := true
	for _, w := range pr.Weights {
		zero = zero && w == 0
	}
	if zero {
		if hasWeights {
			p.errorf(name, "profile %s: all weights are zero", name.Value)
		} else {
			p.errorf(name, "profile %s: no weights", name.Value)
		}
	}
	p.pf.Profiles[name.Value] = pr
}

// resolve checks the names the file refers to.
func (p *profileParser) resolve() {
	exists := func(n string) bool {
		_, user := p.pf.Profiles[n]
		_, b := builtin[n]
		return user || b
	}
	if p.pf.Run == "" && len(p.pf.Profiles) == 1 {
		for n := range p.pf.Profiles {
			p.pf.Run = n
		}
	}
	if p.pf.Run != "" && !exists(p.pf.Run) {
		p.errs = append(p.errs, lineError{p.runLine, fmt.Sprintf("profile: %q is not defined here nor built in", p.pf.Run)})
	}
	for q, n := range p.pf.Queues {
		if !exists(n) {
			p.errs = append(p.errs, lineError{p.queueLine[q], fmt.Sprintf("queues.%s: %q is not defined here nor built in", q, n)})
		}
	}
}

// Resolve turns the file into the run's profiles; extraQueues (the
// lattice config's queue_profiles) add to and override the file's.
func (pf *ProfileFile) Resolve(extraQueues map[string]string) (*Profiles, error) {
	qs := map[string]string{}
	for q, n := range pf.Queues {
		qs[q] = n
	}
	for q, n := range extraQueues {
		qs[q] = n
	}
	return NamedProfiles(pf.Run, qs, pf.Profiles)
}
