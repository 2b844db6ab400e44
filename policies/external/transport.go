package external

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"
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

// zmqTransport is Batsim's side of the socket: a REQ socket connected to
// the scheduler's REP socket.
type zmqTransport struct {
	sock    zmq4.Socket
	cancel  context.CancelFunc
	timeout time.Duration
	exited  <-chan struct{} // closed when a started process exits; nil otherwise
}

type recvResult struct {
	msg zmq4.Msg
	err error
}

// Dial connects to the scheduler at ep. It retries until the scheduler
// listens, for at most timeout, or until exited is closed (a process
// schedsim started died before it listened).
func Dial(ep Endpoint, timeout time.Duration, exited <-chan struct{}) (Transport, error) {
	ctx, cancel := context.WithCancel(context.Background())
	const retry = 20 * time.Millisecond
	sock := zmq4.NewReq(ctx, zmq4.WithDialerRetry(retry), zmq4.WithDialerMaxRetries(int(timeout/retry)+1), zmq4.WithTimeout(timeout))
	done := make(chan error, 1)
	go func() { done <- sock.Dial(string(ep)) }()
	select {
	case err := <-done:
		if err != nil {
			cancel()
			sock.Close()
			return nil, fmt.Errorf("cannot connect to %s within %s: %w", ep, timeout, err)
		}
	case <-exited:
		cancel()
		<-done
		sock.Close()
		return nil, fmt.Errorf("cannot connect to %s: %w before it listened", ep, errExited)
	}
	return &zmqTransport{sock: sock, cancel: cancel, timeout: timeout, exited: exited}, nil
}

func (t *zmqTransport) Exchange(req []byte) ([]byte, error) {
	if err := t.sock.Send(zmq4.NewMsg(req)); err != nil {
		select {
		case <-t.exited:
			return nil, errExited
		default:
		}
		return nil, fmt.Errorf("send: %w", err)
	}
	got := make(chan recvResult, 1)
	go func() {
		m, err := t.sock.Recv()
		got <- recvResult{m, err}
	}()
	timer := time.NewTimer(t.timeout)
	defer timer.Stop()
	select {
	case r := <-got:
		if r.err != nil {
			if t.exited != nil { // the connection broke: did the process die?
				select {
				case <-t.exited:
					return nil, errExited
				case <-time.After(time.Second):
				}
			}
			return nil, fmt.Errorf("receive: %w (the scheduler closed the connection)", r.err)
		}
		if len(r.msg.Frames) != 1 {
			return nil, fmt.Errorf("the reply has %d frames, want 1", len(r.msg.Frames))
		}
		return r.msg.Frames[0], nil
	case <-timer.C:
		return nil, fmt.Errorf("%w within %s (--scheduler-timeout)", errNoReply, t.timeout)
	case <-t.exited:
		return nil, errExited
	}
}

func (t *zmqTransport) Close() error {
	t.cancel()
	return t.sock.Close()
}
