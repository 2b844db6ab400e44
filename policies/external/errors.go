package external

import (
	"fmt"
	"strings"
)

// ProtocolError ends a run whose external scheduler misbehaved: which
// event, what is wrong, and the message in question, quoted.
type ProtocolError struct {
	// Event names the offending event: "event 2 (EXECUTE_JOB) of the
	// reply at t=15 s", or the request whose reply failed.
	Event string
	Err   error
	// Message is the message quoted: the scheduler's reply, or the
	// request it did not answer.
	Message string
	// Tail is the last output of a scheduler process schedsim started.
	Tail string
}

func (e *ProtocolError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "external scheduler: %s: %v; message: %s", e.Event, e.Err, quote(e.Message))
	if e.Tail != "" {
		fmt.Fprintf(&b, "\nthe scheduler's last output:\n%s", e.Tail)
	}
	return b.String()
}

func (e *ProtocolError) Unwrap() error { return e.Err }

// quote quotes a message, cut to its first 600 bytes.
func quote(m string) string {
	const limit = 600
	if len(m) > limit {
		return fmt.Sprintf("%q… (%d bytes)", m[:limit], len(m))
	}
	return fmt.Sprintf("%q", m)
}
