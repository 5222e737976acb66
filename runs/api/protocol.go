package api

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"corral/runs"
)

// MaxMessage bounds one request or response line. A request over it is refused with
// CodeTooLarge and its connection closed (the rest of the line cannot be skipped
// safely); a response over it cannot happen: output is capped well below.
const MaxMessage = 8 << 20

// Request is one call. Args is the verb's argument object.
type Request struct {
	V    int             `json:"v"`
	Verb string          `json:"verb"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Response answers one Request: Error or Result.
type Response struct {
	V      int             `json:"v"`
	Error  *Error          `json:"error,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	// Body is how many bytes follow the line, raw, as the rest of the reply: what a
	// client prints as it comes (corral ls's output at a thousand runs, 1.6 MB) would
	// cost it more to take out of JSON than to get. A server sends one only when the
	// request asked for it (LsArgs.Raw), so a client that never asks never sees one.
	Body int `json:"body,omitempty"`
}

// MaxBody bounds a reply's Body.
const MaxBody = 256 << 20

// Bodied is a reply that carries bytes after its line (Response.Body): the server
// writes ReplyBody after the reply's JSON.
type Bodied interface{ ReplyBody() []byte }

// BodySink is a reply that takes the bytes that came after its line (Response.Body).
type BodySink interface{ SetReplyBody([]byte) }

// Error is a failed call: a stable code for programs and a message for people.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Set with CodeVersion only: the server that refused (its protocol, binary, pid),
	// so a client words the mismatch itself (version.go).
	Protocol int    `json:"protocol,omitempty"`
	Binary   string `json:"binary,omitempty"`
	PID      int    `json:"pid,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Error codes.
const (
	CodeVersion    = "version"      // the peers speak different protocol versions
	CodeBadRequest = "bad-request"  // malformed JSON or arguments
	CodeUnknown    = "unknown-verb" // no such verb
	CodeNoRun      = "no-such-run"  // no run with that id or name
	CodeAmbiguous  = "ambiguous"    // the id prefix or name matches several runs
	CodeNotRunning = "not-running"  // the verb needs a live run
	CodeTooLarge   = "too-large"    // the request is over MaxMessage
	CodeTimeout    = "timeout"      // wait's timeout passed first
	CodeFailed     = "failed"       // the supervisor refused or failed
	CodeForbidden  = "forbidden"    // the client is another user
	CodeBusy       = "busy"         // the server is at a limit, or the client broke one (runs/server Limits)
)

var (
	// ErrVersion: the server speaks another protocol version.
	ErrVersion = errors.New("protocol version mismatch")
	// ErrForeign: the socket or its server belongs to another user.
	ErrForeign = errors.New("the corral server belongs to another user")
)

// AsError is err as the protocol carries it: an *Error keeps its code, a supervisor's
// error gets the code of its kind.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	code := CodeFailed
	switch {
	case errors.Is(err, runs.ErrUnknownRun):
		code = CodeNoRun
	case errors.Is(err, runs.ErrNotRunning), errors.Is(err, runs.ErrAdopted):
		code = CodeNotRunning
	}
	return &Error{Code: code, Message: err.Error()}
}

// Is lets a caller test a server's error as it tests the supervisor's own:
// errors.Is(err, runs.ErrNotRunning) holds in process and over the socket alike.
func (e *Error) Is(target error) bool {
	switch e.Code {
	case CodeNoRun:
		return target == runs.ErrUnknownRun
	case CodeNotRunning:
		return target == runs.ErrNotRunning
	}
	return false
}

// Errorf is a protocol error with its code.
func Errorf(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

func errorf(code, format string, a ...any) *Error { return Errorf(code, format, a...) }

// SocketName is the server's socket in the state dir.
const SocketName = "server.sock"

// ErrTooLarge: a line is over the limit ReadLine was given.
var ErrTooLarge = errors.New("message too large")

// ReadLine reads one newline-terminated line of at most limit bytes. A last line
// without its newline is a line.
func ReadLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, ErrTooLarge
		}
		line = append(line, frag...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
