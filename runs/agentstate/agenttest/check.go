package agenttest

import (
	"fmt"
	"strings"
)

// Recordings are the corpus's recordings, by name; RequiredPhases says what each
// must hold. Those named NAME-VERSION are of a newer version of the CLI than the one
// the tests pin (Agent.Version), recorded by the drift check (make agents-latest): the
// rules must read both.
var Recordings = []string{"claude", "codex", "gemini", "opencode", "codex-unfocused", "claude-interrupt",
	"claude-2.1.332", "claude-interrupt-2.1.332", "codex-0.171.0"}

// RequiredPhases lists, in order, the phases recording name must have. A full turn
// goes from start-up through a permission prompt to the final answer; an interrupted
// one (Escape while the text streams) ends back at the prompt.
func RequiredPhases(name string) []string {
	if strings.Contains(name, "-interrupt") {
		return []string{"startup", "idle-ready", "working-1", "idle-interrupted"}
	}
	return []string{"startup", "idle-ready", "working-1", "waiting-permission", "working-2", "idle-done"}
}

var states = map[string]bool{StateWorking: true, StateWaiting: true, StateIdle: true, StateUnknown: true}

// Check reports the first thing wrong with a recording's labels: a phase out of
// order, overlapping the next, reversed or outside the stream, a state that is not one
// of the four, a required phase missing, inputs or server marks out of order.
func Check(r Recording, required []string) error {
	prev := 0
	for i, p := range r.Phases {
		switch {
		case !states[p.State]:
			return fmt.Errorf("phase %s: state %q", p.Name, p.State)
		case p.From < prev:
			return fmt.Errorf("phase %s starts at %d, before the end of the one before (%d)", p.Name, p.From, prev)
		case p.To < p.From:
			return fmt.Errorf("phase %s: reversed [%d, %d)", p.Name, p.From, p.To)
		case p.To > r.Bytes:
			return fmt.Errorf("phase %s ends at %d, past the stream's %d bytes", p.Name, p.To, r.Bytes)
		case p.ToT < p.FromT:
			return fmt.Errorf("phase %s ends at %.3fs, before it starts (%.3fs)", p.Name, p.ToT, p.FromT)
		case i > 0 && p.Screen == "":
			return fmt.Errorf("phase %s: no screen", p.Name)
		}
		prev = p.To
	}
	if err := checkRequired(r, required); err != nil {
		return err
	}
	if err := checkMarks(r); err != nil {
		return err
	}
	return nil
}

// checkRequired: every required phase, in the required order.
func checkRequired(r Recording, required []string) error {
	i := 0
	for _, p := range r.Phases {
		if i < len(required) && p.Name == required[i] {
			i++
		}
	}
	if i < len(required) {
		return fmt.Errorf("phase %s missing (or out of order)", required[i])
	}
	return nil
}

// checkMarks: inputs and server events in stream order, inside the stream.
func checkMarks(r Recording) error {
	at := 0
	for _, in := range r.Inputs {
		if in.At < at || in.At > r.Bytes {
			return fmt.Errorf("input %s at %d: out of order or past the stream", in.Name, in.At)
		}
		at = in.At
	}
	at = 0
	for _, m := range r.Server {
		if m.At < at || m.At > r.Bytes {
			return fmt.Errorf("server event %s at %d: out of order or past the stream", m.Kind, m.At)
		}
		at = m.At
	}
	return nil
}
