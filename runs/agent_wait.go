package runs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"corral/runs/agentstate"
)

// What scripts wait on (DESIGN §16): an agent's state (corral wait --until), and a
// submit that waits until the agent is ready and checks that it took.

var (
	// ErrNotReady: the agent did not reach idle within the submit's ready timeout.
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
	Waited time.Duration `json:"-"`      // until the agent was ready
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

// SubmitReady is Submit for an agent, as scripts need it: it waits (up to ready)
// until the agent is idle at its prompt, pastes, presses Enter once the agent has
// gone quiet, checks that the submit took (the agent left idle, or the text left its
// input line), sends the Enter once more if it did not, and fails with ErrNotTaken if
// it still did not. A run that is no agent
// gets a plain Submit. Agents drop input while they start (Claude Code lost every
// Enter sent in its first seconds, codex drops prompts typed before its app-server is
// up): this is what makes `corral spawn` followed by `corral submit` work.
func (s *Supervisor) SubmitReady(ctx context.Context, id, text string, ready time.Duration) (SubmitResult, error) {
	r, err := s.get(id)
	if err != nil {
		return SubmitResult{}, err
	}
	if r.agent.Load() == nil {
		return SubmitResult{}, s.Submit(id, text)
	}
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, ready)
	info, reached, err := s.WaitAgent(rctx, id, []agentstate.State{agentstate.Idle})
	cancel()
	res := SubmitResult{Waited: time.Since(start)}
	switch {
	case info.Ended():
		return res, fmt.Errorf("%s ended before it was ready: %w", id, ErrNotRunning)
	case !reached:
		return res, fmt.Errorf("%s: %w after %s: its agent is %s (%s)", id, ErrNotReady,
			ready.Round(time.Millisecond), info.AgentState, orNone(info.AgentRule))
	}
	if err := s.Paste(id, text); err != nil {
		return res, err
	}
	// Agents read an Enter that comes with or just after a paste as a newline in the
	// text (Gemini CLI within 40 ms): the Enter waits until the agent has drawn the
	// text and gone quiet.
	r.awaitQuiet(submitQuiet, submitQuietMax)
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
