package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"corral/config"
	"corral/runs/agentstate"
	"corral/watchdog"
)

// Telling a user who is elsewhere: when an agent enters waiting, or ends a working
// turn, and nobody looks at its run, the supervisor publishes a notify event — an
// attached UI turns it into a desktop notification through its own terminal (OSC 9 or
// 777) — and runs the [notify] command, if any, with the notification as JSON on its
// stdin.
//
// Nothing is dropped in silence and nothing is said twice:
//
//   - Rate limit: at most one notification per run per MinInterval. What comes within
//     the window is held and said in one notification when the window ends ("claude
//     finished its turn, then waits for you — …"). By then a held question the agent
//     no longer asks (it works again, or its episode ended: answered) is left out; a
//     finished turn is always said.
//   - Episodes: an episode is one spell of the agent needing the user. It begins when
//     the agent enters waiting, or idle at the end of a working turn (a need), and
//     ends when the agent is next seen working or input is written to the run; its
//     number counts the episodes that ended. A need in the episode already told (or
//     seen) is a duplicate: the agent flickering out of waiting and back, or a new
//     server re-deriving the state from the kept screen, says nothing new. The number
//     and the last need told (state, episode) are kept in the run's record, so a
//     server after a crash or an upgrade knows what was said. (The screen's attention
//     counter is not part of it: a new server rebuilds the screen from the end of the
//     transcript, so its count is not the old one's.)
//   - Held needs are kept in the record too, with the end of their window, whenever
//     the window holds any: a server after a crash or an upgrade says them when that
//     window ends, or at once if it has passed, by the same rules (resumeNotes). A
//     server handing its runs over says nothing more after it let go of them.
//   - Input: a person (or a script of theirs) at the run is not told what answered
//     their own keys: a question the agent shows within inputWindow of input written
//     to the run, or a turn that ends within inputWindow of input written while it
//     worked (an interrupt), is not announced.
//   - Every need not sent when it came is a notify-suppressed event in events.jsonl
//     with its reason: focused (someone looks at the run), coalesced (held for the end
//     of the window), duplicate, input, answered (a held question no longer asked when
//     the window ended), ended (the run ended with it held).

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
	Event      string           `json:"event"`             // "waiting" or "turn-ended": the latest said
	Events     []string         `json:"events,omitempty"`  // all it says, in order, when it says several
	Text       string           `json:"text"`              // one line, safe to show anywhere
	Context    string           `json:"context,omitempty"` // the question, as the rules quote it
	Detail     string           `json:"detail,omitempty"`  // its one line of context
	Time       time.Time        `json:"time"`
}

// Events of a notification.
const (
	NotifyWaiting   = "waiting"
	NotifyTurnEnded = "turn-ended"
)

// inputWindow is how soon after input written to the run what the agent shows is its
// answer to that input, not news for someone elsewhere: an agent redraws within tens
// of milliseconds of a key, a few hundred under load, and its state is dated by the
// first byte of that redraw. A question reached by a second of work after the key is
// announced. A variable only so tests can change it.
var inputWindow = time.Second

// notifyCommandLimit bounds one run of the [notify] command.
const notifyCommandLimit = 30 * time.Second

// need is a moment the agent needs the user: it entered waiting, or ended a turn.
type need struct {
	event    string // NotifyWaiting or NotifyTurnEnded
	state    agentstate.State
	episode  uint64
	since    time.Time
	question string
	detail   string
}

// NotifyMark is the last need a run's user was told of or saw, as its record keeps it.
type NotifyMark struct {
	State   agentstate.State `json:"state"`
	Episode uint64           `json:"episode"`
	Event   string           `json:"event"`
	At      time.Time        `json:"told_at"`
	How     string           `json:"how"` // "sent", or why it was not: "focused", "input"
}

// HeldNotes is what a run's rate limit held, as its record keeps it: the needs, and
// when their window ends.
type HeldNotes struct {
	Until time.Time  `json:"until"`
	Needs []HeldNeed `json:"needs"`
}

// HeldNeed is one need held for the end of the window.
type HeldNeed struct {
	Event    string           `json:"event"`
	State    agentstate.State `json:"state"`
	Episode  uint64           `json:"episode"`
	Since    time.Time        `json:"since"`
	Question string           `json:"question,omitempty"`
	Detail   string           `json:"detail,omitempty"`
}

// notes is what a run's notifications remember; mu is taken after the run's mu, never
// before it.
type notes struct {
	mu       sync.Mutex
	episode  uint64      // episodes that ended
	needed   bool        // a need came in this episode: input ends it
	mark     *NotifyMark // the last need told or seen
	sent     time.Time   // the last notification sent, for the rate limit
	held     []need      // needs within the window, said when it ends
	until    time.Time   // when the window of what is held ends
	timer    watchdog.Timer
	parked   bool      // held taken from a record, its timer not armed until resumeNotes
	input    time.Time // when input was last written to the run
	working  time.Time // when the agent last entered working
	restored bool      // given what a record kept, once
	dropped  bool      // its run ended, or another agent took over: nothing more is held
}

// worked notes the agent entered working at: the episode of a need ends.
func (n *notes) worked(at time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.working = at
	if n.needed {
		n.episode, n.needed = n.episode+1, false
	}
}

// typed notes input written to the run at: a person is there, and the episode of a
// need ends (in memory only: a record written for each key would cost a write per
// key; a server after a restart takes a need that stays on screen as seen).
func (n *notes) typed(at time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.input = at
	if n.needed {
		n.episode, n.needed = n.episode+1, false
	}
}

// kept is what the record keeps.
func (n *notes) kept() (uint64, *NotifyMark, *HeldNotes) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var m *NotifyMark
	if n.mark != nil {
		cp := *n.mark
		m = &cp
	}
	var h *HeldNotes
	if len(n.held) > 0 {
		h = &HeldNotes{Until: n.until, Needs: make([]HeldNeed, len(n.held))}
		for i, x := range n.held {
			// One line and bounded, as a notification quotes it: the record's size
			// does not depend on the screen.
			h.Needs[i] = HeldNeed{Event: x.event, State: x.state, Episode: x.episode, Since: x.since,
				Question: OneLine(x.question), Detail: OneLine(x.detail)}
		}
	}
	return n.episode, m, h
}

// restore takes back what a record kept (a run re-adopted by a new server), once:
// false when it already had.
func (n *notes) restore(rec Record) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.restored {
		return false
	}
	n.restored = true
	n.episode = rec.AgentEpisode
	if m := rec.AgentNotified; m != nil {
		cp := *m
		n.mark, n.needed = &cp, m.Episode == rec.AgentEpisode
		if m.How == "sent" {
			n.sent = m.At
		}
	}
	if h := rec.AgentHeld; h != nil && len(h.Needs) > 0 {
		held := make([]need, 0, len(h.Needs)+len(n.held))
		for _, x := range h.Needs {
			held = append(held, need{event: x.Event, state: x.State, episode: x.Episode, since: x.Since,
				question: x.Question, detail: x.Detail})
			if x.Episode == rec.AgentEpisode {
				n.needed = true
			}
		}
		n.held, n.until = append(held, n.held...), h.Until
		n.parked = n.timer == nil
	}
	return true
}

// restoreAgent gives a re-adopted run's agent what its record kept: the episodes, the
// last need told and the needs held for the end of the window (said by resumeNotes
// once the state is judged again), and the state before (a turn that was working when
// the old server went, and is idle now, ended). Only the agent the record names is
// given it, and only once: an agent recognised in the foreground at re-adoption gets a
// new detection (agent_fg.go) and is restored then, so the question it asked before
// the restart is not announced again either.
func (r *run) restoreAgent(rec Record) {
	if a := r.agent.Load(); a != nil {
		a.restore(rec)
	}
}

// restore gives a what rec kept, if rec names a's agent and a was not given it yet.
func (a *agentRun) restore(rec Record) {
	if a.det.Agent().Name != rec.Agent || !a.notes.restore(rec) {
		return
	}
	a.evalMu.Lock()
	a.det.KeepMode(rec.AgentMode)
	if rec.AgentState != agentstate.Unknown {
		a.decided = rec.AgentState
	}
	if rec.AgentState == agentstate.Working {
		a.workFrom = rec.AgentStateSince
		a.notes.mu.Lock()
		a.notes.working = rec.AgentStateSince
		a.notes.mu.Unlock()
	}
	a.evalMu.Unlock()
}

// resumeNotes arms the window a re-adopted run's record held (restoreAgent), once the
// run's agent state has been judged again (rejudgeAgent): what it held is said when
// the old server's window ends, or at once if that has passed, by the usual rules (a
// question no longer asked is answered, one a user looks at is focused). Armed any
// earlier, a held question would be judged against a state not yet re-derived.
func (r *run) resumeNotes() {
	a := r.agent.Load()
	if a == nil {
		return
	}
	nt := &a.notes
	now := r.sup.clock.Now()
	nt.mu.Lock()
	if !nt.parked {
		nt.mu.Unlock()
		return
	}
	nt.parked = false
	if wait := nt.until.Sub(now); wait > 0 && len(nt.held) > 0 {
		nt.timer = r.sup.clock.AfterFunc(wait, func() { r.sup.flushNotes(r, a) })
		nt.mu.Unlock()
		return
	}
	nt.mu.Unlock()
	r.sup.flushNotes(r, a)
}

// unclaimedHeld says in events.jsonl that what a re-adopted run's record held will not
// be said, when no detection of the agent the record names took it (first is the one
// the run was re-adopted with): the agent left while no server watched. (One that
// took it and was replaced since said so itself: dropNotes.)
func (r *run) unclaimedHeld(rec Record, first *agentRun) {
	if rec.AgentHeld == nil {
		return
	}
	named := func(a *agentRun) bool { return a != nil && a.det.Agent().Name == rec.Agent }
	if named(first) || named(r.agent.Load()) {
		return
	}
	for _, x := range rec.AgentHeld.Needs {
		r.sup.suppressed(r, need{event: x.Event, state: x.State, episode: x.Episode}, "ended")
	}
}

// mark is n as a record keeps it.
func (n need) mark(at time.Time, how string) *NotifyMark {
	return &NotifyMark{State: n.state, Episode: n.episode, Event: n.event, At: at, How: how}
}

// near reports whether input at in came within inputWindow before at, or after it (a
// key typed while the agent drew what it shows: someone is there). A zero window
// takes no input as near.
func near(in, at time.Time) bool {
	return inputWindow > 0 && !in.IsZero() && at.Sub(in) < inputWindow
}

// notify tells a user who is not looking that r's agent needs them, now or when the
// rate limit's window ends; or says why not.
func (s *Supervisor) notify(r *run, a *agentRun, info Info, n need) {
	nt := &a.notes
	now := s.clock.Now()
	nt.mu.Lock()
	n.episode, nt.needed = nt.episode, true
	reason := ""
	switch {
	case nt.dropped: // a transition judged just before the run ended or the agent left
		reason = "ended"
	case nt.mark != nil && nt.mark.Episode == n.episode && nt.mark.State == n.state,
		slices.ContainsFunc(nt.held, func(h need) bool { return h.episode == n.episode && h.state == n.state }):
		reason = "duplicate"
	case n.event == NotifyWaiting && near(nt.input, n.since),
		n.event == NotifyTurnEnded && nt.input.After(nt.working) && near(nt.input, n.since):
		reason = "input"
	case r.looked():
		reason = "focused"
	}
	if reason != "" {
		told := reason != "duplicate" && reason != "ended"
		if told {
			nt.mark = n.mark(now, reason)
		}
		nt.mu.Unlock()
		s.suppressed(r, n, reason)
		if told {
			r.persistNotes()
		}
		return
	}
	if wait := nt.sent.Add(s.notifyCfg.MinInterval).Sub(now); len(nt.held) > 0 || !nt.sent.IsZero() && wait > 0 {
		if len(nt.held) == 0 {
			nt.until = now.Add(wait)
		}
		nt.held = append(nt.held, n)
		if nt.timer == nil && !nt.parked {
			nt.timer = s.clock.AfterFunc(wait, func() { s.flushNotes(r, a) })
		}
		nt.mu.Unlock()
		s.suppressed(r, n, "coalesced")
		r.persistNotes() // held in the record too: a server after a crash says it
		return
	}
	nt.sent, nt.mark = now, n.mark(now, "sent")
	nt.mu.Unlock()
	s.send(r, info, []need{n}, now)
	r.persistNotes()
}

// flushNotes says what the window held, at its end: one notification for all of it,
// less the questions no longer asked.
func (s *Supervisor) flushNotes(r *run, a *agentRun) {
	nt := &a.notes
	if s.detached.Load() { // the runs are the next server's: it says what the record holds
		nt.mu.Lock()
		nt.timer = nil
		nt.mu.Unlock()
		return
	}
	info := r.snapshot()
	now := s.clock.Now()
	nt.mu.Lock()
	held := nt.held
	nt.held, nt.timer = nil, nil
	var say []need
	var answered []need
	for _, n := range held {
		if n.event == NotifyWaiting && (info.AgentState != agentstate.Waiting || nt.episode != n.episode) {
			answered = append(answered, n)
		} else {
			say = append(say, n)
		}
	}
	reason := ""
	switch {
	case len(say) == 0:
	case info.State != Running, nt.dropped, r.agent.Load() != a: // or another agent took over
		reason = "ended"
	case r.looked():
		reason = "focused"
		nt.mark = say[len(say)-1].mark(now, reason)
	default:
		nt.sent, nt.mark = now, say[len(say)-1].mark(now, "sent")
	}
	nt.mu.Unlock()
	for _, n := range answered {
		s.suppressed(r, n, "answered")
	}
	if len(say) == 0 {
		if len(held) > 0 {
			r.persistNotes() // the record holds none now
		}
		return
	}
	if reason != "" {
		for _, n := range say {
			s.suppressed(r, n, reason)
		}
	} else {
		s.send(r, info, say, now)
	}
	r.persistNotes()
}

// dropNotes ends the window of a's run, which has ended, or of a detection another
// agent took over from: what it held is not said, nor a need that comes after (a
// transition judged just before), and no timer is left.
func (r *run) dropNotes(a *agentRun) {
	nt := &a.notes
	nt.mu.Lock()
	held := nt.held
	if nt.timer != nil {
		nt.timer.Stop()
	}
	nt.held, nt.timer, nt.parked, nt.dropped = nil, nil, false, true
	nt.mu.Unlock()
	for _, n := range held {
		r.sup.suppressed(r, n, "ended")
	}
}

// suppressed says in events.jsonl that a need was not sent when it came, and why.
func (s *Supervisor) suppressed(r *run, n need, reason string) {
	s.reg.emit("notify-suppressed", "run_id", r.id, "reason", reason, "event", n.event,
		"agent_state", n.state.String(), "episode", n.episode)
}

// persistNotes writes the record with the last need told, while the run lives.
func (r *run) persistNotes() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State == Running {
		r.persistLocked()
	}
}

// send publishes one notification for needs (several: what a window held).
func (s *Supervisor) send(r *run, info Info, needs []need, now time.Time) {
	last := needs[len(needs)-1]
	n := Notification{RunID: info.ID, Name: info.Name, Agent: info.Agent, AgentState: info.AgentState,
		Event: last.event, Time: now}
	for _, x := range needs {
		if x.event == NotifyWaiting {
			n.Context, n.Detail = OneLine(x.question), OneLine(x.detail)
		}
		if len(needs) > 1 {
			n.Events = append(n.Events, x.event)
		}
	}
	n.Text = notificationText(n, needs)
	r.change(EventNotify, n.Text, nil)
	if s.notifyCfg.Command != "" {
		go s.runNotifyCommand(n)
	}
}

// notificationText is one line: "claude-1: claude waits for you — Do you want to
// proceed? (rm -rf build)", "claude-1: claude finished its turn, then waits for you
// — …".
func notificationText(n Notification, needs []need) string {
	var what []string
	for _, x := range needs {
		w := "waits for you"
		if x.event == NotifyTurnEnded {
			w = "finished its turn"
		}
		if len(what) == 0 || what[len(what)-1] != w {
			what = append(what, w)
		}
	}
	t := n.Name + ": " + n.Agent + " " + strings.Join(what, ", then ")
	if n.Context != "" {
		t += " — " + n.Context
		if n.Detail != "" {
			t += " (" + n.Detail + ")"
		}
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
