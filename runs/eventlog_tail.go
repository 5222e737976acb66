package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"corral/runs/filetail"
)

// EventLogName is the state dir's event log (eventLog writes it).
const EventLogName = "events.jsonl"

// Recent bounds what RecentEvents reads of the event log: the last RecentLines events
// found in its last RecentBytes bytes. A line is ~250 bytes; 64 KiB holds ~250 of them.
const (
	RecentLines = 200
	RecentBytes = 64 << 10
)

// RecentEvents reads the events at the end of the state dir's events.jsonl — at most
// RecentLines of them, from at most its last RecentBytes (never the whole file) —
// that were written before before: what a client that attaches now missed (the
// events of runs that went on while no UI was attached). Oldest first. The output
// heartbeats are left out (they say only that bytes came). A lifecycle event comes
// back as the Event it was, its Info as the line recorded it (id, name, state, pid,
// sequence number, reason, exit code, agent state); any other line (a reconcile
// decision, an escalation step, a lease steal, an error) as an Event of its msg with
// its other fields, "key=value" each, in Detail. A missing log is no events; a line
// that does not parse (one cut by a crash) is skipped.
func RecentEvents(dir string, before time.Time) ([]Event, error) {
	// A log rotated lately holds little: the rest is the end of the one before.
	buf, err := filetail.Read(os.Open, filepath.Join(dir, EventLogName), RecentBytes, true)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("events: %w", err)
	}
	var out []Event
	for line := range bytes.Lines(buf) {
		ev, ok := parseLogged(line)
		if ok && ev.Time.Before(before) {
			out = append(out, ev)
		}
	}
	if len(out) > RecentLines {
		out = out[len(out)-RecentLines:]
	}
	return out, nil
}

// logged is the part of an event line that eventLog and logEvent write for a run.
type logged struct {
	Time     time.Time `json:"time"`
	Msg      string    `json:"msg"`
	RunID    string    `json:"run_id"`
	Name     string    `json:"name"`
	State    string    `json:"state"`
	Detail   string    `json:"detail"`
	PID      int       `json:"pid"`
	Seq      uint64    `json:"seq"`
	Reason   string    `json:"reason"`
	ExitCode *int      `json:"exit_code"`
	Killed   int       `json:"killed"`
	Agent    string    `json:"agent"`
	AgentSt  string    `json:"agent_state"`
}

// lifecycle is the event types logEvent writes: they read back as the Event they were.
var lifecycle = []EventType{EventSpawn, EventState, EventCancel, EventPause, EventCleanup, EventExit,
	EventEscape, EventAgent, EventNotify, EventShared, EventSession, EventRemoved, EventWorktree}

// parseLogged turns one line of events.jsonl into an Event (false: not one, or an
// output heartbeat).
func parseLogged(line []byte) (Event, bool) {
	var l logged
	if json.Unmarshal(line, &l) != nil || l.Msg == "" || l.Time.IsZero() || l.Msg == "output" {
		return Event{}, false
	}
	ev := Event{Type: EventType(l.Msg), Time: l.Time, Run: Info{ID: l.RunID, Name: l.Name}}
	if !slices.Contains(lifecycle, ev.Type) {
		ev.Detail = otherFields(line)
		return ev, true
	}
	ev.Detail, ev.Run.PID, ev.Run.Seq, ev.Run.ExitCode, ev.Run.Agent = l.Detail, l.PID, l.Seq, l.ExitCode, l.Agent
	ev.Run.Cleanup.Killed = l.Killed
	// A value this binary does not know (a newer one wrote it) stays the zero value.
	_ = ev.Run.State.UnmarshalText([]byte(l.State))
	if l.Reason != "" {
		_ = ev.Run.Reason.UnmarshalText([]byte(l.Reason))
	}
	if l.AgentSt != "" {
		_ = ev.Run.AgentState.UnmarshalText([]byte(l.AgentSt))
	}
	return ev, true
}

// otherFields is a line's fields but those every line has (and the run's, which the
// Event carries), "key=value" each, in the order of their keys.
func otherFields(line []byte) string {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber() // a pid stays 25334, not 2.5334e+04
	if d.Decode(&m) != nil {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch k {
		case "time", "level", "msg", "instance_id", "run_id", "name":
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return strings.Join(parts, " ")
}
