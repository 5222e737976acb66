package launch

import "errors"

var (
	// ErrUsage marks an error that is the operator's to fix (no terminal, a bad key
	// override): main exits with its usage code.
	ErrUsage = errors.New("usage")
	// ErrNoTerminal: the UI needs stdin and stdout to be a terminal.
	ErrNoTerminal = errors.New("the UI needs a terminal")
	// ErrServerEnded: the server stopped (shutdown, SIGTERM) under an attached UI; one
	// killed or crashed is reconnected to (runs/client/link.go).
	ErrServerEnded = errors.New("the server ended")
)

// usageError is err, marked as ErrUsage; its message is err's.
type usageError struct{ err error }

func (e usageError) Error() string        { return e.err.Error() }
func (e usageError) Unwrap() error        { return e.err }
func (e usageError) Is(target error) bool { return target == ErrUsage }

func usage(err error) error { return usageError{err} }
