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

// resumeArgv is spec's command made to resume conversation id, when the conversation
// has had a turn (conversed) and the agent's rules say how: the CLI keeps it, so the
// command started again goes on with it (the same words when it resumes it already).
// Pinning its id again would be refused (Claude Code: "Session ID … is already in
// use"), and starting without it would lose it. ok is false when the command stays as
// it is: no turn yet (a pinned id is free still), a shell line (the resume words go
// into a command's words only), no agent or no resume form for it.
func (s *Supervisor) resumeArgv(spec Spec, id string, conversed bool) ([]string, bool) {
	if !conversed || id == "" || spec.Shell != "" || len(spec.Argv) == 0 {
		return nil, false
	}
	a, err := s.agentFor(spec)
	if err != nil || a == nil || a.Session == nil {
		return nil, false
	}
	return a.Session.ResumeArgv(a, spec.Argv, id) // the same words when it resumes already
}

// resumeLocked makes the next attempt resume the run's conversation (resumeArgv),
// before forgetAgentLocked: the id is then named by the command and kept.
func (r *run) resumeLocked() {
	argv, ok := r.sup.resumeArgv(r.spec, r.info.SessionID, r.info.Conversed)
	if !ok || slices.Equal(argv, r.spec.Argv) {
		return
	}
	r.spec.Argv, r.info.Spec.Argv = argv, argv
	r.changeLocked(EventSession, r.info.SessionID+" (resumed by the next attempt)", nil)
}
