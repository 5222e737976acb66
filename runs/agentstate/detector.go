package agentstate

import (
	"strings"
	"time"
)

// Detector follows one run's agent state. It is not safe for concurrent use: a run
// calls it from one place at a time.
type Detector struct {
	agent *Agent
	cur   Transition
	hook  hookNote
}

// Transition is a state reached: since when, by which rule, and from which state.
type Transition struct {
	State   State
	Since   time.Time
	Rule    string
	From    State
	Context string // what a notification quotes (Verdict.Context)
	Detail  string // its line of context (Verdict.Detail)
	// Mode is the mode the agent will not ask in ([[mode]]), "" when it asks: from the
	// command's flags (StartMode), then as its screen shows it.
	Mode string
}

// hookNote is the agent's own word through a hook, kept until the screen agrees or
// another state is reached.
type hookNote struct {
	state State
	event string
	at    time.Time
}

// hookWindow is how long before the screen shows a state a hook's word for it still
// dates it: Claude's Notification hook can come seconds after its prompt, its
// UserPromptSubmit just before the screen changes.
const hookWindow = 30 * time.Second

// NewDetector starts a run of agent a in state unknown at now.
func NewDetector(a *Agent, now time.Time) *Detector {
	return &Detector{agent: a, cur: Transition{Since: now}}
}

// StartMode sets the mode from the command line the agent was started with.
func (d *Detector) StartMode(argv []string) { d.cur.Mode = d.agent.FlagMode(argv) }

// KeepMode sets the mode a record of the run kept (a re-adopted run), until its
// screen says otherwise.
func (d *Detector) KeepMode(mode string) {
	if mode != "" {
		d.cur.Mode = mode
	}
}

// Agent is the agent whose rules decide.
func (d *Detector) Agent() *Agent { return d.agent }

// Current is the state now.
func (d *Detector) Current() Transition { return d.cur }

// Update evaluates in; at is when the output it follows arrived (the state began
// then, not when the evaluation ran). It reports the transition when the state
// changed, or when the deciding rule did.
func (d *Detector) Update(in Input, at time.Time) (Transition, bool) {
	v := d.agent.Evaluate(in)
	mode := d.agent.nextMode(d.cur.Mode, v.State, v.Mode)
	if v.State == d.cur.State && v.Rule == baseRule(d.cur.Rule) && mode == d.cur.Mode {
		return d.cur, false
	}
	if v.State == d.cur.State {
		if v.Rule != baseRule(d.cur.Rule) {
			d.cur.Rule, d.cur.Context, d.cur.Detail = v.Rule, v.Context, v.Detail // the same state, now for another reason: since stays
		}
		d.cur.Mode = mode
		return d.cur, true
	}
	t := Transition{State: v.State, Since: at, Rule: v.Rule, From: d.cur.State, Context: v.Context, Detail: v.Detail, Mode: mode}
	if h := d.hook; h.state == v.State && h.event != "" && !h.at.After(at) && at.Sub(h.at) <= hookWindow {
		t.Since, t.Rule = h.at, v.Rule+" + hook "+h.event
	}
	d.cur, d.hook = t, hookNote{}
	return t, true
}

// Hook notes what an agent's hook said (the state it implies and its event's name)
// at at. The screen stays the judge: a hook for the state shown now only adds its
// word to the reason; one for another state dates that state when the screen reaches
// it. It reports the transition when the reason changed.
func (d *Detector) Hook(s State, event string, at time.Time) (Transition, bool) {
	if s == d.cur.State && d.cur.State != Unknown {
		if d.hook.event == event {
			return d.cur, false
		}
		d.hook = hookNote{state: s, event: event, at: at}
		d.cur.Rule = baseRule(d.cur.Rule) + " + hook " + event
		return d.cur, true
	}
	d.hook = hookNote{state: s, event: event, at: at}
	return d.cur, false
}

// baseRule is a rule's name without a hook's word.
func baseRule(r string) string {
	base, _, _ := strings.Cut(r, " + hook ")
	return base
}
