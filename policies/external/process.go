package external

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a scheduler process schedsim started for one run
// (scheduler_command). It runs in its own process group, so that stopping
// it by its pid also stops what it started (a shell's children).
type Process struct {
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
	tail    *tailBuffer
}

// FreePort returns a TCP port of 127.0.0.1 that was free a moment ago: the
// port of a run's scheduler.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// SubstitutePort replaces {port} in s.
func SubstitutePort(s string, port int) string {
	return strings.ReplaceAll(s, "{port}", strconv.Itoa(port))
}

// StartProcess starts command (words split as a shell would: spaces,
// single and double quotes, backslash), its output going to out and,
// for error messages, to a small buffer of its last lines.
func StartProcess(command string, out io.Writer) (*Process, error) {
	args, err := SplitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, errors.New("the scheduler command is empty")
	}
	p := &Process{exited: make(chan struct{}), tail: &tailBuffer{max: 2048}}
	cmd := exec.Command(args[0], args[1:]...)
	w := io.Writer(p.tail)
	if out != nil {
		w = io.MultiWriter(out, p.tail)
	}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the scheduler %q: %w", command, err)
	}
	p.cmd = cmd
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Status says how the process exited (valid once Exited is closed).
func (p *Process) Status() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// Tail is the process's last output lines, for error messages.
func (p *Process) Tail() string { return p.tail.String() }

// Stop waits up to grace for the process to exit by itself, then sends
// its process group SIGTERM and, a second later, SIGKILL. It returns once
// the process has exited.
func (p *Process) Stop(grace time.Duration) {
	select {
	case <-p.exited:
		return
	case <-time.After(grace):
	}
	pid := p.Pid()
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.exited:
		return
	case <-time.After(time.Second):
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-p.exited
}

// SplitCommand splits a command line into words as a POSIX shell would,
// without expansions: blanks separate words, quotes and backslashes
// protect.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("scheduler command %q: unclosed %c quote", s, c)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
