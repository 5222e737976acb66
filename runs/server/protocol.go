package server

import (
	"encoding/json"
	"errors"
	"fmt"

	"corral/runs"
)

// Version is the protocol version. A change that an older peer would misread bumps it.
const Version = 1

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
}

// Error is a failed call: a stable code for programs and a message for people.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
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
)

// ErrVersion: the server speaks another protocol version.
var ErrVersion = errors.New("protocol version mismatch")

// codeOf maps a supervisor error to its code.
func codeOf(err error) string {
	switch {
	case errors.Is(err, runs.ErrUnknownRun):
		return CodeNoRun
	case errors.Is(err, runs.ErrNotRunning), errors.Is(err, runs.ErrAdopted):
		return CodeNotRunning
	}
	return CodeFailed
}

func errorf(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

// The verbs' arguments and results.
type (
	// Hello opens a conversation: the client's version; the reply is the server's.
	Hello struct {
		Version int `json:"version"`
	}
	HelloReply struct {
		Version  int    `json:"version"`
		PID      int    `json:"pid"`
		Instance string `json:"instance_id"`
		StateDir string `json:"state_dir"`
	}
	// RunRef names a run: its id, a unique prefix of it, or its unique name.
	RunRef struct {
		ID string `json:"id"`
	}
	// SpawnArgs: BaseEnv travels beside the spec (runs.Spec never puts it in JSON).
	SpawnArgs struct {
		Spec    runs.Spec `json:"spec"`
		BaseEnv []string  `json:"base_env,omitempty"`
	}
	// SpawnReply carries the new run's id; SpawnError is set when it started and ended
	// at once with spawn-error (the run still exists, with its report).
	SpawnReply struct {
		ID         string `json:"id"`
		SpawnError string `json:"spawn_error,omitempty"`
	}
	PollArgs struct {
		ID     string `json:"id"`
		WaitMS int64  `json:"wait_ms,omitempty"` // block up to this long for output or the end
	}
	PollReply struct {
		Output  []byte    `json:"output"`
		Dropped int64     `json:"dropped"` // unread bytes lost to the cap since the last poll
		Ended   bool      `json:"ended"`
		Run     runs.Info `json:"run"`
	}
	LogArgs struct {
		ID     string `json:"id"`
		Offset int    `json:"offset"` // first line; < 0 counts from the end
		Limit  int    `json:"limit"`  // lines; 0 takes DefaultLogLines
		Tail   bool   `json:"tail"`   // the last Limit lines
	}
	LogReply struct {
		Lines      []string `json:"lines"`
		Offset     int      `json:"offset"`      // of the first line returned
		TotalLines int      `json:"total_lines"` // in the kept log
		Truncated  bool     `json:"truncated"`   // older output was dropped by the cap
	}
	WriteArgs struct {
		ID   string `json:"id"`
		Data []byte `json:"data"`
	}
	KeysArgs struct {
		ID   string   `json:"id"`
		Keys []string `json:"keys"` // tmux-style names or literal text, one word each
	}
	TextArgs struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	WaitArgs struct {
		ID        string `json:"id"`
		TimeoutMS int64  `json:"timeout_ms,omitempty"` // 0 waits for as long as it takes
	}
	// WaitReply is the ended run: its report (corral run --json's) and its Info.
	WaitReply struct {
		Report runs.Report `json:"report"`
		Run    runs.Info   `json:"run"`
	}
	ListReply struct {
		Runs []runs.Info `json:"runs"`
	}
)

// DefaultLogLines is how many lines log returns when no limit is given.
const DefaultLogLines = 200
