package ptyhost

import "errors"

// Host errors. Errors from the operating system are wrapped with %w, so
// errors.Is(err, exec.ErrNotFound), fs.ErrNotExist or fs.ErrPermission keep
// working on a failed Start.
var (
	// ErrBadCmd: the *exec.Cmd given to Start has Stdin, Stdout, Stderr or
	// SysProcAttr set, or was already started. The host owns all four so that a
	// child can never be handed Corral's own terminal.
	ErrBadCmd = errors.New("command must leave Stdin, Stdout, Stderr and SysProcAttr nil")
	// ErrInputFull: queued input not yet written to the child would exceed
	// Options.WriteQueue. The child is not reading; nothing was queued.
	ErrInputFull = errors.New("input queue full")
	// ErrClosed: input was closed (CloseStdin or Close) or writing to the child
	// failed; a write failure is wrapped together with this error.
	ErrClosed = errors.New("input closed")
	// ErrNotPipe: the operation needs a pipe run (a PTY has no separate stdin).
	ErrNotPipe = errors.New("not a pipe run")
	// ErrNotPTY: the operation needs a PTY run.
	ErrNotPTY = errors.New("not a PTY run")
	// ErrNotSupported: this platform has no host yet.
	ErrNotSupported = errors.New("PTY and pipe hosts not supported on windows yet")
)
