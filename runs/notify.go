package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"corral/config"
	"corral/runs/agentstate"
)

// Telling a user who is elsewhere (DESIGN §16): when an agent enters waiting, or ends
// a working turn, and nobody looks at its run, the supervisor publishes a notify
// event — an attached UI turns it into a desktop notification through its own
// terminal (OSC 9 or 777) — and runs the [notify] command, if any, with the
// notification as JSON on its stdin. At most one per run per MinInterval.

// NotifyConfig is how a user who is not looking is told (config's [notify]).
type NotifyConfig struct {
	Command     string        // run by $SHELL -c with a Notification as JSON on stdin; "" for none
	MinInterval time.Duration // the least time between two notifications of one run
}

// WithNotify sets how a user who is not looking is told.
func WithNotify(n NotifyConfig) Option { return func(s *Supervisor) { s.notifyCfg = n } }

// WithAgents follows the agent state of every PTY run an agent's rules recognise
// (with WithScreens: the rules read the screen).
func WithAgents(set *agentstate.Set) Option { return func(s *Supervisor) { s.agents = set } }

// Notification is what the [notify] command reads on its stdin.
type Notification struct {
	RunID      string           `json:"run_id"`
	Name       string           `json:"name"`
	Agent      string           `json:"agent"`
	AgentState agentstate.State `json:"agent_state"`
	Event      string           `json:"event"` // "waiting" or "turn-ended"
	Text       string           `json:"text"`  // one line, safe to show anywhere
	Context    string           `json:"context,omitempty"`
	Time       time.Time        `json:"time"`
}

// notifyCommandLimit bounds one run of the [notify] command.
const notifyCommandLimit = 30 * time.Second

// notify tells a user who is not looking that r's agent needs them.
func (s *Supervisor) notify(r *run, info Info, turnEnded bool, context string) {
	if r.looked() {
		return
	}
	a, now := r.agent.Load(), s.clock.Now()
	if a == nil {
		return // its foreground agent left in the meantime
	}
	a.evalMu.Lock()
	if !a.notified.IsZero() && now.Sub(a.notified) < s.notifyCfg.MinInterval {
		a.evalMu.Unlock()
		return
	}
	a.notified = now
	a.evalMu.Unlock()
	n := Notification{RunID: info.ID, Name: info.Name, Agent: info.Agent, AgentState: info.AgentState,
		Event: "waiting", Context: OneLine(context), Time: now}
	if turnEnded {
		n.Event = "turn-ended"
	}
	n.Text = notificationText(n)
	r.change(EventNotify, n.Text, nil)
	if s.notifyCfg.Command != "" {
		go s.runNotifyCommand(n)
	}
}

// notificationText is one line: "claude-1: claude waits — Do you want to proceed?".
func notificationText(n Notification) string {
	what := n.Agent + " waits for you"
	if n.Event == "turn-ended" {
		what = n.Agent + " finished its turn"
	}
	t := n.Name + ": " + what
	if n.Context != "" && n.Event == "waiting" {
		t += " — " + n.Context
	}
	return OneLine(t)
}

// notifyMaxRunes bounds a notification's text.
const notifyMaxRunes = 200

// OneLine makes text from a run safe for a terminal's notification and a log: one
// line without control or format characters (no escape sequence, no bidi override),
// at most notifyMaxRunes runes.
func OneLine(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			r = ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			continue
		}
		if n == notifyMaxRunes {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// runNotifyCommand runs the [notify] command for n, in a process group of its own
// that is ended (and only it) if it outlives notifyCommandLimit.
func (s *Supervisor) runNotifyCommand(n Notification) {
	ctx, cancel := context.WithTimeout(context.Background(), notifyCommandLimit)
	defer cancel()
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	cmd := exec.CommandContext(ctx, shell, "-c", s.notifyCfg.Command)
	body, _ := json.Marshal(n)
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	inOwnGroup(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s.spawnMu.Lock() // a helper of Corral's, not an orphan of a run's to reap
	err := cmd.Start()
	if err == nil {
		s.escapes.helper(cmd.Process.Pid, true)
	}
	s.spawnMu.Unlock()
	if err == nil {
		err = cmd.Wait()
		s.spawnMu.Lock()
		s.escapes.helper(cmd.Process.Pid, false)
		s.spawnMu.Unlock()
	}
	if err != nil {
		s.reg.emit("notify-error", "run_id", n.RunID, "err", err.Error(), "output", OneLine(out.String()))
	}
}

// FollowAgents is what a supervisor with screens needs to follow agents' states: the
// rules (built in, the user's in agentstate.UserDir() — a file with a mistake is
// skipped, and warn says so with its file and line — and extra, the demo's) and how
// a user who is not looking is told (the config's [notify]).
func FollowAgents(n config.Notify, warn func(string), extra ...*agentstate.Agent) []Option {
	set, errs := agentstate.Load(agentstate.UserDir())
	for _, e := range errs {
		warn(e.Error())
	}
	for _, a := range extra {
		set = set.With(a)
	}
	return []Option{WithAgents(set), WithNotify(NotifyConfig{Command: n.Command, MinInterval: n.MinInterval})}
}
