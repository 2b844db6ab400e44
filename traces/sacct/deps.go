package sacct

import (
	"errors"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

var errDependency = errors.New("not a Slurm dependency (want type:jobid[:jobid…] joined by ',' or '?', as afterok:123,afterany:124_2)")

// parseDependency reads a Dependency field in Slurm's syntax, as squeue
// and scontrol print it (sacct itself has no such field; some sites add
// it to their dumps): "afterok:123:124,afterany:125_2(unfulfilled)".
// Types map to sim.Dependency as far as the engine can wait for them:
//
//	afterok           after success (the job completed)
//	afterany          after any end
//	afternotok        after any end (the engine cannot wait for a failure only)
//	afterburstbuffer  after any end
//	aftercorr         after success of the array task with the dependent
//	                  job's own index (123 becomes 123_4 for task 4)
//	after, singleton  not modelled (a start, a user's other jobs): dropped
//
// '?' (any one of) is read as ',' (all of): the engine waits for all. A
// "+minutes" after an id (after's delay) is dropped with its type. The
// annotations "(unfulfilled)", "(failed)" and an empty or "(null)" field
// are nothing.
func parseDependency(s, arrayIndex string) ([]sim.Dependency, error) {
	if s == "" || s == "(null)" {
		return nil, nil
	}
	var deps []sim.Dependency
	for _, clause := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '?' }) {
		if i := strings.IndexByte(clause, '('); i >= 0 {
			clause = clause[:i]
		}
		kind, ids, _ := strings.Cut(clause, ":")
		var any, corr bool
		switch kind {
		case "afterok":
		case "afterany", "afternotok", "afterburstbuffer":
			any = true
		case "aftercorr":
			corr = true
		case "after", "singleton":
			continue
		default:
			return nil, errDependency
		}
		if ids == "" {
			return nil, errDependency
		}
		for _, id := range strings.Split(ids, ":") {
			id, _, _ = strings.Cut(id, "+")
			if id == "" || strings.ContainsAny(id, " |") {
				return nil, errDependency
			}
			if corr && arrayIndex != "" && !strings.Contains(id, "_") {
				id += "_" + arrayIndex
			}
			deps = append(deps, sim.Dependency{ID: id, AfterAny: any})
		}
	}
	return deps, nil
}
