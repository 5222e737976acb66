package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"corral/reaper"
)

// ErrNoAnswer: the server took a call and gave no reply in time, or cannot give one
// (stopped, gone): without it a client would wait for ever on a SIGSTOPped server.
var ErrNoAnswer = errors.New("the server does not answer")

// checkEvery is how often a call in flight looks at its server's process: a stopped
// or dead server is told within about this, whatever the call's budget.
const checkEvery = 500 * time.Millisecond

// watch guards a call to verb: it cancels ctx with an ErrNoAnswer cause when the
// server's process is stopped or gone (looked at every checkEvery, when its pid is
// known), or when budget (0: none) has passed. The returned func ends the watch.
func (c *Client) watch(ctx context.Context, cancel context.CancelCauseFunc, verb string, budget time.Duration) func() {
	if c.pid == 0 && budget == 0 {
		return func() {}
	}
	// Timers, not a goroutine: a call answered within checkEvery (every key typed
	// into an attached run) starts none, and wakes no thread to run one.
	var mu sync.Mutex
	ended := false
	var deadline, tick *time.Timer
	if budget > 0 {
		deadline = time.AfterFunc(budget, func() {
			cancel(c.noAnswer(fmt.Sprintf("no reply to %s within %v (--timeout waits longer)", verb, budget)))
		})
	}
	if c.pid != 0 {
		mu.Lock() // the check reads tick under mu: set before it can run
		defer mu.Unlock()
		tick = time.AfterFunc(checkEvery, func() {
			if ctx.Err() != nil {
				return
			}
			if stuck, _ := c.serverState(); stuck {
				cancel(c.noAnswer(""))
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if !ended {
				tick.Reset(checkEvery)
			}
		})
	}
	return func() {
		mu.Lock()
		ended = true
		mu.Unlock()
		for _, t := range []*time.Timer{deadline, tick} {
			if t != nil {
				t.Stop()
			}
		}
	}
}

// noAnswer is ErrNoAnswer with the server's pid and state, and why.
func (c *Client) noAnswer(why string) error {
	_, state := c.serverState()
	msg := state
	if why != "" {
		msg = why
		if state != "" {
			msg = state + ": " + why
		}
	}
	if msg == "" {
		return ErrNoAnswer
	}
	return fmt.Errorf("%w: %s", ErrNoAnswer, msg)
}

// serverState reads the server's process: stuck when it is stopped, traced, a zombie
// or gone (it cannot answer), and how it is, "pid N, state T (stopped)". Empty when
// the pid is unknown (a server over ssh) or the platform cannot say.
func (c *Client) serverState() (stuck bool, state string) {
	if c.pid == 0 {
		return false, ""
	}
	p, err := reaper.ReadProc(c.pid)
	switch {
	case errors.Is(err, reaper.ErrGone):
		return true, fmt.Sprintf("pid %d is gone", c.pid)
	case err != nil:
		return false, fmt.Sprintf("pid %d", c.pid)
	}
	st, ok := procStates[p.State]
	if !ok {
		st.name = "unknown"
	}
	return st.stuck, fmt.Sprintf("pid %d, state %c (%s)", c.pid, p.State, st.name)
}

// procStates names the states of /proc/<pid>/stat, and which of them cannot answer.
var procStates = map[byte]struct {
	name  string
	stuck bool
}{
	'R': {"running", false}, 'S': {"sleeping", false}, 'D': {"disk sleep", false}, 'I': {"idle", false},
	'T': {"stopped", true}, 't': {"tracing stop", true}, 'Z': {"zombie", true}, 'X': {"dead", true},
}
