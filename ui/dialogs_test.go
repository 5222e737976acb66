package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The dialog host answers with typed messages: a question's answer carries what it
// decides and whether keys came that were not meant for it; a prompt's carries its
// text (a send-keys line parsed, one that does not parse keeps the prompt open); the
// form's carries the spec. Each dialog closes itself when done and keeps the mode to
// return to.
func TestDialogHostAnswers(t *testing.T) {
	clk := &clock{t: t0}
	d := newDialogHost(newCommon(DefaultKeyMap(), clk.now))
	d.SetSize(100, 30)

	if got := d.Ask("Cancel r1?", question{confirmCancel, "r1"}, modeScroll); got != modeDialog || !d.open || d.ret != modeScroll {
		t.Fatalf("Ask: mode %v open %v ret %v", got, d.open, d.ret)
	}
	clk.t = clk.t.Add(time.Second) // read, then answered
	d, msg := d.Key(keyMsg("y"))
	if a, ok := msg.(confirmAnswer); !ok || !a.yes || a.stray || a.op != confirmCancel || a.id != "r1" || d.open {
		t.Fatalf("y: answer %#v, open %v", msg, d.open)
	}

	d.Ask("Remove r2?", question{confirmRemove, "r2"}, modeBrowse)
	clk.t = clk.t.Add(time.Second)
	d, msg = d.Key(keyMsg("a")) // typing, not answering
	if a, ok := msg.(confirmAnswer); !ok || a.yes || !a.stray || d.open {
		t.Fatalf("a stray key: answer %#v, open %v", msg, d.open)
	}

	d.Prompt(promptSendKeys, "send-keys to r1", "r1", modeBrowse)
	for _, r := range "C-Foo" {
		d, _ = d.Key(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d, msg = d.Key(keyMsg("enter"))
	if line, in := d.StatusLine(); msg != nil || !d.open || !in || !strings.Contains(stripANSI(line), "bad key") {
		t.Fatalf("a bad send-keys line: answer %#v, open %v, line %q", msg, d.open, line)
	}
	for range "C-Foo" {
		d, _ = d.Key(keyMsg("backspace"))
	}
	for _, r := range "C-c" {
		d, _ = d.Key(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d, msg = d.Key(keyMsg("enter"))
	a, ok := msg.(promptAnswer)
	if !ok || a.target != "r1" || len(a.items) != 1 || a.items[0].IsText || a.items[0].Key.Rune != 'c' || d.open {
		t.Fatalf("C-c: answer %#v, open %v", msg, d.open)
	}

	d.Form(modeBrowse, nil, "")
	d.form.fields[0].Insert("echo hi")
	d, msg = d.Key(keyMsg("enter"))
	if f, ok := msg.(formAnswer); !ok || f.spec.Shell != "echo hi" || f.parity || d.open {
		t.Fatalf("form: answer %#v, open %v", msg, d.open)
	}

	d.Prompt(promptPaste, "paste to r1", "r1", modeBrowse)
	if d, msg = d.Key(keyMsg("esc")); msg != nil || d.open {
		t.Fatalf("esc: answer %#v, open %v", msg, d.open)
	}
}

// requests keeps one read of each kind in flight; one asked for meanwhile is due
// when the first ends, and only then.
func TestRequestsOneInFlight(t *testing.T) {
	core := newFake()
	r := newRequests()
	if r.tree(core, "r1") == nil || r.tree(core, "r1") != nil {
		t.Fatal("a second tree read went while the first was on its way")
	}
	if !r.treeDone(TreesMsg{}) || r.treeDone(TreesMsg{}) {
		t.Fatal("the tree read asked for meanwhile was not due once, after the first")
	}
	if r.log(core, "r1") == nil || r.log(core, "r1") != nil || r.log(core, "r2") == nil {
		t.Fatal("log reads: not one per run in flight")
	}
	if !r.logDone("r1") || r.logDone("r1") || r.logDone("r2") {
		t.Fatal("the log read asked for meanwhile was not due once")
	}
	if r.refresh(core, "", t0) == nil || r.refresh(core, "", t0) != nil {
		t.Fatal("a second snapshot and metrics read went while the first were on their way")
	}
	// The counters are read again after a lifecycle event or metricsEvery, not on every
	// refresh: what they count comes with events.
	r.snapshotDone(false, true)
	r.metricsDone()
	if cmd := r.refresh(core, "", t0.Add(time.Second)); len(collectCmd(cmd)) != 1 {
		t.Fatalf("an idle refresh read %d things, want the snapshot alone", len(collectCmd(cmd)))
	}
	r.snapshotDone(false, true)
	r.metricsDue = true
	if cmd := r.refresh(core, "", t0.Add(2*time.Second)); len(collectCmd(cmd)) != 2 {
		t.Fatal("the counters were not read after an event")
	}
	r.snapshotDone(false, true)
	r.metricsDone()
	if cmd := r.refresh(core, "", t0.Add(2*time.Second+metricsEvery)); len(collectCmd(cmd)) != 2 {
		t.Fatal("the counters were not read after metricsEvery")
	}
	if gen := r.tickGen; r.restartTick() != gen+1 {
		t.Fatal("restartTick did not start a new generation")
	}
}

// collectCmd is the commands a (batch) command holds, without running them.
func collectCmd(cmd tea.Cmd) []tea.Cmd {
	if cmd == nil {
		return nil
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		var out []tea.Cmd
		for _, c := range b {
			out = append(out, collectCmd(c)...)
		}
		return out
	}
	return []tea.Cmd{cmd}
}
