package traces

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// endless is a CSV input that starts with prefix and then repeats fill
// for ever, without keeping it in memory.
type endless struct {
	prefix string
	fill   byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.fill
	}
	return len(p), nil
}

// rows is n rows of width bytes each, generated as they are read.
type rows struct {
	n, width, at int
}

func (r *rows) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	i := 0
	for ; i < len(p) && r.n > 0; i++ {
		if r.at == r.width {
			p[i], r.at = '\n', 0
			r.n--
			continue
		}
		p[i] = 'x'
		r.at++
	}
	return i, nil
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// A row that never ends, plain or quoted across lines, stops at
// MaxRecord with ErrRecordTooLong, having allocated a small multiple of
// it.
func TestCSVRowIsLimited(t *testing.T) {
	for _, in := range []*endless{{"a,b\n1,", 'x'}, {"a,b\n1,\"", '\n'}} {
		before := totalAlloc()
		cr := NewCSVReader(in)
		if _, err := cr.Read(); err != nil {
			t.Fatal(err)
		}
		_, err := cr.Read()
		if grown := totalAlloc() - before; grown > 150<<20 {
			t.Errorf("allocated %d MB", grown>>20)
		}
		if !errors.Is(err, ErrRecordTooLong) || !strings.Contains(err.Error(), "the CSV row starting at byte 4 is longer than 16777216 bytes") {
			t.Errorf("err = %v", err)
		}
		// The error sticks: a lenient caller that reads on gets it again.
		if _, err := cr.Read(); !errors.Is(err, ErrRecordTooLong) {
			t.Errorf("next read: %v", err)
		}
	}
}

// The limit is per row: many rows that add up to more than MaxRecord,
// and one row just under it, read fine.
func TestCSVRowsUnderTheLimitRead(t *testing.T) {
	for _, in := range []*rows{{n: 40, width: 1 << 20}, {n: 2, width: MaxRecord - 1}} {
		want := in.n
		cr := NewCSVReader(in)
		n := 0
		for {
			_, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("row %d of %d bytes: %v", n, in.width, err)
			}
			n++
		}
		if n != want {
			t.Errorf("%d rows, want %d", n, want)
		}
	}
}
