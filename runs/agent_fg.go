package runs

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"corral/runs/agentstate"
)

// Recognition by the foreground program. A run's command names its agent only when
// the agent is the command (claude, env HOME=… claude, npx @openai/codex); a script,
// make, direnv exec, nix develop -c or an interactive shell runs it further down. For
// a PTY run whose agent is not forced (--agent, the config's agent =), the program the
// terminal belongs to decides too: the members of the PTY's foreground process group
// (TIOCGPGRP on the master), each one's argv (or executable) put through the same
// recognition as a command's, the newest recognised member winning.
//
// No timer scans anything. The foreground is looked at on output only, in the agent's
// judgment (debounced, agentDebounce after a burst's first byte) or, while no agent is
// known, in a judgment of its own just as debounced:
//   - at the run's first output, and whenever the foreground group differs from the
//     last one seen (one ioctl per judgment);
//   - at each judgment while no agent is known, if the run's processes changed since
//     the last look (its cgroup.procs; without a cgroup, the kernel's last pid, which
//     every fork moves) or a member's name did (exec): a script or make starts the
//     agent in their own group. At most one such look per fgGap; one asked for
//     sooner is made when the gap is over;
//   - at a burst's first judgment, when the agent was recognised in the foreground and
//     its process is gone.
//
// What changes: an agent recognised in the foreground that is not the run's agent
// replaces it (a new detection, its state unknown until its screen is judged, an
// agent-state event); when the recognised agent's process has exited and no agent is
// in the foreground (a shell's prompt again), detection ends and the run is no agent
// until the next one draws. An agent recognised from the command is kept while the
// foreground shows no other agent (its editor or its tool runs there a moment). So a
// shell in which the user runs claude, quits, then runs codex is claude, then no
// agent, then codex. Linux only (agent_fg_linux.go); elsewhere the command decides.

// fgGap is the least time between two looks at the members of a run's foreground
// group while it has no agent: a script forking a process every few milliseconds
// would otherwise have one at every judgment. A look put off is made when the gap
// is over (once: the watch's timer, armed by the output that asked for it).
const fgGap = 100 * time.Millisecond

// fgWatch is one run's look at its foreground program.
type fgWatch struct {
	mu      sync.Mutex // the fields below
	timer   *time.Timer
	armed   bool // a look is due (no agent: the watch's own judgment)
	dirty   bool // output came since the last look
	fresh   bool // the next look is a burst's first
	stopped bool

	looked   bool      // the foreground was looked at once
	lookedAt time.Time // when it was last
	pending  bool      // a look was put off (fgGap)
	pgrp     int       // the foreground group last seen
	procs    string    // the run's processes at the last identification (fgProcs)
	names    string    // the group's members' names then
	members  []int     // and their pids
	agentPID int       // the process the agent was recognised in; 0 if by the command
	agentAt  uint64    // its start time (a reused pid is another process)
}

// watchForeground starts the look at r's foreground program, for a PTY run with
// screens and agents whose agent is not named by its spec.
func (r *run) watchForeground() {
	s := r.sup
	if s.agents == nil || !s.screens || !r.spec.PTY || r.spec.Agent != "" || !fgSupported {
		return
	}
	w := &fgWatch{}
	w.timer = time.AfterFunc(time.Hour, func() { r.lookOnOutput(w) })
	w.timer.Stop()
	r.fg = w
}

// lookAtStart looks at a re-adopted run's foreground at once: its output started under
// the previous server, and an agent that prints nothing now is known all the same, its
// kept screen judged. An agent its command names is looked past too: another one may
// have taken the terminal under the previous server (its record names that one).
func (r *run) lookAtStart() {
	if r.fg == nil {
		return
	}
	cur := r.agent.Load()
	if a := r.lookForeground(true); a != nil && a != cur {
		r.agentOutput(a, r.sup.clock.Now())
	}
}

// output notes output while no agent is known (the reader goroutine).
func (w *fgWatch) output() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirty = true
	if !w.armed && !w.stopped {
		w.armed, w.fresh = true, true
		w.timer.Reset(agentDebounce)
	}
}

func (w *fgWatch) stop() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.stopped = true
	w.timer.Stop()
	w.mu.Unlock()
}

// lookOnOutput is the watch's judgment while no agent is known: it looks at the
// foreground, hands the output to an agent now recognised, and comes back once more
// in case output keeps coming.
func (r *run) lookOnOutput(w *fgWatch) {
	w.mu.Lock()
	if w.stopped || !w.dirty && !w.pending {
		w.armed = false
		w.mu.Unlock()
		return
	}
	fresh := w.fresh
	w.dirty, w.fresh, w.pending = false, false, false
	w.mu.Unlock()
	if a := r.lookForeground(fresh); a != nil {
		w.mu.Lock()
		w.armed = false // the agent's judgments go on from here
		w.mu.Unlock()
		r.agentOutput(a, r.sup.clock.Now()) // its screen is judged as if just written
		return
	}
	w.mu.Lock()
	if !w.stopped {
		d := agentDebounce
		if w.pending { // a look put off: once, when the gap since the last one is over
			d = max(d, time.Until(w.lookedAt.Add(fgGap)))
		}
		w.timer.Reset(d)
	}
	w.mu.Unlock()
}

// lookForeground looks at the foreground program if something may have changed
// there, switches or ends the run's detection by what it finds, and returns the
// agent's detection now (nil: none).
func (r *run) lookForeground(fresh bool) *agentRun {
	w := r.fg
	cur := r.agent.Load()
	r.mu.Lock()
	proc, root, cg := r.proc, r.info.PID, r.cgroup
	r.mu.Unlock()
	if proc == nil {
		return cur
	}
	pgrp, err := proc.ForegroundPgrp()
	if err != nil || pgrp <= 0 {
		return cur
	}
	w.mu.Lock()
	looked, changed, lookedAt, procs0, names0 := w.looked, pgrp != w.pgrp, w.lookedAt, w.procs, w.names
	members0, agentPID0, agentAt0 := w.members, w.agentPID, w.agentAt
	if looked && cur == nil && time.Since(lookedAt) < fgGap {
		w.pending = true // no agent: at most one look per fgGap, the next one put off
		w.mu.Unlock()
		return nil
	}
	w.mu.Unlock()
	need := !looked || changed
	switch {
	case need:
	case cur == nil:
		need = fgProcs(cg) != procs0 || fgNames(members0) != names0
	case fresh && agentPID0 != 0:
		need = !fgAlive(agentPID0, agentAt0)
	}
	if !need {
		return cur
	}

	procs := fgProcs(cg) // before the look: a process made after it changes it again
	members := fgMembers(cg, root, pgrp)
	var found *agentstate.Agent
	var at fgProc
	how := ""
	for _, m := range members {
		a, h := r.sup.agents.RecognizeHow(m.Argv, "")
		if a == nil && m.Exe != "" {
			if a, h = r.sup.agents.RecognizeFile(m.Exe); a != nil {
				h = "its executable → " + h
			}
		}
		if a != nil && (found == nil || m.Start > at.Start || m.Start == at.Start && m.PID > at.PID) {
			found, at, how = a, m, h
		}
	}
	pids := make([]int, len(members))
	for i, m := range members {
		pids[i] = m.PID
	}

	w.mu.Lock()
	w.looked, w.lookedAt, w.pgrp, w.procs, w.members = true, time.Now(), pgrp, procs, pids
	w.names = fgNames(pids)
	agentPID, agentAt := w.agentPID, w.agentAt
	w.mu.Unlock()

	switch {
	case found != nil && cur != nil && cur.det.Agent().Name == found.Name:
		if agentPID != 0 { // follow the agent to the process it is in now
			w.mu.Lock()
			w.agentPID, w.agentAt = at.PID, at.Start
			w.mu.Unlock()
		}
		return cur
	case found != nil:
		return r.switchAgent(cur, found, at, "from the foreground process "+strconv.Itoa(at.PID)+" ("+how+"): "+
			cutArgv(at.Argv))
	case cur != nil && agentPID != 0 && !fgAlive(agentPID, agentAt):
		return r.switchAgent(cur, nil, fgProc{}, "")
	}
	return cur
}

// switchAgent replaces the run's detection cur by one for a (nil: none), recognised
// in process p as by says.
func (r *run) switchAgent(cur *agentRun, a *agentstate.Agent, p fgProc, by string) *agentRun {
	var next *agentRun
	if a != nil {
		next = r.newAgentRun(a)
		next.det.StartMode(p.Argv)
		if rec := r.readopted.Load(); rec != nil {
			next.restore(*rec) // before it judges: a look on the keeper's bytes may come first
		}
	}
	r.mu.Lock()
	if r.info.State != Running || r.ending || r.agent.Load() != cur { // ending: stopAgent has run
		r.mu.Unlock()
		if next != nil {
			next.stop()
		}
		return r.agent.Load()
	}
	r.agent.Store(next)
	detail := "no agent"
	name, mode := "", ""
	if a != nil {
		name, detail, mode = a.Name, a.Name+" recognised "+by, next.det.Current().Mode
	}
	r.changeLocked(EventAgent, detail, func(i *Info) {
		i.Agent, i.AgentBy, i.AgentState, i.AgentStateSince, i.AgentRule = name, by, agentstate.Unknown, r.sup.clock.Now(), ""
		i.AgentMode = mode
	})
	r.persistLocked()
	r.mu.Unlock()
	if cur != nil {
		cur.stop()
		r.dropNotes(cur) // what its window held was about an agent that has left
	}
	r.fg.mu.Lock()
	r.fg.agentPID, r.fg.agentAt = p.PID, p.Start
	if a == nil {
		r.fg.armed = false // the watch's own judgments take over again
	}
	r.fg.mu.Unlock()
	return next
}

// fgProc is one member of the foreground group.
type fgProc struct {
	PID   int
	Start uint64 // its start time, in clock ticks since boot
	Argv  []string
	Exe   string // /proc/PID/exe's target, when readable
}

// cutArgv shows an argv in at most 120 bytes.
func cutArgv(argv []string) string {
	s := strings.Join(argv, " ")
	if len(s) > 120 {
		n := 117
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
