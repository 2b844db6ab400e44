package external

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// Endpoint is where a Batsim scheduler listens: a ZeroMQ endpoint,
// tcp://HOST:PORT or ipc://PATH.
type Endpoint string

// ParseScheduler reads a --scheduler value, batsim:ENDPOINT (e.g.
// batsim:tcp://127.0.0.1:28000), and returns the endpoint.
func ParseScheduler(s string) (Endpoint, error) {
	rest, ok := strings.CutPrefix(s, "batsim:")
	if !ok {
		return "", fmt.Errorf("%q: an external scheduler is batsim:ENDPOINT, e.g. batsim:tcp://127.0.0.1:28000", s)
	}
	switch {
	case strings.HasPrefix(rest, "tcp://"):
		hostPort := strings.TrimPrefix(rest, "tcp://")
		i := strings.LastIndexByte(hostPort, ':')
		if i <= 0 || i == len(hostPort)-1 {
			return "", fmt.Errorf("%q: the endpoint must be tcp://HOST:PORT", s)
		}
	case strings.HasPrefix(rest, "ipc://") && len(rest) > len("ipc://"):
	default:
		return "", fmt.Errorf("%q: the endpoint must be tcp://HOST:PORT or ipc://PATH", s)
	}
	return Endpoint(rest), nil
}

// Transport carries one request and its reply at a time.
type Transport interface {
	// Exchange sends a request and waits for its reply.
	Exchange(req []byte) ([]byte, error)
	Close() error
}

// errNoReply and errExited say why a reply did not come.
var (
	errNoReply = errors.New("no reply")
	errExited  = errors.New("the scheduler process exited")
)

// zmqTransport is Batsim's side of the socket: a ZeroMQ REQ peer (ZMTP
// 3.0, NULL security) on a connection of its own. go-zeromq/zmq4 does the
// handshake; after it, the transport frames messages itself on the
// socket's file descriptor in blocking mode, one write per request and
// usually one read per reply, in the engine's own thread, with the kernel's
// receive timeout (SO_RCVTIMEO) for --scheduler-timeout. zmq4's sockets
// hand every message between goroutines, write each frame apart and wait
// in the network poller: ten times the CPU of the replay itself, for the
// tens of thousands of messages of a long trace.
type zmqTransport struct {
	file    *os.File // the connection's descriptor, blocking
	fd      int
	timeout time.Duration
	exited  <-chan struct{} // closed when a started process exits; nil otherwise
	out     []byte          // the request being framed
	rb      []byte          // read buffer: rb[r:w] is read and not yet parsed
	r, w    int
}

// bufferedConn buffers writes until the next read, so that the
// handshake's frames leave together.
type bufferedConn struct {
	net.Conn
	w *bufio.Writer
}

func (b *bufferedConn) Read(p []byte) (int, error) {
	if b.w.Buffered() > 0 {
		if err := b.w.Flush(); err != nil {
			return 0, err
		}
	}
	return b.Conn.Read(p)
}

func (b *bufferedConn) Write(p []byte) (int, error) { return b.w.Write(p) }

// Dial connects to the scheduler at ep. It retries until the scheduler
// listens, for at most timeout, or until exited is closed (a process
// schedsim started died before it listened).
func Dial(ep Endpoint, timeout time.Duration, exited <-chan struct{}) (Transport, error) {
	network, addr := "tcp", strings.TrimPrefix(string(ep), "tcp://")
	if rest, ok := strings.CutPrefix(string(ep), "ipc://"); ok {
		network, addr = "unix", rest
	}
	deadline := time.Now().Add(timeout)
	var raw net.Conn
	for {
		var err error
		if raw, err = net.DialTimeout(network, addr, time.Until(deadline)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot connect to %s within %s: %w", ep, timeout, err)
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("cannot connect to %s: %w before it listened", ep, errExited)
		case <-time.After(20 * time.Millisecond):
		}
	}
	defer raw.Close() // the transport keeps a duplicate of its descriptor
	if tcp, ok := raw.(*net.TCPConn); ok {
		tcp.SetNoDelay(true)
	}
	raw.SetDeadline(deadline)
	if _, err := zmq4.Open(&bufferedConn{Conn: raw, w: bufio.NewWriter(raw)}, null.Security(), zmq4.Req, zmq4.SocketIdentity(""), false, nil); err != nil {
		return nil, fmt.Errorf("%s: the ZeroMQ handshake failed: %w", ep, err)
	}
	fc, ok := raw.(interface{ File() (*os.File, error) })
	if !ok {
		return nil, fmt.Errorf("%s: not a socket", ep)
	}
	file, err := fc.File()
	if err != nil {
		return nil, err
	}
	t := &zmqTransport{file: file, fd: int(file.Fd()), timeout: timeout, exited: exited, rb: make([]byte, 64<<10)}
	tv := syscall.NsecToTimeval(timeout.Nanoseconds())
	if err := syscall.SetsockoptTimeval(t.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		file.Close()
		return nil, fmt.Errorf("%s: receive timeout: %w", ep, err)
	}
	return t, nil
}

// ZMTP frame flags.
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

// appendFrame appends a ZMTP frame of body.
func appendFrame(b []byte, flags byte, body []byte) []byte {
	if len(body) > 255 {
		b = append(b, flags|flagLong)
		b = binary.BigEndian.AppendUint64(b, uint64(len(body)))
	} else {
		b = append(b, flags, byte(len(body)))
	}
	return append(b, body...)
}

func (t *zmqTransport) Exchange(req []byte) ([]byte, error) {
	// A REQ socket's envelope: an empty delimiter frame, then the body.
	t.out = appendFrame(appendFrame(t.out[:0], flagMore, nil), 0, req)
	for b := t.out; len(b) > 0; {
		n, err := syscall.Write(t.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, t.broken(fmt.Errorf("send: %w", err))
		}
		b = b[n:]
	}
	var frames [][]byte
	for {
		body, flags, err := t.frame()
		if err != nil {
			return nil, err
		}
		if flags&flagCommand != 0 {
			continue // a ZMTP command (PING): not part of the reply
		}
		frames = append(frames, body)
		if flags&flagMore == 0 {
			break
		}
	}
	if len(frames) != 2 || len(frames[0]) != 0 {
		return nil, fmt.Errorf("the reply has %d frames, want an empty delimiter and the body", len(frames))
	}
	return frames[1], nil
}

// frame reads the next frame.
func (t *zmqTransport) frame() ([]byte, byte, error) {
	if err := t.fill(2); err != nil {
		return nil, 0, err
	}
	flags, size, head := t.rb[t.r], uint64(t.rb[t.r+1]), 2
	if flags&flagLong != 0 {
		if err := t.fill(9); err != nil {
			return nil, 0, err
		}
		size, head = binary.BigEndian.Uint64(t.rb[t.r+1:t.r+9]), 9
	}
	if size > 1<<30 {
		return nil, 0, fmt.Errorf("a reply frame of %d bytes: more than 1 GiB", size)
	}
	if err := t.fill(head + int(size)); err != nil {
		return nil, 0, err
	}
	body := bytes.Clone(t.rb[t.r+head : t.r+head+int(size)])
	t.r += head + int(size)
	return body, flags, nil
}

// fill reads until n bytes are buffered from t.r on.
func (t *zmqTransport) fill(n int) error {
	for t.w-t.r < n {
		if t.r > 0 { // move what is left to the front
			t.w = copy(t.rb, t.rb[t.r:t.w])
			t.r = 0
		}
		if n > len(t.rb) {
			t.rb = append(t.rb[:t.w], make([]byte, n-t.w)...)
		}
		m, err := syscall.Read(t.fd, t.rb[t.w:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
			return fmt.Errorf("%w within %s (--scheduler-timeout)", errNoReply, t.timeout)
		case err != nil:
			return t.broken(fmt.Errorf("receive: %w", err))
		case m == 0:
			return t.broken(errors.New("receive: the scheduler closed the connection"))
		}
		t.w += m
	}
	return nil
}

// broken is err, or errExited when a process schedsim started exited (it
// may take a moment to be reaped after the connection broke).
func (t *zmqTransport) broken(err error) error {
	if t.exited == nil {
		return err
	}
	select {
	case <-t.exited:
		return errExited
	case <-time.After(time.Second):
		return err
	}
}

func (t *zmqTransport) Close() error { return t.file.Close() }
