package sim

import (
	"strconv"
	"strings"
)

// TenantKey says which job field names a job's tenant (the owner that
// fair-share policies and fairness metrics group jobs by).
type TenantKey string

// Tenant keys.
const (
	ByUser  TenantKey = "user"
	ByGroup TenantKey = "group"
	ByQueue TenantKey = "queue"
)

// Tenants maps jobs to tenants. With Buckets > 0 the tenant is synthetic:
// the digits of the field (SWF ids are numbers: "u17" → 17) modulo Buckets,
// named "t0"…"t<Buckets−1>"; a field without digits is tenant "t0". That
// turns a trace's hundreds of users into a few tenants with contracted
// shares. The Lattice queue and the metrics name tenants with it, so they
// always agree.
type Tenants struct {
	Key     TenantKey
	Buckets int
}

// Of returns j's tenant.
func (t Tenants) Of(j *Job) string {
	var v string
	switch t.Key {
	case ByGroup:
		v = j.Group
	case ByQueue:
		v = j.Queue
	default:
		v = j.User
	}
	if t.Buckets <= 0 {
		return v
	}
	digits := strings.TrimLeftFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	id, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return "t0"
	}
	return "t" + strconv.FormatUint(id%uint64(t.Buckets), 10)
}

// FairShareDeficit is a tenant's shortfall against its target share:
// max(0, target − actual) / target, 0 for a target of 0.
func FairShareDeficit(target, actual float64) float64 {
	if target <= 0 {
		return 0
	}
	return max(0, target-actual) / target
}
