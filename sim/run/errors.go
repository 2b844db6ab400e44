package run

import "errors"

// Exit statuses of the commands.
const (
	ExitOK       = 0
	ExitFailed   = 1 // a run failed
	ExitBadInput = 2 // bad usage or bad input
)

// ExitError carries an exit status with its message.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// BadInput marks err as bad usage or input (exit 2); an error already
// marked keeps its status.
func BadInput(err error) error { return mark(ExitBadInput, err) }

// Failed marks err as a failed run (exit 1); an error already marked
// keeps its status.
func Failed(err error) error { return mark(ExitFailed, err) }

func mark(code int, err error) error {
	var ee *ExitError
	if err == nil || errors.As(err, &ee) {
		return err
	}
	return &ExitError{code, err}
}

// ExitCode is the exit status err calls for: 0 for nil, its mark, else
// bad input (cobra's usage errors are not marked).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitBadInput
}
