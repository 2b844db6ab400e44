package google

// Priority tiers. Both versions' priorities map to one scale of classes,
// sim.Job.Priority (larger is more important), so that policies that
// preempt or order by class treat the two alike; the tier's name is the
// job's queue and the raw priority a label.
//
//	class  tier                2011 priority (0–11)   2019 priority (0–450)
//	0      free                0–1                    ≤ 99
//	1      best-effort-batch   -                      100–115 (documented: 110–115)
//	2      mid                 2–8                    116–119
//	3      production          9–11                   120–359
//	4      monitoring          -                      ≥ 360
//
// The 2011 trace names 0–1 "free" and 9–11 "production" and leaves 2–8
// unnamed: they are the middle tier here. The 2019 document gives no tier
// to 100–109; they are read as best-effort batch, the tier just above.
var tierNames = [...]string{"free", "best-effort-batch", "mid", "production", "monitoring"}

// tier returns the class and tier name of priority p.
func tier(v Version, p int32) (int, string) {
	c := 0
	if v == V2011 {
		switch {
		case p >= 9:
			c = 3
		case p >= 2:
			c = 2
		}
	} else {
		switch {
		case p >= 360:
			c = 4
		case p >= 120:
			c = 3
		case p >= 116:
			c = 2
		case p >= 100:
			c = 1
		}
	}
	return c, tierNames[c]
}
