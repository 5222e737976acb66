package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/ui/dialog"
)

// Autoplay drives a running UI over the demo scenario by itself, the way a person
// would — select, focus, type into the agent, send-keys, cancel, reconcile — waiting
// for what each step needs to see before the next, then waits until every scenario
// run has ended the way it should and quits (confirming the shutdown of what is
// left). expect maps run names to the reason each must end with. It is the demo's
// reproducible recording and an end-to-end test of the real binary. Failures are
// reported by the returned error after the UI was told to quit.
func Autoplay(send func(tea.Msg), engine Engine, expect map[string]string) error {
	a := autoplayer{send: send, engine: engine}
	steps := []func() error{
		func() error { return a.waitScreen("agent", "›", 30*time.Second) },
		func() error { a.selectRun("agent"); a.key("enter"); return nil },
		func() error { a.typeText("fix the flaky test"); a.key("enter"); return nil },
		// It asks before it runs the tests: leave it, look elsewhere, and let w (the
		// next run waiting for you) bring it back.
		func() error { a.key("ctrl+]"); return a.waitAgent("agent", agentstate.Waiting, 30*time.Second) },
		func() error { a.selectRun("build"); a.key("w"); return a.waitSelected("agent") },
		func() error {
			a.key("enter")
			a.key("y")
			return a.waitScreen("agent", "Done: \"fix the flaky test\"", 30*time.Second)
		},
		func() error { a.key("ctrl+]"); return nil },
		func() error {
			a.key("s")
			a.typeText(`"list the files" Enter`)
			a.key("enter")
			return a.waitScreen("agent", "Done: \"list the files\"", 30*time.Second)
		},
		func() error { return a.selectRun("wrapper") },
		func() error { a.key("x"); return a.answer("y") },
		func() error { return a.waitReason("wrapper", runs.ManualCancel, 30*time.Second) },
		func() error { a.key("r"); return nil },
		func() error { return a.waitAll(expect, 90*time.Second) },
	}
	var failure error
	for _, step := range steps {
		if failure = step(); failure != nil {
			break
		}
	}
	if err := a.selectRun("agent"); err != nil && failure == nil {
		failure = err
	}
	a.key("q")
	if err := a.answer("y"); err != nil && failure == nil {
		failure = err
	}
	return failure
}

type autoplayer struct {
	send   func(tea.Msg)
	engine Engine
}

// keyMsgs are the key presses autoplay types, as Bubble Tea reports them.
var keyMsgs = map[string]tea.KeyPressMsg{
	"enter":  {Code: tea.KeyEnter},
	"ctrl+]": {Code: ']', Mod: tea.ModCtrl},
	"esc":    {Code: tea.KeyEscape},
}

// key presses one key: a name from keyMsgs or a single character.
func (a autoplayer) key(k string) {
	msg, ok := keyMsgs[k]
	if !ok {
		r := []rune(k)[0]
		msg = tea.KeyPressMsg{Code: r, Text: k}
	}
	a.send(msg)
	a.pause(120 * time.Millisecond)
}

// typeText types text a character at a time, at a watchable pace.
func (a autoplayer) typeText(s string) {
	for _, r := range s {
		a.send(tea.KeyPressMsg{Code: r, Text: string(r)})
		a.pause(40 * time.Millisecond)
	}
}

// pause paces the playback so it can be watched and recorded; nothing waits on it.
func (a autoplayer) pause(d time.Duration) { time.Sleep(d) }

// selectRun moves the selection to the named run (from the top of the list) and
// waits until the UI shows it selected.
func (a autoplayer) selectRun(name string) error {
	snap := a.snapshot()
	i := slices.IndexFunc(snap, func(in runs.Info) bool { return in.Name == name })
	for range len(snap) {
		a.key("k")
	}
	for range i {
		a.key("j")
	}
	return a.waitSelected(name)
}

// answer answers the question the UI asks once a person could have read it: the
// UI's guard ignores an answer that reaches it less than dialog.AnswerGrace after the
// question opened (a paste, keys typed ahead), however late it was typed, so on a
// loaded machine a fixed pause between the two keys is not enough. The question is
// seen open first; the answer sent dialog.AnswerGrace after that reaches the UI later still.
func (a autoplayer) answer(k string) error {
	if err := a.poll("the question to open", 10*time.Second, func() bool { return a.look().asking }); err != nil {
		return err
	}
	a.pause(2 * dialog.AnswerGrace)
	a.key(k)
	return nil
}

// look asks the running UI what a person would see: its selection and whether it
// asks a question. The UI answers in its Update, after every key sent before.
func (a autoplayer) look() probe {
	reply := make(chan probe, 1)
	a.send(probeMsg{reply: reply})
	select {
	case p := <-reply:
		return p
	case <-time.After(5 * time.Second): // the UI has ended or stalls; the caller's poll decides
		return probe{}
	}
}

// probeMsg asks the model for a probe; the model answers on reply, which has room.
type probeMsg struct{ reply chan<- probe }

type probe struct {
	selected string // the selected run's name
	asking   bool   // a y/n question is open
}

// snapshot is the core's runs now (none when it cannot answer: autoplay then waits
// on, and its deadline says what it waited for).
func (a autoplayer) snapshot() []runs.Info {
	rep, _ := api.Snapshot.Call(context.Background(), a.engine, api.SnapshotArgs{})
	return rep.Runs
}

func (a autoplayer) find(name string) (runs.Info, bool) {
	for _, in := range a.snapshot() {
		if in.Name == name {
			return in, true
		}
	}
	return runs.Info{}, false
}

// poll waits for cond, checking every 100 ms until the deadline.
func (a autoplayer) poll(what string, limit time.Duration, cond func() bool) error {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("autoplay: timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func (a autoplayer) waitScreen(name, text string, limit time.Duration) error {
	return a.poll(fmt.Sprintf("%q on %s's screen", text, name), limit, func() bool {
		in, ok := a.find(name)
		if !ok {
			return false
		}
		scr, err := a.engine.Screen(in.ID)
		return err == nil && scr != nil && strings.Contains(scr.Text(), text)
	})
}

// waitAgent waits until the run's agent is in state s.
func (a autoplayer) waitAgent(name string, s agentstate.State, limit time.Duration) error {
	return a.poll(fmt.Sprintf("%s's agent to be %s", name, s), limit, func() bool {
		in, ok := a.find(name)
		return ok && in.AgentState == s
	})
}

// waitSelected waits until the UI shows run name selected.
func (a autoplayer) waitSelected(name string) error {
	return a.poll(name+" to be selected", 10*time.Second, func() bool { return a.look().selected == name })
}

func (a autoplayer) waitReason(name string, reason runs.Reason, limit time.Duration) error {
	return a.poll(fmt.Sprintf("%s to end with %s", name, reason), limit, func() bool {
		in, ok := a.find(name)
		return ok && in.State == runs.Exited && in.Reason == reason
	})
}

// waitAll waits until every expected run has ended, then checks each reason.
func (a autoplayer) waitAll(expect map[string]string, limit time.Duration) error {
	err := a.poll("every scenario run to end", limit, func() bool {
		for name := range expect {
			if in, ok := a.find(name); !ok || in.State != runs.Exited {
				return false
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	for name, text := range expect {
		var want runs.Reason // the scenario names reasons as JSON does: compared typed
		if err := want.UnmarshalText([]byte(text)); err != nil {
			return fmt.Errorf("autoplay: %s: %w", name, err)
		}
		if in, _ := a.find(name); in.Reason != want {
			return fmt.Errorf("autoplay: %s ended with %s, want %s", name, in.Reason, want)
		}
	}
	return nil
}
