package runs

import (
	"slices"
	"strings"
	"time"

	"corral/runs/agentstate"
)

// Agent detection across a service's attempts. An attempt's end stops its detection
// (stopAgent, in the finalizer) as any run's end does; the next attempt is a new
// program in the run's terminal and is judged as a new run is: recognised again from
// its command and from the terminal's foreground, its state unknown until its own
// screen says otherwise. Nothing of the previous attempt's judgments stands: not its
// state in Info, not its screen (reset as a new terminal is), not a bell it rang
// (the new detection counts only those rung after it starts), not its notifications
// (dropped with its detection).

// forgetAgentLocked clears what Info says of the previous attempt's agent, as the next
// attempt is moved to starting.
func forgetAgentLocked(i *Info) {
	i.Agent, i.AgentBy, i.AgentRule = "", "", ""
	i.AgentState, i.AgentStateSince = agentstate.Unknown, time.Time{}
	// A conversation its command line names (pinned at launch, or resumed) is the
	// next attempt's too; one learnt from the agent (its hook, its files) was the
	// previous attempt's, and the next one's is learnt anew.
	named := func(w string) bool { return strings.Contains(w, i.SessionID) }
	if i.SessionID != "" && !slices.ContainsFunc(i.Spec.Argv, named) && !named(i.Spec.Shell) {
		i.SessionID = ""
	}
}

// renewAgent sets up the next attempt's detection, before it starts (the reader may
// judge its first byte at once): its screen made new, the agent its command names
// judging it, and the look at its foreground program armed again.
func (r *run) renewAgent() {
	if r.screen != nil {
		r.screen.NewProgram()
	}
	r.agent.Store(nil)
	if r.screen != nil {
		r.attnFrom.Store(r.screen.Attention()) // a bell of the previous attempt is not this one's notice
	}
	if a, err := r.sup.agentFor(r.spec); err == nil && a != nil {
		r.mu.Lock()
		r.startAgent(a)
		r.mu.Unlock()
	}
	if w := r.fg; w != nil { // looked at afresh: the attempt's first output looks again
		w.mu.Lock()
		w.timer.Stop()
		w.armed, w.dirty, w.fresh, w.stopped = false, false, false, false
		w.looked, w.lookedAt, w.pending, w.pgrp, w.procs, w.names = false, time.Time{}, false, 0, "", ""
		w.members, w.agentPID, w.agentAt = nil, 0, 0
		w.mu.Unlock()
	}
}
