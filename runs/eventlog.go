package runs

import (
	"fmt"
	"log/slog"
	"os"
	"sync"

	"corral/reaper"
)

// eventLog appends structured events (slog JSON, one line each) to events.jsonl in the
// state dir. Several Corral processes append to the same file: O_APPEND and slog's one
// Write per record keep lines whole. A nil *eventLog drops everything.
//
// The file is bounded: once it holds eventLogCap bytes it becomes events.jsonl.1 (the
// one before that goes) and a new one is begun, so a server that runs for weeks with
// busy runs keeps two files' worth of history, not every output heartbeat since it
// was installed. Whichever process sees the file full first moves it, under a lock
// file, and only if the name is still the file it writes to; the others see the name
// is another file now and open that.
type eventLog struct {
	root *stateDir
	mu   sync.Mutex // f, and a write against a rotation
	f    *os.File
	log  *slog.Logger
}

// eventLogCap is the size events.jsonl grows to before it is rotated; a variable:
// tests rotate a small one.
var eventLogCap int64 = 32 << 20

// openEventLog opens events.jsonl in the state dir root for appending.
func openEventLog(root *stateDir, instance string) (*eventLog, error) {
	f, err := openEventFile(root)
	if err != nil {
		return nil, err
	}
	e := &eventLog{root: root, f: f}
	h := slog.NewJSONHandler(eventWriter{e}, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millisAttr})
	e.log = slog.New(h).With("instance_id", instance)
	return e, nil
}

func openEventFile(root *stateDir) (*os.File, error) {
	f, err := root.open(EventLogName, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	return f, nil
}

// eventWriter is what slog writes each line to: the log's file of the moment.
type eventWriter struct{ e *eventLog }

func (w eventWriter) Write(p []byte) (int, error) {
	e := w.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if st, err := stampOf(e.f); err == nil && st.size >= eventLogCap {
		e.rotateLocked(st)
	}
	return e.f.Write(p)
}

// rotateLocked moves the full file (mine, its stamp) aside as events.jsonl.1 unless
// another process did already, and opens events.jsonl afresh. Where there is no lock
// (Windows), nothing is moved: an open file cannot be renamed there anyway.
func (e *eventLog) rotateLocked(mine fileStamp) {
	l, err := lockFile(e.root, EventLogName+".lock", true)
	if err != nil {
		return
	}
	defer l.release()
	if named, err := e.root.stamp(EventLogName); err == nil && named.ino == mine.ino {
		if err := e.root.rename(EventLogName, e.root, EventLogName+".1"); err != nil {
			return
		}
	}
	f, err := openEventFile(e.root)
	if err != nil {
		return // the full file is written to on: nothing is lost
	}
	e.f.Close()
	e.f = f
}

// millisAttr writes a duration the way every JSON of Corral's does (spec_json.go):
// integer milliseconds under a key ending in _ms, not slog's nanoseconds.
func millisAttr(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.Int64(a.Key+"_ms", Millis(a.Value.Duration()))
	}
	return a
}

// emit writes one event: msg is the event type, attrs alternate key and value.
func (e *eventLog) emit(msg string, attrs ...any) {
	if e == nil {
		return
	}
	e.log.Info(msg, attrs...)
}

func (e *eventLog) close() {
	if e != nil {
		e.mu.Lock()
		e.f.Close()
		e.mu.Unlock()
	}
}

// logEvent writes a lifecycle event to events.jsonl (no-op without a registry).
func (s *Supervisor) logEvent(e Event) {
	if s.reg == nil || e.Type == EventOutput || e.Type == EventWatchdog || e.Type == EventDiff {
		return
	}
	attrs := []any{"run_id", e.Run.ID, "name", e.Run.Name, "state", e.Run.State.String(), "seq", e.Run.Seq}
	if e.Detail != "" {
		attrs = append(attrs, "detail", e.Detail)
	}
	if e.Run.PID != 0 {
		attrs = append(attrs, "pid", e.Run.PID)
	}
	if e.Type == EventAgent {
		attrs = append(attrs, "agent", e.Run.Agent, "agent_state", e.Run.AgentState.String(), "agent_rule", e.Run.AgentRule)
	}
	if e.Type == EventExit {
		attrs = append(attrs, "reason", e.Run.Reason.String(), "killed", e.Run.Cleanup.Killed)
		if e.Run.ExitCode != nil {
			attrs = append(attrs, "exit_code", *e.Run.ExitCode)
		}
	}
	s.reg.emit(string(e.Type), attrs...)
}

// stepLogger records each escalation step as it is performed.
func (s *Supervisor) stepLogger(id string) func(reaper.Step, int) {
	return func(st reaper.Step, n int) {
		s.reg.emit("escalation", "run_id", id, "step", string(st), "processes", n)
	}
}
