// Package hoptrace timestamps the hops of a typed key and its echo (the UI's read of
// the key, its writer, the server's request, the PTY write and read, the screen, the
// stream's frame, the client, the UI's frame), for finding where an echo's time goes.
//
// It is off unless CORRAL_HOP_TRACE names a directory when the process starts: each
// process (a UI, the server it starts, which inherits the environment) then appends
// one line per hop to DIR/PID.trace,
//
//	UNIXNANO HOP DETAIL
//
// written at once (one write each: a process killed keeps every line). Off, a Mark is
// one load of a bool and a branch. BenchmarkTypedEcho reads the files when
// CORRAL_BENCH_TRACE is set (main_latency_test.go).
package hoptrace

import (
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Env is the variable that turns tracing on: a directory to write to.
const Env = "CORRAL_HOP_TRACE"

var (
	on  bool
	out *os.File
)

func init() {
	dir := os.Getenv(Env)
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(os.Getpid())+".trace"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	out, on = f, true
}

// On reports whether hops are traced: a caller that must build its detail checks it
// first.
func On() bool { return on }

// Mark notes that hop happened now, with a short detail.
func Mark(hop, detail string) {
	if !on {
		return
	}
	write(hop, detail)
}

// MarkBytes notes hop with the first 48 bytes of p (quoted) and its length.
func MarkBytes(hop string, p []byte) {
	if !on {
		return
	}
	q := p
	if len(q) > 48 {
		q = q[:48]
	}
	write(hop, strconv.Itoa(len(p))+":"+strconv.Quote(string(q)))
}

func write(hop, detail string) {
	b := make([]byte, 0, 64+len(detail))
	b = strconv.AppendInt(b, time.Now().UnixNano(), 10)
	b = append(b, ' ')
	b = append(b, hop...)
	b = append(b, ' ')
	b = append(b, detail...)
	b = append(b, '\n')
	_, _ = out.Write(b)
}
