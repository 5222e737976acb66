package main

import (
	"fmt"
	"strings"
	"time"

	"corral/runs/agentstate/agenttest"
)

// The prompt the driver submits; the server ignores its words.
const prompt = "Please check that the workspace is writable."

// How long the driver lets a state sit: a permission prompt long enough for Claude
// Code's 6 s notification timer to fire when notifications are on, an idle prompt long
// enough to show that it stays quiet.
const (
	askHold  = 8 * time.Second
	idleHold = 5 * time.Second
	settle   = 2 * time.Second // output quiet this long: the agent has drawn its state
	// A screen is read between frames, never inside one: Gemini CLI (Ink) does not
	// bracket its frames with synchronized output and a 6–10 KB frame arrives in
	// several reads, so a check right after a read can see half a frame. Frames come
	// 30–100 ms apart, the reads of one within a few ms.
	frameGap = 25 * time.Millisecond
	askQuiet = 300 * time.Millisecond // the question is drawn and holds still
)

// flow is what a variant makes the agent do after start-up.
type flow func(d *driver) error

// startup waits until the agent is ready at its prompt and opens idle-ready.
func (d *driver) startup() error {
	v, err := d.await("ready", 2*time.Minute, settle, d.m.isReady)
	if err != nil {
		return err
	}
	d.rec.Phases = append(d.rec.Phases, agenttest.Phase{Name: "startup",
		State: agenttest.StateUnknown, From: 0, To: v.N, ToT: d.cap.since(v.T)})
	d.begin("idle-ready", agenttest.StateIdle, v)
	return d.hold("the ready prompt", idleHold, d.m.isReady)
}

// unfocus sends focus-out once the app has enabled focus reporting (DEC 1004), lets
// the agent take it in (still at its prompt for settle), and reopens idle-ready.
func (d *driver) unfocus() error {
	if _, err := d.await("focus reporting", 10*time.Second, 0, func(v view) bool { return v.Focus }); err != nil {
		return err
	}
	if err := d.input("focus-out", `\e[O`, func() error { return d.sup.Write(d.id, []byte("\x1b[O")) }); err != nil {
		return err
	}
	d.rec.Phases = d.rec.Phases[:len(d.rec.Phases)-1] // idle-ready is reopened after it
	if err := d.hold("the prompt, unfocused", settle, d.m.isReady); err != nil {
		return err
	}
	d.begin("idle-ready", agenttest.StateIdle, d.cap.view())
	return d.hold("the ready prompt", idleHold, d.m.isReady)
}

// working1 submits the prompt and waits for the server's stream and the screen's
// working mark.
func (d *driver) working1() error {
	if err := d.submit("prompt", prompt); err != nil {
		return err
	}
	v, err := d.await("working-1", 30*time.Second, frameGap, func(v view) bool {
		return d.srv.Seen(agenttest.EventTurn) && d.m.isWorking(v)
	})
	if err != nil {
		return err
	}
	d.begin("working-1", agenttest.StateWorking, v)
	return nil
}

// approval waits out the text, then for the permission question, lets it sit and
// approves.
func (d *driver) approval() error {
	e, err := d.serverEvent(agenttest.EventToolCall, 30*time.Second)
	if err != nil {
		return err
	}
	if err := d.endAt(e); err != nil {
		return err
	}
	v, err := d.await("waiting-permission", 30*time.Second, askQuiet, func(v view) bool {
		return d.srv.Seen(agenttest.EventToolCallServed) && d.m.isAsking(v)
	})
	if err != nil {
		return err
	}
	d.begin("waiting-permission", agenttest.StateWaiting, v)
	if err := d.hold("the permission prompt", askHold, d.m.isAsking); err != nil {
		return err
	}
	if d.srv.Seen(agenttest.EventToolResult) {
		return fmt.Errorf("the agent ran the tool without approval")
	}
	return d.keys("approve", d.m.approve)
}

// finish waits for the final answer's stream, then for the agent back at its prompt
// with the answer shown, lets it sit and quits.
func (d *driver) finish() error {
	v, err := d.await("working-2", 30*time.Second, frameGap, func(v view) bool {
		return d.srv.Seen(agenttest.EventToolResult) && d.m.isWorking(v)
	})
	if err != nil {
		return err
	}
	d.begin("working-2", agenttest.StateWorking, v)
	e, err := d.serverEvent(agenttest.EventFinal, 30*time.Second)
	if err != nil {
		return err
	}
	if err := d.endAt(e); err != nil {
		return err
	}
	v, err = d.await("idle-done", 30*time.Second, settle, func(v view) bool {
		return strings.Contains(v.Text, agenttest.DoneToken) && d.m.isIdle(v)
	})
	if err != nil {
		return err
	}
	d.begin("idle-done", agenttest.StateIdle, v)
	if err := d.hold("the idle prompt", idleHold, d.m.isIdle); err != nil {
		return err
	}
	d.quit()
	return nil
}

// fullTurn: prompt, working, permission, approve, working, idle.
func fullTurn(d *driver) error {
	if err := d.working1(); err != nil {
		return err
	}
	if err := d.approval(); err != nil {
		return err
	}
	return d.finish()
}

// unfocusedTurn is fullTurn with the pane unfocused first (codex notifies only then).
func unfocusedTurn(d *driver) error {
	if err := d.unfocus(); err != nil {
		return err
	}
	return fullTurn(d)
}

// interruptTurn presses Escape while the text streams; the agent must drop the turn
// and come back to its prompt.
func interruptTurn(d *driver) error {
	if err := d.working1(); err != nil {
		return err
	}
	if err := d.hold("working before the interrupt", 1500*time.Millisecond, d.m.isWorking); err != nil {
		return err
	}
	if err := d.keys("interrupt", "Escape"); err != nil {
		return err
	}
	v, err := d.await("idle-interrupted", 30*time.Second, settle, func(v view) bool {
		return d.srv.Seen(agenttest.EventAborted) && d.m.isIdle(v)
	})
	if err != nil {
		return err
	}
	d.begin("idle-interrupted", agenttest.StateIdle, v)
	if err := d.hold("the idle prompt", idleHold, d.m.isIdle); err != nil {
		return err
	}
	d.quit()
	return nil
}

// variant is one recording: an agent and what it is made to do.
type variant struct {
	name  string
	agent string
	flow  flow
	// phases the recording must have, in order.
	phases []string
}

var mainPhases = []string{"startup", "idle-ready", "working-1", "waiting-permission", "working-2", "idle-done"}

var variants = []variant{
	{name: "claude", agent: "claude", flow: fullTurn, phases: mainPhases},
	{name: "codex", agent: "codex", flow: fullTurn, phases: mainPhases},
	{name: "gemini", agent: "gemini", flow: fullTurn, phases: mainPhases},
	{name: "opencode", agent: "opencode", flow: fullTurn, phases: mainPhases},
	{name: "codex-unfocused", agent: "codex", flow: unfocusedTurn, phases: mainPhases},
	{name: "claude-interrupt", agent: "claude", flow: interruptTurn,
		phases: []string{"startup", "idle-ready", "working-1", "idle-interrupted"}},
}
