package run

// DrawsRandom reports whether the run draws random numbers from its seed,
// so that runs differing only in their seed differ: jitter of submits or
// runtimes, random node failures (--mtbf), a random placement (random,
// gpu-random), or a placement script, whose rand builtin may be called.
// Without any, the seeds of a sweep give identical replicas.
func (c *Spec) DrawsRandom() bool {
	switch {
	case c.JitterSubmitS > 0 || c.JitterRuntime > 0:
		return true
	case c.MTBFs > 0:
		return true
	case c.Script.Path != "":
		return true
	}
	switch c.Placement.String() {
	case "random", "gpu-random":
		return true
	}
	return false
}
