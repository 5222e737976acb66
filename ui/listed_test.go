package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
)

// listRuns is n runs as a server would list them: live PTY runs, every third an
// agent (waiting, working or idle in turn), every seventh ended.
func listRuns(n int) []runs.Info {
	var all []runs.Info
	for k := range n {
		id := fmt.Sprintf("r%04d", k)
		i := liveRun(id, "run"+id, true)
		if k%3 == 0 {
			i.Agent, i.AgentState = "claude", []agentstate.State{agentstate.Waiting, agentstate.Working, agentstate.Idle}[k/3%3]
		}
		if k%7 == 6 {
			i = endedRun(id, "run"+id)
		}
		all = append(all, i)
	}
	return all
}

// An attached UI that opens on the first rows of its list (the rest counted, then
// listed at once) draws the frame it would draw over every run, titles and all; once
// the rest came, it lists every run and draws that frame again. What a snapshot read
// before the rest came said of a run not listed yet (newer than the listing's copy)
// is what the run shows once listed.
func TestFirstRowsDrawTheWholeListsFrame(t *testing.T) {
	all := listRuns(300)
	moved := all[250]
	moved.Seq, moved.PID = moved.Seq+1, 5151 // changed since the subscription: the snapshots say so
	full := harnessWith(t, fakeOver(all, moved), Options{Initial: all}, 160, 50)
	engine := fakeOver(all, moved)
	part := harnessWith(t, engine, Options{Initial: all[:50], Unlisted: api.Summarize(all[50:])}, 160, 50)
	want := full.m.View()
	got := part.m.View()
	if got.Content != want.Content || got.WindowTitle != want.WindowTitle {
		t.Errorf("the first rows' frame:\n%s\n%s\nwant the whole list's:\n%s\n%s", got.WindowTitle, got.Content, want.WindowTitle, want.Content)
	}
	if len(engine.called("Snapshot")) == 0 {
		t.Error("no snapshot read at the start")
	}
	part.send(ListedMsg{Runs: all[50:200]})
	part.send(ListedMsg{Runs: all[200:], Whole: true})
	if n := part.m.list.Len(); n != len(all) {
		t.Fatalf("%d runs listed once the rest came, want %d", n, len(all))
	}
	for k, i := range part.m.list.Runs() {
		if i.ID != all[k].ID {
			t.Fatalf("row %d is %s, want %s (the list's order)", k, i.ID, all[k].ID)
		}
	}
	if u := part.m.list.Unlisted(); u != (api.RunSummary{}) {
		t.Errorf("still counted as unlisted: %+v", u)
	}
	if got := part.m.View(); got.Content != want.Content || got.WindowTitle != want.WindowTitle {
		t.Errorf("the whole list's frame:\n%s\nwant:\n%s", got.Content, want.Content)
	}
	for _, h := range []*harness{full, part} {
		if i, _ := h.m.list.Run(moved.ID); i.PID != moved.PID {
			t.Errorf("the run that moved since the subscription shows pid %d, want the snapshot's %d", i.PID, moved.PID)
		}
	}
	if len(part.m.screens) != len(full.m.screens) {
		t.Errorf("%d screens kept, want %d", len(part.m.screens), len(full.m.screens))
	}
}

// What waits for every run (Options.WhenListed) is done once the last part of the
// list came, with every run, and once only; the run it names is selected.
func TestWhenListedWaitsForEveryRun(t *testing.T) {
	all := listRuns(120)
	var calls [][]runs.Info
	engine := fakeOver(all)
	o := Options{Initial: all[:30], Unlisted: api.Summarize(all[30:]), WhenListed: func(got []runs.Info) string {
		calls = append(calls, got)
		return all[100].ID
	}}
	h := harnessWith(t, engine, o, 160, 50)
	h.send(ListedMsg{Runs: all[30:60]})
	if len(calls) != 0 {
		t.Fatalf("called with %d runs listed of %d", len(calls[0]), len(all))
	}
	h.send(ListedMsg{Runs: all[60:], Whole: true})
	h.send(ListedMsg{Whole: true}) // a second word that the list is whole changes nothing
	if len(calls) != 1 || len(calls[0]) != len(all) {
		t.Fatalf("called %d times (want once, with %d runs)", len(calls), len(all))
	}
	if sel, _ := h.m.list.Selected(); sel.ID != all[100].ID {
		t.Errorf("selected %s, want %s (the run it named)", sel.ID, all[100].ID)
	}
	// A list whole from the start: called at once.
	calls = nil
	whole := harnessWith(t, fakeOver(all), Options{Initial: all, WhenListed: o.WhenListed}, 160, 50)
	whole.send(ListedMsg{Runs: all[:1], Whole: true}) // no news: nothing is added, nothing called again
	if len(calls) != 1 || len(calls[0]) != len(all) || whole.m.list.Len() != len(all) {
		t.Errorf("over a whole list: called %d times", len(calls))
	}
}

// fakeOver is a fake engine whose snapshot is all with newer copies of some runs
// (moved), each PTY run with a screen.
func fakeOver(all []runs.Info, moved ...runs.Info) *fakeEngine {
	snap := slices.Clone(all)
	for _, m := range moved {
		snap[slices.IndexFunc(snap, func(i runs.Info) bool { return i.ID == m.ID })] = m
	}
	engine := newFake(snap...)
	for _, i := range all {
		if i.Kind == runs.KindPTY {
			engine.screens[i.ID] = screenWith(80, 24, "$ "+i.ID)
		}
	}
	return engine
}

// The runs listed after an attached UI's first reply reach it as one message, however
// many channel reads they took, and before the events behind them; the end of the
// listing says the list is whole. A listing the stream cut short goes before the
// event that says why.
func TestBridgeListsTheRestInOneMessage(t *testing.T) {
	c, msgs, done := startBridge(context.Background(), 0)
	for k := range 700 {
		c <- runs.Event{Type: api.EventListed, Run: runs.Info{ID: fmt.Sprintf("r%d", k)}}
	}
	c <- runs.Event{Type: api.EventListed}
	c <- ev(runs.EventSpawn, "rnew")
	c <- runs.Event{Type: api.EventListed, Run: runs.Info{ID: "cut"}}
	c <- ev(api.EventServerLost, "")
	close(c)
	<-done
	close(msgs)
	var got []string
	for m := range msgs {
		switch m := m.(type) {
		case ListedMsg:
			got = append(got, fmt.Sprintf("listed %d %v", len(m.Runs), m.Whole))
		case EventMsg:
			got = append(got, string(m.Event.Type))
		}
	}
	want := []string{"listed 700 true", "spawn", "listed 1 false", "server-lost"}
	if !slices.Equal(got, want) {
		t.Errorf("the bridge sent %q, want %q", got, want)
	}
}

// While the rest of the list is on its way, quitting counts the live runs not listed
// yet: over first rows all ended and seen, the shutdown key asks before ending the
// others, and the detach question counts them too.
func TestQuitCountsTheRunsNotListedYet(t *testing.T) {
	all := listRuns(40)
	first := []runs.Info{endedRun("e1", "old1"), endedRun("e2", "old2")}
	rest := all[:30]
	u := api.Summarize(rest)
	if u.Live == 0 {
		t.Fatal("no live run among the rest")
	}
	open := func() *harness {
		return harnessWith(t, fakeOver(append(slices.Clone(first), rest...)),
			Options{Initial: first, Unlisted: u, Detachable: true}, 160, 50)
	}
	h := open()
	h.key("Q")
	if v := h.view(); h.m.mode != modeDialog || !strings.Contains(v, fmt.Sprintf("%d live run(s) will be ended", u.Live)) {
		t.Fatalf("the shutdown key did not ask (shutdown calls %d):\n%s", len(h.engine.called("Shutdown")), v)
	}
	if n := len(h.engine.called("Shutdown")); n != 0 {
		t.Errorf("shut down %d times before the answer", n)
	}
	h = open()
	h.key("q")
	if v := h.view(); h.m.mode != modeDialog || !strings.Contains(v, fmt.Sprintf("Detach? %d live run(s)", u.Live)) {
		t.Fatalf("no detach question counting the runs not listed yet:\n%s", v)
	}
}

// A run not listed yet that an event listed first (it ended, say) is counted once:
// once its copy from the listing comes, it leaves the unlisted counts.
func TestARunListedByAnEventLeavesTheUnlistedCounts(t *testing.T) {
	all := listRuns(40)
	h := harnessWith(t, fakeOver(all), Options{Initial: all[:10], Unlisted: api.Summarize(all[10:]), Detachable: true}, 160, 50)
	k := slices.IndexFunc(all[10:], func(i runs.Info) bool { return !i.Ended() }) + 10
	gone := all[k]
	gone.State = runs.Exited
	gone.Seq++
	h.send(EventMsg{Event: runs.Event{Type: runs.EventExit, Run: gone}})
	h.send(ListedMsg{Runs: all[10:30]})
	want := api.Summarize(all[30:])
	if got := h.m.list.Unlisted(); got != want {
		t.Errorf("unlisted %+v, want %+v", got, want)
	}
	live, _ := h.m.list.Counts()
	if w := len(h.m.list.Live()) + want.Live; live != w {
		t.Errorf("%d live counted, want %d", live, w)
	}
}

// A detach before the rest of the list came waits for it and for the runs it was to
// start then (the user asked for them: corral -- CMD, the config's), then leaves;
// pressed again meanwhile, it leaves at once without them. A shutdown before the
// list is whole starts none of them.
func TestLeavingBeforeTheListIsWhole(t *testing.T) {
	all := listRuns(60)
	var calls int
	open := func() *harness {
		calls = 0
		o := Options{Initial: all[:20], Unlisted: api.Summarize(all[20:]), Detachable: true,
			WhenListed: func([]runs.Info) string { calls++; return "" }}
		return harnessWith(t, fakeOver(all), o, 160, 50)
	}
	h := open()
	if msgs := h.key("D"); hasMsg[tea.QuitMsg](msgs) || h.m.Detached() {
		t.Fatal("detached before the runs asked for started")
	}
	if !strings.Contains(h.view(), "detaching once the runs asked for have started") {
		t.Errorf("no word of the detach waiting:\n%s", h.view())
	}
	msgs := h.send(ListedMsg{Runs: all[20:], Whole: true})
	if calls != 1 || !hasMsg[tea.QuitMsg](msgs) || !h.m.Detached() {
		t.Errorf("once listed: started %d times, quit %v, detached %v", calls, hasMsg[tea.QuitMsg](msgs), h.m.Detached())
	}

	h = open()
	h.key("D")
	if msgs := h.key("D"); !hasMsg[tea.QuitMsg](msgs) || !h.m.Detached() {
		t.Error("the detach key again did not leave at once")
	}

	h = open()
	h.key("q") // asks: live runs keep running
	if msgs := h.key("y"); hasMsg[tea.QuitMsg](msgs) || h.m.Detached() {
		t.Fatal("the answered detach left before the runs asked for started")
	}
	if msgs := h.send(ListedMsg{Runs: all[20:], Whole: true}); calls != 1 || !hasMsg[tea.QuitMsg](msgs) {
		t.Errorf("once listed: started %d times, quit %v", calls, hasMsg[tea.QuitMsg](msgs))
	}

	h = open()
	h.key("Q", "y")
	if !h.m.ShuttingDown() {
		t.Fatal("Q y did not shut down")
	}
	h.send(ListedMsg{Runs: all[20:], Whole: true})
	if calls != 0 {
		t.Errorf("the runs asked for started %d times while every run was ending", calls)
	}
}

// failingResync is a fake core whose next snapshots fail, fails of them.
type failingResync struct {
	*fakeEngine
	fails int
}

func (f *failingResync) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	if op.Name() == api.Snapshot.Name() && f.fails > 0 {
		f.fails--
		return api.SnapshotReply{}, errors.New("connection reset")
	}
	return f.fakeEngine.Invoke(ctx, op, args)
}

// A server lost before the rest of the list came, whose first resync once back
// fails: the resync is tried again, lists every run, and what waited for every run
// is done.
func TestAFailedResyncWhileListingIsTriedAgain(t *testing.T) {
	all := listRuns(60)
	var calls int
	engine := &failingResync{fakeEngine: fakeOver(all)}
	clk := &clock{t: t0}
	m, err := newModel(Options{Engine: engine, Initial: all[:20], Unlisted: api.Summarize(all[20:]), Detachable: true,
		WhenListed: func([]runs.Info) string { calls++; return "" }}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	h := &harness{t: t, m: m, engine: engine.fakeEngine, clk: clk}
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	h.send(ListedMsg{Runs: all[20:30]}) // the stream cut short
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerLost, Time: t0, Run: runs.Info{PID: 41}, Detail: "EOF"}})
	engine.fails = 1
	h.send(EventMsg{Event: runs.Event{Type: api.EventServerBack, Time: t0, Run: runs.Info{PID: 42}}})
	if engine.fails != 0 {
		t.Fatal("no resync once back")
	}
	if calls != 1 || h.m.list.Len() != len(all) || h.m.list.Unlisted() != (api.RunSummary{}) {
		t.Errorf("after a failed resync: %d runs listed of %d, unlisted %+v, the runs asked for started %d times",
			h.m.list.Len(), len(all), h.m.list.Unlisted(), calls)
	}
}

// A run the user started while the list was on its way is selected when it comes,
// though the runs asked for name another once every run is listed.
func TestListedKeepsTheUsersPendingSelection(t *testing.T) {
	all := listRuns(60)
	o := Options{Initial: all[:20], Unlisted: api.Summarize(all[20:]), Detachable: true,
		WhenListed: func([]runs.Info) string { return all[50].ID }}
	h := harnessWith(t, fakeOver(all), o, 160, 50)
	h.key("j")                      // the user is at the keys: a spawn is not followed for being new
	h.send(SpawnedMsg{ID: "rmine"}) // not listed yet: selected when its spawn event lists it
	h.send(ListedMsg{Runs: all[20:], Whole: true})
	mine := liveRun("rmine", "mine", false)
	h.send(EventMsg{Event: runs.Event{Type: runs.EventSpawn, Run: mine, Time: t0}})
	if sel, _ := h.m.list.Selected(); sel.ID != "rmine" {
		t.Errorf("selected %s, want rmine (the user's run)", sel.ID)
	}
}

// A parity pair's run listed after its partner joins the pane beside it at once.
func TestAPartnerListedLaterJoinsThePair(t *testing.T) {
	a, b := liveRun("r1", "probe (pty)", true), liveRun("r2", "probe (pipe)", false)
	a.Spec.Pair, b.Spec.Pair = "p1", "p1"
	engine := newFake(a, b)
	engine.screens["r1"] = screenWith(60, 20, "tty\r\n")
	h := harnessWith(t, engine, Options{Initial: []runs.Info{a}, Unlisted: api.Summarize([]runs.Info{b}), Detachable: true}, 160, 40)
	if line := lineWith(h.view(), "probe (pty)"); line != "" {
		t.Fatalf("a pair before its partner is listed:\n%s", h.view())
	}
	h.send(ListedMsg{Runs: []runs.Info{b}, Whole: true})
	if line := lineWith(h.view(), "probe (pty)"); !strings.Contains(line, "probe (pipe)") {
		t.Errorf("the partner listed later is not beside it:\n%s", h.view())
	}
}

// The next-waiting key over first rows with no run waiting, while runs among the rest
// wait, says the list is still arriving rather than that no run waits.
func TestNextWaitingWhileTheListArrives(t *testing.T) {
	first := []runs.Info{endedRun("e1", "old1"), liveRun("l1", "plain", false)}
	rest := listRuns(30)
	u := api.Summarize(rest)
	if u.Waiting == 0 {
		t.Fatal("no waiting run among the rest")
	}
	h := harnessWith(t, fakeOver(append(slices.Clone(first), rest...)), Options{Initial: first, Unlisted: u, Detachable: true}, 160, 50)
	h.key("w")
	if v := h.view(); !strings.Contains(v, fmt.Sprintf("%d run(s) waiting for you are not listed yet", u.Waiting)) {
		t.Errorf("no word of the waiting runs not listed yet:\n%s", v)
	}
}

// Among the runs not listed yet, those with the widest cells (a longer name, a pid of
// more digits, an ended run's longer status, escape markers: api.Widest, which the
// server sends with the first rows) size the first frame's columns: it is the whole
// list's frame, so the rest arriving draws no row again.
func TestWidestUnlistedRunsSizeTheFirstFramesColumns(t *testing.T) {
	all := listRuns(300)
	all[210].PID = 4194304
	all[230].Name = "a-much-longer-name-than-the-first-rows"
	all[250] = endedRun(all[250].ID, all[250].Name)
	all[250].Reason, all[250].ExitCode, all[250].Signal = runs.NoOutputTimeout, nil, 9
	all[270].Escapees = 12
	full := harnessWith(t, fakeOver(all), Options{Initial: all}, 160, 50)
	part := harnessWith(t, fakeOver(all), Options{Initial: all[:40], Unlisted: api.Summarize(all[40:]), Widest: api.Widest(all[:40], all[40:])}, 160, 50)
	want := full.m.View()
	if got := part.m.View(); got.Content != want.Content {
		t.Errorf("the first rows' frame:\n%s\nwant the whole list's:\n%s", got.Content, want.Content)
	}
	part.send(ListedMsg{Runs: all[40:], Whole: true})
	if got := part.m.View(); got.Content != want.Content {
		t.Errorf("the whole list's frame:\n%s\nwant:\n%s", got.Content, want.Content)
	}
}

// The adopted mark after an escape count (⚠1A) is a cell wider than the count alone
// (⚠1): a run not listed yet with both sizes the first frame's markers column.
func TestWidestUnlistedRunsCountTheAdoptedMark(t *testing.T) {
	all := listRuns(300)
	all[1].Escapees = 1                           // listed: ⚠1
	all[250].Escapees, all[250].Adopted = 1, true // not listed yet: ⚠1A
	full := harnessWith(t, fakeOver(all), Options{Initial: all}, 90, 50)
	part := harnessWith(t, fakeOver(all), Options{Initial: all[:40], Unlisted: api.Summarize(all[40:]), Widest: api.Widest(all[:40], all[40:])}, 90, 50)
	if got, want := part.m.View().Content, full.m.View().Content; got != want {
		t.Errorf("the first rows' frame:\n%s\nwant the whole list's:\n%s", got, want)
	}
}
