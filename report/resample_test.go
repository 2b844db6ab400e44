package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkGolden compares got with testdata/golden/name, or rewrites it
// under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestChooseBucket: the bucket follows the span, at most maxBuckets of
// them, with the band one unit finer.
func TestChooseBucket(t *testing.T) {
	for _, c := range []struct {
		span         float64
		bucket, fine string
	}{
		{6 * 3600, "hour", "minute"}, // 360 minutes > 200
		{3 * 3600, "minute", "second"},
		{7 * 86400, "hour", "minute"},
		{30 * 86400, "day", "hour"},
		{333 * 86400, "week", "day"},
		{100 * 365 * 86400, "week", "day"}, // never coarser than a week
	} {
		b, f := chooseBucket(c.span)
		if b.Name != c.bucket || f.Name != c.fine {
			t.Errorf("span %v s: %s/%s, want %s/%s", c.span, b.Name, f.Name, c.bucket, c.fine)
		}
	}
}

// TestResampleGolden resamples hand-made step functions and compares
// every bucket (start, mean, band) with testdata/golden/resample.txt. The
// cases, checked by hand when the file was written:
//   - square: 0 for 30 min then 1 for 30 min, for 3 h, in hour buckets of
//     minute means: each hour's mean is 0.5, its band 0 to 1;
//   - burst: 10 for one second at 90 s, else 2, in minute buckets of
//     second means: the second minute's mean is 2 + 8/60 and its band
//     reaches 10, the others are flat at 2;
//   - partial: a series of 2.5 days in day buckets, the last one half
//     covered: its mean is over the half that is there;
//   - nan: a gap (NaN) is left out of the mean, not counted as 0;
//   - instant: a series of one instant is one bucket of its last value.
func TestResampleGolden(t *testing.T) {
	var b strings.Builder
	write := func(name string, r resampled) {
		fmt.Fprintf(&b, "# %s: %s buckets, band of %s means\n", name, r.Bucket.Name, r.Fine.Name)
		for k := range r.Start {
			fmt.Fprintf(&b, "%g\t%.6g\t%.6g\t%.6g\n", r.Start[k], r.Mean[k], r.Lo[k], r.Hi[k])
		}
	}
	hour, minute, second, day := bucketUnits[2], bucketUnits[1], bucketUnits[0], bucketUnits[3]

	var ts, vs []float64
	for k := 0; k <= 6; k++ {
		ts = append(ts, float64(k)*1800)
		vs = append(vs, float64(k%2))
	}
	write("square", resample(ts, vs, hour, minute))

	write("burst", resample([]float64{0, 90, 91, 180}, []float64{2, 10, 2, 2}, minute, second))

	write("partial", resample([]float64{0, 86400, 2.5 * 86400}, []float64{4, 8, 0}, day, hour))

	write("nan", resample([]float64{0, 1800, 3600, 7200}, []float64{6, math.NaN(), 2, 0}, hour, minute))

	write("instant", resample([]float64{50, 50}, []float64{1, 3}, hour, minute))

	checkGolden(t, "resample.txt", b.String())
}
