package native

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// depends_on lists the earlier jobs a job waits for (sim.Job.DependsOn;
// the semantics are the engine's, sim/deps.go). Each item is either a job
// id, a string, meaning "after that job completes", or an object
//
//	{"job": "12", "condition": "success" | "any", "think_s": 30}
//
// where job is required and non-empty, condition defaults to success and
// think_s (seconds between the dependency's end and this job's entry into
// the queue) to 0. An empty list is the same as an absent field. The
// writer writes a plain id when condition and think_s are at their
// defaults, so what it writes reads back the same.

// depKeys are the members of a depends_on object, in the order a writer
// emits them.
var depKeys = []string{"job", "condition", "think_s"}

// decodeDeps reads the depends_on list, its first token (kind k) read.
func (r *record) decodeDeps(s *jsonScanner, k vkind) error {
	if k != vArray {
		return &traitError{path: fDependsOn.String(), err: errWantDeps}
	}
	var deps []sim.Dependency
	err := eachElem(s, func(i int, k vkind) error {
		switch k {
		case vString:
			if len(s.text) == 0 {
				return &traitError{path: itemPath(fDependsOn, i), err: errEmpty}
			}
			deps = append(deps, sim.Dependency{ID: string(s.text)})
			return nil
		case vObject:
		default:
			return &traitError{path: itemPath(fDependsOn, i), err: errWantDep}
		}
		var d sim.Dependency
		err := decodeItem(s, fDependsOn, i, depKeys, func(m int, k vkind) error {
			if m == 2 {
				if k != vNumber {
					return errWantNumber
				}
				t, err := parseTime(string(s.text))
				if err != nil {
					return err
				}
				if t < 0 {
					return errNegTime
				}
				d.Think = t
				return nil
			}
			if k != vString {
				return errWantString
			}
			if m == 0 {
				if len(s.text) == 0 {
					return errEmpty
				}
				d.ID = string(s.text)
				return nil
			}
			switch string(s.text) {
			case "success":
				d.AfterAny = false
			case "any":
				d.AfterAny = true
			default:
				return errCondition
			}
			return nil
		})
		if err != nil {
			return err
		}
		deps = append(deps, d)
		return nil
	})
	if err != nil {
		return err
	}
	if len(deps) > 0 {
		r.job.DependsOn = deps
	}
	return nil
}

// checkDeps reports what the reader would reject in deps.
func checkDeps(deps []sim.Dependency) error {
	for i, d := range deps {
		switch {
		case d.ID == "":
			return fmt.Errorf("%s.job: %w", itemPath(fDependsOn, i), errEmpty)
		case d.Think < 0 || d.Think > maxTime:
			return fmt.Errorf("%s.think_s: must be in [0, 1e12] s, got %s", itemPath(fDependsOn, i), d.Think)
		}
	}
	return nil
}

// appendDeps appends the JSON value of depends_on.
func appendDeps(dst []byte, deps []sim.Dependency) []byte {
	dst = append(dst, '[')
	for i, d := range deps {
		if i > 0 {
			dst = append(dst, ',')
		}
		if !d.AfterAny && d.Think == 0 {
			dst = appendJSONString(dst, d.ID)
			continue
		}
		dst = append(dst, `{"job":`...)
		dst = appendJSONString(dst, d.ID)
		if d.AfterAny {
			dst = append(dst, `,"condition":"any"`...)
		}
		if d.Think != 0 {
			dst = append(dst, `,"think_s":`...)
			dst = append(dst, sim.FormatSeconds(d.Think)...)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
