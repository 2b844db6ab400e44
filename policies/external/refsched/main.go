package refsched

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// Main runs the test scheduler as a process, as schedsim's
// scheduler_command starts one: -algo fcfs|easy, -endpoint
// tcp://127.0.0.1:PORT, -count for a counted EASY reservation. For the
// fault tests, -die-after N kills the process (SIGKILL) on its N+1-th
// request and -hang-after N never answers it; -pidfile writes its pid.
// It returns the exit status.
func Main(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("refsched", flag.ContinueOnError)
	fs.SetOutput(stderr)
	algo := fs.String("algo", "easy", "fcfs or easy")
	endpoint := fs.String("endpoint", "tcp://127.0.0.1:28000", "ZeroMQ endpoint to listen on")
	count := fs.Bool("count", false, "EASY: count the head's resources instead of reserving specific ones")
	dieAfter := fs.Int("die-after", -1, "kill this process on request N+1 (fault tests)")
	hangAfter := fs.Int("hang-after", -1, "never answer request N+1 (fault tests)")
	pidfile := fs.String("pidfile", "", "write the pid to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	srv, err := Listen(*endpoint, Config{Algorithm: *algo, CountReservation: *count})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer srv.Close()
	srv.Mangle = func(n int, reply []byte) []byte {
		switch n {
		case *dieAfter:
			fmt.Fprintf(stderr, "refsched: dying on request %d\n", n+1)
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case *hangAfter:
			fmt.Fprintf(stderr, "refsched: hanging on request %d\n", n+1)
			return nil
		}
		return reply
	}
	if err := srv.Serve(); err != nil {
		fmt.Fprintln(stderr, "refsched:", err)
		return 1
	}
	fmt.Fprintln(stderr, "refsched: simulation ended")
	return 0
}
