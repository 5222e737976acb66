package runs

import (
	"log/slog"

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
	f   *statefile.Log
	log *slog.Logger
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
	return &eventLog{f: f, log: slog.New(h).With("instance_id", instance)}, nil
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
