package runs

import (
	"log/slog"
	"strconv"
	"sync"
	"time"

	"corral/reaper"
	"corral/runs/internal/statefile"
)

// eventLog appends structured events (slog JSON, one line each) to events.jsonl in the
// state dir, a statefile.Log: several Corral processes append to the same file (slog
// writes each record in one Write, so lines stay whole), and it is rotated to
// events.jsonl.1 when full, so a server that runs for weeks with busy runs keeps two
// files' worth of history, not every output heartbeat since it was installed. A nil
// *eventLog drops everything.
type eventLog struct {
	f        *statefile.Log
	log      *slog.Logger
	instance string
}

// eventLogCap is the size events.jsonl grows to before it is rotated; a variable:
// tests rotate a small one.
var eventLogCap int64 = 32 << 20

// openEventLog opens events.jsonl in the state dir root for appending.
func openEventLog(root *statefile.Dir, instance string) (*eventLog, error) {
	f, err := statefile.OpenLog(root, EventLogName, eventLogCap)
	if err != nil {
		return nil, err
	}
	h := slog.NewJSONHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millisAttr})
	return &eventLog{f: f, log: slog.New(h).With("instance_id", instance), instance: instance}, nil
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
	buf := linePool.Get().(*[]byte)
	defer linePool.Put(buf)
	if line, ok := e.appendLine((*buf)[:0], time.Now(), msg, attrs); ok {
		e.f.Write(line) // copied or written: not kept
		*buf = line[:0]
		return
	}
	e.log.Info(msg, attrs...)
}

// linePool holds the buffers emit makes its lines in.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// line is the line slog's JSON handler writes for the event at t, made without slog,
// for an event whose keys and strings need no escaping and whose values are strings,
// integers, booleans or durations (every event of a run's life): ok false, and slog
// writes any other. Through slog, a shutdown's seven thousand events cost 40–50 ms of
// CPU (a record, its attributes, the caller's pc, each value's kind looked at twice).
func (e *eventLog) line(t time.Time, msg string, attrs []any) ([]byte, bool) {
	return e.appendLine(nil, t, msg, attrs)
}

// appendLine is line appended to b.
func (e *eventLog) appendLine(b []byte, t time.Time, msg string, attrs []any) ([]byte, bool) {
	if len(attrs)%2 != 0 || !plainJSON(msg) || !plainJSON(e.instance) {
		return nil, false
	}
	b = append(b, `{"time":"`...)
	b = t.Round(0).AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"`...)
	b = append(b, msg...)
	b = append(b, `","instance_id":"`...)
	b = append(b, e.instance...)
	b = append(b, '"')
	for i := 0; i < len(attrs); i += 2 {
		key, ok := attrs[i].(string)
		if !ok || !plainJSON(key) {
			return nil, false
		}
		b = append(b, ',', '"')
		b = append(b, key...)
		switch v := attrs[i+1].(type) {
		case string:
			if !plainJSON(v) {
				return nil, false
			}
			b = append(b, `":"`...)
			b = append(b, v...)
			b = append(b, '"')
		case int:
			b = append(b, '"', ':')
			b = strconv.AppendInt(b, int64(v), 10)
		case int64:
			b = append(b, '"', ':')
			b = strconv.AppendInt(b, v, 10)
		case uint64:
			b = append(b, '"', ':')
			b = strconv.AppendUint(b, v, 10)
		case bool:
			b = append(b, '"', ':')
			b = strconv.AppendBool(b, v)
		case time.Duration: // as millisAttr writes it
			b = append(b, `_ms":`...)
			b = strconv.AppendInt(b, Millis(v), 10)
		default:
			return nil, false
		}
	}
	return append(b, '}', '\n'), true
}

// plainJSON reports whether s is written as it is inside a JSON string: printable
// ASCII but the quote and the backslash.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// hold gathers the events emitted from now on into a few writes (statefile.Log.Hold)
// until release: a shutdown's seven events a run were seven thousand writes.
func (e *eventLog) hold() {
	if e != nil {
		e.f.Hold()
	}
}

func (e *eventLog) release() {
	if e != nil {
		e.f.Release()
	}
}

func (e *eventLog) close() {
	if e != nil {
		e.f.Close()
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
