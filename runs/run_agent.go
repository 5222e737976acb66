package runs

import (
	"crypto/subtle"
	"fmt"
	"strings"
	"sync"
	"time"

	"corral/runs/agentstate"
)

// A run's agent state (ARCHITECTURE.md, "An agent's state"): for a PTY run whose
// command an agent's rules recognise, the detector is evaluated after output arrives —
// agentDebounce after the first byte of a burst, then again while output keeps coming,
// and not at all while the run is silent: no timer runs then. The state (working,
// waiting, idle) is in Info, its record and an agent-state event; entering waiting, or
// idle at the end of a working turn, tells a user who is not looking (notify.go).

// agentDebounce is how long after a burst's first byte its screen is judged: the
// agent's redraw of one frame comes in several reads, and judging each would cost
// an emulation per read. It bounds the detection latency (benchmarked: p99 within
// 50 ms of the byte that changed the state).
const agentDebounce = 20 * time.Millisecond

// agentRun is one run's detection.
type agentRun struct {
	mu       sync.Mutex // the fields up to det
	timer    *time.Timer
	armed    bool      // a judgment is due
	dirty    bool      // output came since the last judgment
	first    time.Time // when the first of that output came
	stopped  bool
	fresh    bool   // the next judgment is a burst's first (the foreground is looked at)
	answered uint64 // the screen's attention count when input was last written

	evalMu   sync.Mutex // one judgment at a time; the fields below
	det      *agentstate.Detector
	decided  agentstate.State // the last state other than unknown (a turn ends working → idle)
	workFrom time.Time        // when the agent last started working

	notes notes // what its notifications remember (notify.go)
}

// minTurn is how long a turn (from leaving idle to working, through any question, to
// idle again) must have lasted to be told to a user elsewhere as ended: codex
// flickers to working for 40–60 ms just after it starts, and that is no turn. A
// variable only so tests can shorten it.
var minTurn = 1500 * time.Millisecond

// agentFor is the agent whose rules judge spec's run: the one it names, or the one
// its command runs. Nil for no agent, a pipe run, or a supervisor without screens.
func (s *Supervisor) agentFor(spec Spec) (*agentstate.Agent, error) {
	if s.agents == nil || !s.screens || !spec.PTY || spec.Agent == AgentNone {
		return nil, nil
	}
	if spec.Agent != "" {
		if a := s.agents.Named(spec.Agent); a != nil {
			return a, nil
		}
		return nil, fmt.Errorf("%w: no agent %q (known: %v; corral agents lists them)", ErrBadSpec, spec.Agent,
			s.agents.Names())
	}
	return s.agents.Recognize(spec.Argv, spec.Shell), nil
}

// startAgent sets up detection for r, judged by a, before the run starts (or is
// re-adopted): a is its spec's agent (agentFor), forced or recognised by the command.
func (r *run) startAgent(a *agentstate.Agent) {
	ag := r.newAgentRun(a)
	argv := r.spec.Argv
	if len(argv) == 0 {
		argv = strings.Fields(r.spec.Shell) // its words are enough to find a flag
	}
	ag.det.StartMode(argv)
	r.agent.Store(ag)
	r.info.Agent, r.info.AgentMode = a.Name, ag.det.Current().Mode
	if r.spec.Agent != "" {
		r.info.AgentBy = "forced: agent " + a.Name + " named by --agent or the config entry"
	} else if _, how := r.sup.agents.RecognizeHow(r.spec.Argv, r.spec.Shell); how != "" {
		r.info.AgentBy = "from the command (" + how + ")"
	}
}

// newAgentRun is a detection judged by a, its timer stopped until output comes.
func (r *run) newAgentRun(a *agentstate.Agent) *agentRun {
	ag := &agentRun{det: agentstate.NewDetector(a, r.sup.clock.Now()), answered: r.attnFrom.Load()}
	ag.timer = time.AfterFunc(time.Hour, func() { r.judgeAgent(ag) })
	ag.timer.Stop()
	return ag
}

// agentOutput notes output for a's next judgment (the reader goroutine).
func (r *run) agentOutput(a *agentRun, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.dirty {
		a.first = now
	}
	a.dirty = true
	if !a.armed && !a.stopped {
		a.armed, a.fresh = true, true
		a.timer.Reset(agentDebounce)
	}
}

// agentInput notes that input reached the run: a notification before it is answered.
func (r *run) agentInput() {
	a := r.agent.Load()
	if a == nil {
		return
	}
	attn := r.screen.Attention()
	a.mu.Lock()
	a.answered = attn
	a.mu.Unlock()
	a.notes.typed(r.sup.clock.Now())
}

// stopAgent ends the judgments (the run has exited).
func (r *run) stopAgent() {
	r.fg.stop()
	if a := r.agent.Load(); a != nil {
		a.stop()
		r.dropNotes(a)
	}
}

// stop ends a's judgments: its run exited, or another agent took over.
func (a *agentRun) stop() {
	a.mu.Lock()
	a.stopped = true
	a.timer.Stop()
	a.mu.Unlock()
}

// judgeAgent is the timer: it judges the output that came since the last judgment,
// and comes back once more in case output keeps coming; a visit that finds none
// disarms it. The foreground program is looked at first (agent_fg.go): when another
// agent has taken the terminal, its detection judges this output instead.
func (r *run) judgeAgent(a *agentRun) {
	a.mu.Lock()
	if a.stopped || !a.dirty {
		a.armed = false
		a.mu.Unlock()
		return
	}
	fresh := a.fresh
	a.fresh = false
	a.mu.Unlock()
	if r.fg != nil {
		if now := r.lookForeground(fresh); now != a {
			// Another agent took the terminal, or none is left: the output is
			// judged by the new one, or watched for the next.
			if now != nil {
				r.agentOutput(now, r.sup.clock.Now())
			} else {
				r.fg.output()
			}
			return
		}
	}
	a.mu.Lock()
	at := a.first
	a.dirty = false
	a.mu.Unlock()

	a.evalMu.Lock()
	tr, changed := a.det.Update(r.agentInputs(a), at)
	a.evalMu.Unlock()
	if changed {
		r.agentChanged(a, tr)
	}

	a.mu.Lock()
	if !a.stopped {
		a.timer.Reset(agentDebounce)
	}
	a.mu.Unlock()
}

// agentInputs is what the rules read now: the screen's signals (no emulation) and
// the screen itself, whose rows are read only if a rule asks.
func (r *run) agentInputs(a *agentRun) agentstate.Input {
	sig := r.screen.Signals()
	a.mu.Lock()
	answered := a.answered
	a.mu.Unlock()
	notice := ""
	if sig.Attention > answered {
		notice = sig.Notice
		if notice == "" {
			notice = "\a"
		}
	}
	return agentstate.Input{Screen: r.screen, Signals: agentstate.Signals{Title: sig.Title,
		Announce: sig.Announce, Progress: sig.Progress, Notice: notice}}
}

// agentChanged publishes a transition: Info, the record, an agent-state event, and a
// notification when the agent now needs a user who is not looking. A transition of
// a detection another agent has replaced is dropped.
func (r *run) agentChanged(a *agentRun, tr agentstate.Transition) {
	r.mu.Lock()
	if r.info.State != Running {
		r.mu.Unlock()
		return // an ending run's last screen says nothing anyone needs
	}
	if r.agent.Load() != a {
		r.mu.Unlock()
		return // another agent took the terminal since
	}
	if r.info.AgentState == tr.State && r.info.AgentMode != tr.Mode { // another mode: news for whoever shows it
		r.changeLocked(EventAgent, agentDetail(tr), func(i *Info) { i.AgentRule, i.AgentMode = tr.Rule, tr.Mode })
		r.persistLocked()
		r.mu.Unlock()
		return
	}
	if r.info.AgentState == tr.State { // the same state by another rule: no news
		r.info.AgentRule = tr.Rule
		cp := r.info
		r.latest.Store(&cp)
		r.persistLightLocked() // corral ls shows the rule info does
		r.mu.Unlock()
		return
	}
	if tr.State == agentstate.Working {
		a.notes.worked(tr.Since) // before the record is written: it keeps the episode
	}
	r.changeLocked(EventAgent, agentDetail(tr), func(i *Info) {
		i.AgentState, i.AgentStateSince, i.AgentRule, i.AgentMode = tr.State, tr.Since, tr.Rule, tr.Mode
		// A turn began: the CLI has written the conversation. Waiting alone is not
		// one: Claude Code asks whether to trust the folder, a login, a theme before
		// its first prompt (a question within a turn comes after its working), and a
		// next attempt that resumed a conversation never written would fail at once.
		if i.SessionID != "" && tr.State == agentstate.Working {
			i.Conversed = true
		}
	})
	r.diff.poke(true) // a turn ended or began: its files may have changed
	r.persistLocked()
	info := r.info
	r.mu.Unlock()
	if info.SessionID == "" {
		r.learnSessionFile(a)
	}

	a.evalMu.Lock()
	turnEnded := tr.State == agentstate.Idle && a.decided == agentstate.Working && tr.Since.Sub(a.workFrom) >= minTurn
	if tr.State == agentstate.Working && (a.decided == agentstate.Idle || a.decided == agentstate.Unknown) {
		a.workFrom = tr.Since // a turn begins; a question in it does not begin another
	}
	if tr.State != agentstate.Unknown && tr.State != tr.From {
		a.decided = tr.State
	}
	a.evalMu.Unlock()
	if tr.State == agentstate.Waiting && tr.From != agentstate.Waiting || turnEnded {
		n := need{event: NotifyWaiting, state: tr.State, since: tr.Since, question: tr.Context, detail: tr.Detail}
		if turnEnded {
			n.event = NotifyTurnEnded
		}
		r.sup.notify(r, a, info, n)
	}
}

// agentDetail is an agent-state event's detail: "working (spinner-title)", and the
// mode in which it will not ask: "working (spinner-title), auto mode: will not ask …".
func agentDetail(tr agentstate.Transition) string {
	s := tr.State.String()
	if tr.Rule != "" {
		s += " (" + tr.Rule + ")"
	}
	if tr.Mode != "" {
		s += ", " + agentstate.ModeMeaning(tr.Mode)
	}
	return s
}

// Hook hands a run the word of its agent's hook (corral hook): it dates and explains
// the state the screen shows, never sets one itself.
func (s *Supervisor) Hook(id string, rep agentstate.HookReport) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	a := r.agent.Load()
	if a == nil {
		return fmt.Errorf("%s: %w", id, ErrNoAgent)
	}
	// A conversation id is taken only from a hook that proves it runs inside this run
	// (its secret): `corral hook --run ID` from elsewhere, or from another run, cannot
	// plant a conversation the run does not hold (a restore would resume it).
	if id := a.det.Agent().Session.HookID(rep.IDs); id != "" && r.secret != "" &&
		subtle.ConstantTimeCompare([]byte(rep.Secret), []byte(r.secret)) == 1 {
		r.learnSession(id, "its hook "+rep.Event, false) // a new conversation: kept from its first turn
	}
	a.evalMu.Lock()
	tr, changed := a.det.Hook(rep.State, rep.Event, s.clock.Now())
	a.evalMu.Unlock()
	if changed {
		r.agentChanged(a, tr)
	}
	// The hook may come before the screen shows what it says: look again now.
	r.agentOutput(a, s.clock.Now())
	return nil
}

// Explain shows the run's rules at work on its screen now (corral explain).
func (s *Supervisor) Explain(id string) (agentstate.Explanation, error) {
	r, err := s.get(id)
	if err != nil {
		return agentstate.Explanation{}, err
	}
	a := r.agent.Load()
	if a == nil {
		return agentstate.Explanation{}, fmt.Errorf("%s: %w", id, ErrNoAgent)
	}
	return a.det.Agent().Explain(r.agentInputs(a)), nil
}
