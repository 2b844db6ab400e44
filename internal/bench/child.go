package bench

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/schedsim/schedsim/sim/run"
)

// Times are what a child process cost: wall and CPU (user + system)
// seconds, and its peak memory (max RSS) in MiB.
type Times struct{ Wall, CPU, RSSMiB float64 }

// Child runs a child process and returns what it cost. env is its
// environment (nil: this process's). Its error stream goes to stderr when
// stderr is set; else it is kept out of the tables and shown on this
// process's error stream only when the child fails.
func Child(env []string, stderr io.Writer, path string, args ...string) (Times, error) {
	c := exec.Command(path, args...)
	c.Env = env
	var held bytes.Buffer
	c.Stderr = stderr
	if stderr == nil {
		c.Stderr = &held
	}
	start := time.Now()
	if err := c.Run(); err != nil {
		os.Stderr.Write(held.Bytes())
		return Times{}, err
	}
	t := Times{Wall: time.Since(start).Seconds()}
	t.CPU = (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds()
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		t.RSSMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return t, nil
}

// Scratch returns this program's path, to run children with, and a fresh
// scratch directory for suite's files, which the caller removes.
func Scratch(suite string) (self, tmp string, err error) {
	if self, err = os.Executable(); err != nil {
		return "", "", run.Failed(err)
	}
	if tmp, err = os.MkdirTemp("", "schedsim-bench-"+suite+"-"); err != nil {
		return "", "", run.Failed(err)
	}
	return self, tmp, nil
}

// WithoutEnv is env without the variable name.
func WithoutEnv(env []string, name string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			kept = append(kept, kv)
		}
	}
	return kept
}

// LoadAverage is the 1-minute load average, or "?" off Linux.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
