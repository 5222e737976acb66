package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/agentstate/agenttest"
)

// driver walks one agent through its phases. Every phase starts when the driver has
// established it from two independent sources (what the model server served, what
// the screen shows) and ends when the driver's next action begins, or at the moment
// the server knows the state is about to change; bytes between phases are left
// unlabelled.
type driver struct {
	sup    *runs.Supervisor
	id     string
	srv    *agenttest.Server
	cap    *capture
	m      marks
	exited <-chan struct{}
	rec    *agenttest.Recording
	open   *agenttest.Phase // begun, not yet ended
	logf   func(format string, args ...any)
}

var errExited = errors.New("the agent exited")

// await returns the first view for which cond holds and the output has been quiet
// for quiet. It wakes on output, on a server event, and when a quiet period it
// waits for is over; it fails at timeout with the screen as it was.
func (d *driver) await(what string, timeout, quiet time.Duration, cond func(view) bool) (view, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		changed := d.srv.Changed()
		v := d.cap.view()
		ok := cond(v)
		if ok && v.Quiet >= quiet {
			d.logf("%s: at byte %d", what, v.N)
			return v, nil
		}
		var settle <-chan time.Time
		if ok {
			settle = time.After(quiet - v.Quiet)
		}
		select {
		case <-d.cap.notify:
		case <-changed:
		case <-settle:
		case <-d.exited:
			return v, fmt.Errorf("waiting for %s: %w; screen:\n%s", what, errExited, v.Text)
		case <-deadline.C:
			return v, fmt.Errorf("waiting for %s: timed out after %s; title %q, screen:\n%s",
				what, timeout, v.Title, v.Text)
		}
	}
}

// hold lets the agent sit in its state for dur, watching every output: it fails if
// still stops holding.
func (d *driver) hold(what string, dur time.Duration, still func(view) bool) error {
	end := time.NewTimer(dur)
	defer end.Stop()
	start := time.Now()
	for done := false; ; {
		if v := d.cap.view(); !still(v) {
			return fmt.Errorf("%s: the agent left the state after %s; screen:\n%s",
				what, time.Since(start).Round(time.Millisecond), v.Text)
		}
		if done {
			return nil
		}
		select {
		case <-d.cap.notify:
		case <-end.C:
			done = true
		case <-d.exited:
			return fmt.Errorf("%s: %w", what, errExited)
		}
	}
}

// begin opens a phase established at v.
func (d *driver) begin(name, state string, v view) {
	d.rec.Phases = append(d.rec.Phases, agenttest.Phase{Name: name, State: state, From: v.N,
		FromT: d.cap.since(v.T), Screen: v.Text, Title: v.Title})
	d.open = &d.rec.Phases[len(d.rec.Phases)-1]
}

// end closes the open phase at the output byte offset n, time t.
func (d *driver) end(n int, t time.Time) error {
	p := d.open
	if p == nil {
		return nil
	}
	d.open = nil
	p.To, p.ToT = n, d.cap.since(t)
	if p.To < p.From {
		return fmt.Errorf("phase %s: reversed (%d..%d): the next state came before this one "+
			"was established", p.Name, p.From, p.To)
	}
	d.logf("phase %s [%d, %d)", p.Name, p.From, p.To)
	return nil
}

// endAt closes the open phase when the server event e happened.
func (d *driver) endAt(e agenttest.Event) error { return d.end(d.cap.offsetAt(e.At), e.At) }

// input ends the open phase, notes the input at the current offset and sends it.
func (d *driver) input(name, data string, send func() error) error {
	v := d.cap.view()
	if err := d.end(v.N, v.T); err != nil {
		return err
	}
	d.rec.Inputs = append(d.rec.Inputs, agenttest.Input{Name: name, At: v.N,
		T: d.cap.since(v.T), Data: data})
	d.logf("input %s %q at byte %d", name, data, v.N)
	return send()
}

// keys sends tmux-style send-keys words (Enter, y, Escape).
func (d *driver) keys(name, words string) error {
	items, err := keys.ParseSendKeysArgs(strings.Fields(words))
	if err != nil {
		return err
	}
	return d.input(name, words, func() error { return d.sup.SendKeys(d.id, items) })
}

// submit pastes text, waits until the agent shows it and has been quiet for a moment,
// and presses Enter. Not Supervisor.Submit: its Enter comes 30 ms after the paste's
// echo, and Gemini CLI 0.61 (on a terminal without the kitty keyboard protocol) takes
// an Enter within 40 ms of a paste as a newline, so the prompt is never sent.
func (d *driver) submit(name, text string) error {
	if err := d.input(name, text, func() error { return d.sup.Paste(d.id, text) }); err != nil {
		return err
	}
	if _, err := d.await("the pasted "+name, 10*time.Second, 300*time.Millisecond, func(v view) bool {
		return strings.Contains(v.Text, text)
	}); err != nil {
		return err
	}
	return d.keys(name+"-enter", "Enter")
}

// serverEvent waits for the server's event of kind.
func (d *driver) serverEvent(kind agenttest.EventKind, timeout time.Duration) (agenttest.Event, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.srv.Await(ctx, kind)
}

// quit ends the open phase, submits the agent's quit command and waits for it to
// exit; an agent still running after that is cancelled.
func (d *driver) quit() {
	if err := d.submit("quit", d.m.quit); err != nil {
		d.logf("quit: %v", err)
	}
	select {
	case <-d.exited:
		d.logf("the agent exited on %s", d.m.quit)
	case <-time.After(20 * time.Second):
		d.logf("the agent did not exit on %s: cancelling it", d.m.quit)
		d.sup.Cancel(d.id)
		<-d.exited
	}
}
