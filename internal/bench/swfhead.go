package bench

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// WriteSWFHead copies the header and the first n jobs of an SWF log
// (plain or gzipped) to dst and returns the number of jobs copied.
func WriteSWFHead(src, dst string, n int) (int, error) {
	f, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", src, err)
		}
		defer gz.Close()
		r = gz
	}
	w, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	jobs := 0
	for sc.Scan() && jobs < n {
		line := sc.Text()
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, ";") {
			jobs++
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		w.Close()
		return 0, fmt.Errorf("%s: %w", src, err)
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return 0, err
	}
	return jobs, w.Close()
}
