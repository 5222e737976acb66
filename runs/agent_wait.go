package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"corral/ptyhost"
	"corral/reaper"
	"corral/runs/agentstate"
)

// What scripts wait on: an agent's state (corral wait --until), and a
// submit that waits until the agent is ready and checks that it took.

var (
	// ErrNotReady: the run was not ready (its agent idle, or its output quiet) within
	// the submit's ready timeout.
	ErrNotReady = errors.New("agent not ready")
	// ErrNotTaken: a submit's Enter, sent twice, did not start the agent's turn.
	ErrNotTaken = errors.New("submit did not take")
)

// WaitAgent blocks until run id's agent is in one of states, the run ends, or ctx is
// done (its error then). reached says whether a state was reached. A run no agent is
// known in yet is waited for when one may still take its terminal (its foreground is
// watched: agent_fg.go), as a shell or a script that starts one later; ErrNoAgent when
// none can (a pipe run, --agent none).
func (s *Supervisor) WaitAgent(ctx context.Context, id string, states []agentstate.State) (Info, bool, error) {
	r, err := s.get(id)
	if err != nil {
		return Info{}, false, err
	}
	if r.agent.Load() == nil && r.fg == nil {
		return Info{}, false, fmt.Errorf("%s: %w", id, ErrNoAgent)
	}
	_, sub := s.Subscribe() // before the first look: a change in between is an event
	defer sub.Close()
	for {
		info, _ := s.Info(id)
		switch {
		case slices.Contains(states, info.AgentState):
			return info, true, nil
		case info.Ended():
			return info, false, nil
		}
		select {
		case <-sub.C:
		case <-ctx.Done():
			return info, false, ctx.Err()
		}
	}
}

// SubmitResult says how a checked submit went.
type SubmitResult struct {
	Waited time.Duration `json:"-"`      // until the run was ready
	Ready  string        `json:"ready"`  // what made it ready: "agent idle", or "output quiet 1s (…)"
	Resent bool          `json:"resent"` // the Enter was sent a second time
	Took   string        `json:"took"`   // what showed it took: "left idle" or "the text left the input"
}

// submitTake is how long a submit's Enter has to show it took before it is sent again.
const submitTake = 5 * time.Second

// A checked submit's Enter waits for submitQuiet without output after the paste, at
// most submitQuietMax (an agent that animates never goes quiet).
const (
	submitQuiet    = 300 * time.Millisecond
	submitQuietMax = 3 * time.Second
)

// awaitQuiet returns once the run has written nothing for quiet, or after limit.
func (r *run) awaitQuiet(quiet, limit time.Duration) {
	end := time.NewTimer(limit)
	defer end.Stop()
	still := time.NewTimer(quiet)
	defer still.Stop()
	for {
		select {
		case <-r.echo: // output: start the quiet over
			still.Reset(quiet)
		case <-still.C:
			return
		case <-end.C:
			return
		}
	}
}

// A submit's readiness when no agent state says it (the run is no known agent, or its
// agent's state is unknown): the run's output has been quiet for readyQuiet since
// its last byte. Interactive programs start by drawing something (a banner, a
// cleared screen, a mode switch) and, once they read input, sit silent until they
// get some; a second of silence after that start-up output outlasts the pauses
// between the pieces of a start-up screen (Node CLIs draw theirs in bursts tens to a
// few hundred milliseconds apart) while keeping a script's submit prompt. While the
// run's terminal is still in line mode the silence must last readyLineMode: a
// full-screen app takes its keys in raw mode, and one still starting may switch to it
// after a pause of more than a second (Gemini CLI, under load) and throw away what was
// typed before; a program that reads lines is in line mode for good and only waits a
// little longer. A run that has printed nothing at all is ready after
// readySilentStart from its start, unless it is a known agent (whose screen comes
// before its prompt): a plain reader (cat, a read loop) prints nothing
// before its input, and the span leaves a program that takes a while to start the
// time to print its first byte, after which the quiet spans count. Silence is not
// enough while the run's processes work: a Node CLI loading its code prints nothing
// for seconds on a loaded machine (Gemini CLI, over 5 s at a load of 10 on two cores)
// and throws away what was typed then. So the run must also have used less than
// readyCPU of processor time over the last readyCPUWindow: a program waiting for its
// input uses none.
const (
	readyQuiet       = time.Second
	readyLineMode    = 3 * time.Second
	readySilentStart = 3 * time.Second
	readyCPUWindow   = 500 * time.Millisecond
	readyCPU         = 50 * time.Millisecond
)

// ReadyAgentIdle is a submit's readiness when its agent was idle.
const ReadyAgentIdle = "agent idle"

// quietReady reports whether info's run counts as ready by its output's silence of
// span at now, and, when it does not yet, when it will if nothing more is written.
func quietReady(info Info, now time.Time, span time.Duration) (bool, time.Time) {
	at := info.LastOutputAt.Add(span)
	if info.LastOutputAt.IsZero() {
		at = info.StartedAt.Add(readySilentStart)
	}
	return !now.Before(at), at
}

// awaitReady waits (up to ready) until the run is ready for a submit: its agent
// idle at its prompt when its state is known, its output quiet when it is not (the
// run is no known agent, or its agent's state is unknown). It returns how it was
// ready; ErrNotReady after ready, saying what it waited for.
func (s *Supervisor) awaitReady(ctx context.Context, r *run, ready time.Duration) (string, error) {
	_, sub := s.Subscribe() // before the first look: a change in between is an event
	defer sub.Close()
	limit := time.NewTimer(ready)
	defer limit.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	var cpu cpuSample
	for {
		info, err := s.Info(r.id)
		if err != nil {
			return "", err
		}
		if info.Ended() {
			return "", fmt.Errorf("%s ended before it was ready: %w", r.id, ErrNotRunning)
		}
		known := r.agent.Load() != nil && info.AgentState != agentstate.Unknown
		var waited string
		switch {
		case known && info.AgentState == agentstate.Idle:
			return ReadyAgentIdle, nil
		case known:
			waited = fmt.Sprintf("its agent to be idle: it is %s (%s)", info.AgentState, orNone(info.AgentRule))
			wake.Stop()
		case r.agent.Load() != nil && info.LastOutputAt.IsZero():
			// An agent draws its screen before it reads a prompt: one that has printed
			// nothing is starting, however long it is silent (a loaded machine kept one
			// silent past readySilentStart, and what was typed then was thrown away).
			waited = "its agent's first output"
			wake.Stop()
		default:
			span, why := readyQuiet, whyQuiet(r)
			if line, _ := r.lineMode(); line {
				span, why = readyLineMode, why+", terminal in line mode"
			}
			now := s.clock.Now()
			ok, at := quietReady(info, now, span)
			said := fmt.Sprintf("output quiet %s", span)
			if info.LastOutputAt.IsZero() {
				said = fmt.Sprintf("no output in %s", readySilentStart)
			}
			switch {
			case ok && cpu.idle(info.PID, time.Now()):
				return fmt.Sprintf("%s (%s)", said, why), nil
			case ok:
				waited = fmt.Sprintf("its processes to go idle, its output quiet (%s): they used %s of CPU in the last %s",
					why, cpu.used, readyCPUWindow)
				at = cpu.next
			case info.LastOutputAt.IsZero():
				waited = fmt.Sprintf("its first output or %s of silence since its start (%s)", readySilentStart, why)
			default:
				waited = fmt.Sprintf("its output to be quiet for %s (%s); its last output was %s ago", span, why,
					now.Sub(info.LastOutputAt).Round(time.Millisecond))
			}
			wake.Reset(max(at.Sub(now), time.Millisecond))
		}
		if err := awaitRun(ctx, sub, r.id, wake.C, limit.C); err != nil {
			if errors.Is(err, ErrNotReady) {
				err = fmt.Errorf("%s: %w after %s: waited for %s", r.id, ErrNotReady, ready.Round(time.Millisecond), waited)
			}
			return "", err
		}
	}
}

// awaitRun returns nil at the next event of run id, or when wake fires; ErrNotReady
// when limit fires first, ctx's error when it is done. Other runs' events (their
// output among them) are passed over.
func awaitRun(ctx context.Context, sub *Subscription, id string, wake, limit <-chan time.Time) error {
	for {
		select {
		case ev := <-sub.C:
			if ev.Run.ID == id {
				return nil
			}
		case <-wake:
			return nil
		case <-limit:
			return ErrNotReady
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// cpuSample follows the processor time a run's session uses while a submit waits.
type cpuSample struct {
	at    time.Time     // when total was read (zero: not yet)
	total time.Duration // the session's members' user and system time then
	used  time.Duration // over the last window
	next  time.Time     // when to look again
}

// idle reports whether the session of root used less than readyCPU over the last
// readyCPUWindow; a first look (or one after more than a window) takes a sample and
// says no, with next a window on. Where processes cannot be read, it says yes.
func (c *cpuSample) idle(root int, now time.Time) bool {
	members, err := reaper.Session(root)
	if err != nil || len(members) == 0 {
		return true
	}
	var ticks uint64
	for _, p := range members {
		ticks += p.UTime + p.STime
	}
	total := time.Duration(ticks) * time.Second / time.Duration(reaper.ClockTicks())
	since := now.Sub(c.at)
	if c.at.IsZero() || since > 2*readyCPUWindow || since < readyCPUWindow/2 {
		if c.at.IsZero() || since > 2*readyCPUWindow {
			c.at, c.total = now, total
		}
		c.next = c.at.Add(readyCPUWindow)
		return false
	}
	// Less than before: a member exited, which is no sign of rest.
	c.used = max(total-c.total, 0)
	busy := total < c.total || c.used >= readyCPU
	c.at, c.total, c.next = now, total, now.Add(readyCPUWindow)
	return !busy
}

// lineMode reports whether the run's terminal is in line mode; known is false for a
// pipe run, or one whose terminal is not hosted here.
func (r *run) lineMode() (on, known bool) {
	r.mu.Lock()
	p := r.proc
	r.mu.Unlock()
	if p == nil || !r.spec.PTY || len(p.Files()) != 1 {
		return false, false
	}
	on, err := ptyhost.LineMode(p.Files()[0])
	return on, err == nil
}

// whyQuiet says why a run's readiness is its output's silence.
func whyQuiet(r *run) string {
	if r.agent.Load() == nil {
		return "no known agent"
	}
	return "agent state unknown"
}

// SubmitReady is Submit as scripts need it: it waits (up to ready) until the run is
// ready (awaitReady), pastes, and presses Enter once the run has gone quiet. For an
// agent that was idle it then checks that the submit took (the agent left idle, or
// the text left its input line), sends the Enter once more if it did not, and fails
// with ErrNotTaken if it still did not; a run ready by its output's silence is not
// checked. Agents
// and other interactive programs drop input while they start (Claude Code lost every
// Enter sent in its first seconds, codex drops prompts typed before its app-server is
// up): this is what makes `corral spawn` followed by `corral submit` work, whatever
// the run is.
func (s *Supervisor) SubmitReady(ctx context.Context, id, text string, ready time.Duration) (SubmitResult, error) {
	r, err := s.get(id)
	if err != nil {
		return SubmitResult{}, err
	}
	start := time.Now()
	how, err := s.awaitReady(ctx, r, ready)
	res := SubmitResult{Waited: time.Since(start), Ready: how}
	if err != nil {
		return res, err
	}
	if err := s.Paste(id, text); err != nil {
		return res, err
	}
	// Agents read an Enter that comes with or just after a paste as a newline in the
	// text (Gemini CLI within 40 ms): the Enter waits until the agent has drawn the
	// text and gone quiet.
	r.awaitQuiet(submitQuiet, submitQuietMax)
	if how != ReadyAgentIdle {
		// Nothing tells whether it took: no agent state leaves idle, and the text a
		// program in cooked mode echoed stays on its screen once read.
		return res, s.Write(id, []byte{'\r'})
	}
	_, sub := s.Subscribe() // after the paste: the text drawn in the input is no sign
	defer sub.Close()
	if err := s.Write(id, []byte{'\r'}); err != nil {
		return res, err
	}
	for attempt := 0; ; attempt++ {
		if how := s.submitTook(ctx, sub, r, text); how != "" {
			res.Took = how
			return res, nil
		}
		if attempt == 1 || ctx.Err() != nil {
			return res, fmt.Errorf("%s: %w: the agent stayed idle with the text in its input", id, ErrNotTaken)
		}
		res.Resent = true
		if err := s.Write(id, []byte{'\r'}); err != nil {
			return res, err
		}
	}
}

// submitTook waits up to submitTake for a sign that the submit took: the agent went
// to work, or asked something ("left idle"); failing that, the text's last line is
// no longer in the bottom rows of the screen ("the text left the input").
func (s *Supervisor) submitTook(ctx context.Context, sub *Subscription, r *run, text string) string {
	timer := time.NewTimer(submitTake)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-sub.C:
			st := ev.Run.AgentState
			if ok && ev.Run.ID == r.id && ev.Type == EventAgent && (st == agentstate.Working || st == agentstate.Waiting) {
				return "left idle"
			}
			if ok && ev.Run.ID == r.id && ev.Run.Ended() {
				return "" // the caller's next write says the run is gone
			}
		case <-timer.C:
			if !inInput(r.screen.Bottom(submitInputRows), text) {
				return "the text left the input"
			}
			return ""
		case <-ctx.Done():
			return ""
		}
	}
}

// submitInputRows are the bottom rows an agent's input box is looked for in.
const submitInputRows = 6

// inInput reports whether the last line of text is still shown in rows.
func inInput(rows []string, text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return false
	}
	for _, row := range rows {
		if strings.Contains(row, last) {
			return true
		}
	}
	return false
}

func orNone(rule string) string {
	if rule == "" {
		return "no rule matched"
	}
	return "rule " + rule
}
