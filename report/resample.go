package report

import "math"

// bucketUnit is a bucket width of the time series.
type bucketUnit struct {
	Name    string
	Seconds float64
}

// bucketUnits are the widths a time series is resampled to, each with
// the one below it, whose means give the band: minutes (for runs of a few
// hours), hours, days and weeks.
var bucketUnits = []bucketUnit{
	{"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400}, {"week", 7 * 86400},
}

// maxBuckets bounds the buckets of one series: a line of at most 200
// points (a few pixels each on a figure some 700 pixels wide) reads as a
// trend rather than noise, and its SVG stays small whatever the trace's
// length. A year of trace gives weekly buckets, a week hourly ones.
const maxBuckets = 200

// chooseBucket returns the smallest width, minute to week, that cuts span
// seconds into at most maxBuckets buckets, and the next smaller width,
// whose means make the band.
func chooseBucket(span float64) (bucket, fine bucketUnit) {
	for i := 1; i < len(bucketUnits); i++ {
		if span/bucketUnits[i].Seconds <= maxBuckets || i == len(bucketUnits)-1 {
			return bucketUnits[i], bucketUnits[i-1]
		}
	}
	panic("unreachable")
}

// resampled is a step function summarized per bucket: bucket k starts at
// Start[k] seconds after the series' first time; Mean is the time-weighted
// mean over the part of the bucket the series covers; Lo and Hi are the
// least and the greatest mean over the finer buckets inside it, so the
// band shows how much the value moved within the bucket without the noise
// of single events.
type resampled struct {
	Bucket, Fine bucketUnit
	Start        []float64 // s since the first time
	Mean, Lo, Hi []float64
	covered      []float64 // s of each bucket the series covers
}

// resample summarizes the step function v (v[i] holds on [t[i], t[i+1]);
// the last value lasts no time) in buckets of width bucket aligned on
// t[0], with the band from buckets of width fine. Zero-length steps
// (several changes at one instant) weigh nothing; NaN values are skipped
// as if the series were not there. A series of one instant gives one
// bucket holding its last value.
func resample(t, v []float64, bucket, fine bucketUnit) resampled {
	out := resampled{Bucket: bucket, Fine: fine}
	n := len(t)
	if n == 0 {
		return out
	}
	t0 := t[0]
	span := t[n-1] - t0
	if span <= 0 {
		x := v[n-1]
		out.Start, out.Mean, out.Lo, out.Hi, out.covered = []float64{0}, []float64{x}, []float64{x}, []float64{x}, []float64{0}
		return out
	}
	nf := int(math.Ceil(span / fine.Seconds))
	sum := make([]float64, nf) // ∫ v dt over each fine bucket
	dt := make([]float64, nf)  // covered seconds of each fine bucket
	for i := 0; i+1 < n; i++ {
		a, b := t[i]-t0, t[i+1]-t0
		if b <= a || math.IsNaN(v[i]) {
			continue
		}
		for k := int(a / fine.Seconds); k < nf; k++ {
			lo := math.Max(a, float64(k)*fine.Seconds)
			hi := math.Min(b, float64(k+1)*fine.Seconds)
			if hi <= lo {
				break
			}
			sum[k] += v[i] * (hi - lo)
			dt[k] += hi - lo
		}
	}
	ratio := int(math.Round(bucket.Seconds / fine.Seconds))
	for k0 := 0; k0 < nf; k0 += ratio {
		var s, d float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := k0; k < min(k0+ratio, nf); k++ {
			if dt[k] == 0 {
				continue
			}
			s += sum[k]
			d += dt[k]
			m := sum[k] / dt[k]
			lo, hi = math.Min(lo, m), math.Max(hi, m)
		}
		if d == 0 {
			continue
		}
		out.Start = append(out.Start, float64(k0)*fine.Seconds)
		out.Mean = append(out.Mean, s/d)
		out.Lo = append(out.Lo, lo)
		out.Hi = append(out.Hi, hi)
		out.covered = append(out.covered, d)
	}
	return out
}
