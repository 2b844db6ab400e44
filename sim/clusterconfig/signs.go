package clusterconfig

import (
	"github.com/schedsim/schedsim/sim"
)

// signs refuses a negative amount of a resource that some item offers (a
// positive amount). A negative amount means a shortcoming or a ward only
// on a resource no node offers (pylighthouse's `mud: -5`); on a resource
// other nodes offer, `cpu: -16` is almost surely a typo, and replaying it
// would silently take the node's cpu away.
type signs struct {
	offered   map[string]string // resource → path of the first item offering it
	negatives []negativeAmount
}

type negativeAmount struct {
	line int
	path string
	q    sim.Quantity
}

// note records one amount of the item at path.
func (s *signs) note(w *where, q sim.Quantity, path string) {
	switch {
	case q.Amount > 0:
		if s.offered == nil {
			s.offered = map[string]string{}
		}
		if _, ok := s.offered[q.Resource]; !ok {
			s.offered[q.Resource] = path
		}
	case q.Amount < 0:
		s.negatives = append(s.negatives, negativeAmount{w.at("resources." + q.Resource), path, q})
	}
}

// check reports every negative amount of an offered resource, at its
// own line.
func (s *signs) check(p *problems) {
	for _, n := range s.negatives {
		if by, ok := s.offered[n.q.Resource]; ok {
			p.add(n.line, join(n.path, "resources."+n.q.Resource),
				"%s is negative, but %s has %s to offer: a negative amount is a shortcoming or ward, only of a resource no node offers (docs/scheduling.md, resource semantics)",
				n.q.Amount, by, n.q.Resource)
		}
	}
}
