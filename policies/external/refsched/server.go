package refsched

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Server is a scheduler listening on a ZeroMQ REP socket, as Batsim
// schedulers do: schedsim connects to it.
type Server struct {
	sock   zmq4.Socket
	ctx    context.Context
	cancel context.CancelFunc
	sched  *Scheduler
	// Mangle, when set, may replace the n-th reply (0-based) before it is
	// sent: the fault tests' misbehaving schedulers.
	Mangle func(n int, reply []byte) []byte
	n      int
}

// Listen binds endpoint (tcp://127.0.0.1:0 picks a free port; Addr says
// which).
func Listen(endpoint string, cfg Config) (*Server, error) {
	sched, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	sock := zmq4.NewRep(ctx)
	if err := sock.Listen(endpoint); err != nil {
		cancel()
		sock.Close()
		return nil, fmt.Errorf("listen on %s: %w", endpoint, err)
	}
	return &Server{sock: sock, ctx: ctx, cancel: cancel, sched: sched}, nil
}

// Endpoint is the tcp:// endpoint the server listens on.
func (s *Server) Endpoint() string {
	return "tcp://" + s.sock.Addr().(*net.TCPAddr).String()
}

// Serve answers requests until SIMULATION_ENDS has been answered, the
// socket is closed, or a request cannot be handled.
func (s *Server) Serve() error {
	for !s.sched.Ended() {
		msg, err := s.sock.Recv()
		if err != nil {
			return err
		}
		if len(msg.Frames) != 1 {
			return fmt.Errorf("a request of %d frames", len(msg.Frames))
		}
		reply, err := s.sched.Handle(msg.Frames[0])
		if err != nil {
			return err
		}
		if s.Mangle != nil {
			reply = s.Mangle(s.n, reply)
		}
		s.n++
		if reply == nil { // a mangler that never answers
			<-s.ctx.Done()
			return nil
		}
		if err := s.sock.Send(zmq4.NewMsg(reply)); err != nil {
			return err
		}
	}
	// The socket sends from a goroutine of its own: closing it at once
	// could drop the last reply. Batsim closes its side once it has the
	// reply, which a REP socket does not report; wait a moment.
	closed := make(chan struct{})
	go func() {
		s.sock.Recv()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(200 * time.Millisecond):
	}
	return nil
}

// Close closes the socket.
func (s *Server) Close() error {
	s.cancel()
	return s.sock.Close()
}
