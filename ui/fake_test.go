package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/runs/workspace"
	"corral/ui/internal/uitest"
)

// fakeEngine is an Engine that records every call (name and arguments) and answers from
// canned data. Tests assert on its calls; Update and View must make none.
type fakeEngine struct {
	mu        sync.Mutex
	calls     []string
	snap      []runs.Info
	screens   map[string]*screen.Screen
	trees     map[string][]reaper.TreeProc
	logs      map[string]runs.Output
	decisions []runs.Decision
	spawnID   string
	fail      map[string]error // method name → error it returns
	written   map[string][]byte
	specs     []runs.Spec
	items     [][]keys.Item
	watched   []string // Watch calls, in order
	focus     []string // Focus calls, "id viewer true", in order
	shows     []string // Show calls, "viewer id", in order
	metrics   runs.Metrics
	history   []runs.Event      // the log's recent events (History, as client.Remote keeps them)
	diffs     map[string]string // run id → its diff's text (Diff, diffmode_test.go)
	lost      []runs.Restored   // the lost runs a restore's dry run finds
	// leaseWait: the first NoWait dry run finds none, a dead server's lease holding
	// them this long.
	leaseWait time.Duration
}

func newFake(snap ...runs.Info) *fakeEngine {
	return &fakeEngine{snap: snap, screens: map[string]*screen.Screen{}, trees: map[string][]reaper.TreeProc{},
		logs: map[string]runs.Output{}, fail: map[string]error{}, written: map[string][]byte{}, spawnID: "rnew"}
}

func (f *fakeEngine) note(name string, args ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := name
	for _, a := range args {
		s += fmt.Sprintf(" %v", a)
	}
	f.calls = append(f.calls, s)
	return f.fail[name]
}

// Calls returns the calls so far, "Name arg arg".
func (f *fakeEngine) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// called returns the calls whose name is name.
func (f *fakeEngine) called(name string) []string {
	var out []string
	for _, c := range f.Calls() {
		if c == name || strings.HasPrefix(c, name+" ") {
			out = append(out, c)
		}
	}
	return out
}

// Invoke applies op to the fake as to a supervisor: the calls are the supervisor
// methods the operation's handler makes.
func (f *fakeEngine) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	return op.Apply(ctx, f, args)
}

// Info answers any id without noting it: handlers look a run up before they act.
func (f *fakeEngine) Info(id string) (runs.Info, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, i := range f.snap {
		if i.ID == id {
			return i, nil
		}
	}
	return runs.Info{ID: id}, nil
}

// The rest of the supervisor's methods, which the UI never calls.
func (f *fakeEngine) Poll(id string) (runs.Output, error)        { return runs.Output{}, f.note("Poll", id) }
func (f *fakeEngine) Tail(id string) ([]byte, error)             { return nil, f.note("Tail", id) }
func (f *fakeEngine) Escapees(id string) ([]runs.Escapee, error) { return nil, f.note("Escapees", id) }
func (f *fakeEngine) Wait(_ context.Context, id string) (runs.Info, error) {
	return runs.Info{}, f.note("Wait", id)
}

// Diff answers the diff operation from canned texts (diffs, by run id), for a run
// with a worktree.
func (f *fakeEngine) Diff(_ context.Context, id string, o workspace.DiffOptions) (runs.DiffResult, error) {
	if err := f.note("Diff", id, o.Stat, o.Color); err != nil {
		return runs.DiffResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, i := range f.snap {
		if i.ID == id && i.Worktree != nil {
			return runs.DiffResult{Text: []byte(f.diffs[id]), Stat: workspace.Stat{Added: 2, Removed: 1, Files: 2}, Worktree: *i.Worktree}, nil
		}
	}
	return runs.DiffResult{}, fmt.Errorf("diff %s: %w", id, runs.ErrNoWorktree)
}
func (f *fakeEngine) Finish(_ context.Context, id string, o runs.FinishOptions) (runs.FinishResult, error) {
	err := f.note("Finish", id, fmt.Sprintf("%+v", o))
	res := runs.FinishResult{ID: id, Finished: workspace.Finished{Removed: true, Branch: "corral/" + id}}
	return res, err
}
func (f *fakeEngine) Subscribe() ([]runs.Info, *runs.Subscription) {
	panic("ui never subscribes through its engine")
}

// Capture answers with the run's screen's Scrollback, or, for a run without a
// screen in screens, runs.ErrNoScreen.
func (f *fakeEngine) Capture(id string, _, _ bool) (runs.Capture, error) {
	if err := f.note("Capture", id); err != nil {
		return runs.Capture{}, err
	}
	f.mu.Lock()
	s := f.screens[id]
	f.mu.Unlock()
	if s == nil {
		return runs.Capture{}, fmt.Errorf("%s: %w", id, runs.ErrNoScreen)
	}
	return runs.Capture{ID: id, Lines: s.Scrollback()}, nil
}
func (f *fakeEngine) Hook(id string, _ agentstate.HookReport) error { return f.note("Hook", id) }
func (f *fakeEngine) Explain(id string) (agentstate.Explanation, error) {
	return agentstate.Explanation{}, f.note("Explain", id)
}
func (f *fakeEngine) WaitAgent(_ context.Context, id string, _ []agentstate.State) (runs.Info, bool, error) {
	return runs.Info{}, false, f.note("WaitAgent", id)
}
func (f *fakeEngine) Restart(id string) (string, error) { return id, f.note("Restart", id) }
func (f *fakeEngine) WaitCondition(_ context.Context, id string, _ runs.Condition) (runs.Info, bool, error) {
	return runs.Info{}, false, f.note("WaitCondition", id)
}
func (f *fakeEngine) SubmitReady(_ context.Context, id, _ string, _ time.Duration) (runs.SubmitResult, error) {
	return runs.SubmitResult{}, f.note("SubmitReady", id)
}

func (f *fakeEngine) Viewer() string { return "ui" }

// Focus is kept apart from the calls, like Watch: which run the UI shows.
func (f *fakeEngine) Focus(id, viewer string, focused bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.focus = append(f.focus, fmt.Sprintf("%s %s %v", id, viewer, focused))
	return nil
}

func (f *fakeEngine) Snapshot() []runs.Info { f.note("Snapshot"); return slices.Clone(f.snap) }

// History is the log's recent events, as a reattached client.Remote has them.
func (f *fakeEngine) History() []runs.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.history)
}

// SnapshotFor is every run, every time: the fake keeps nothing per viewer.
func (f *fakeEngine) SnapshotFor(string, bool) []runs.Info { return f.Snapshot() }
func (f *fakeEngine) Spawn(s runs.Spec) (string, error) {
	err := f.note("Spawn", s.Shell)
	f.mu.Lock()
	f.specs = append(f.specs, s)
	f.mu.Unlock()
	return f.spawnID, err
}
func (f *fakeEngine) Cancel(id string) error              { return f.note("Cancel", id) }
func (f *fakeEngine) Stop(id string, r runs.Reason) error { return f.note("Stop", id, r) }
func (f *fakeEngine) Interrupt(id string) error           { return f.note("Interrupt", id) }
func (f *fakeEngine) Pause(id string) error               { return f.note("Pause", id) }
func (f *fakeEngine) Resume(id string) error              { return f.note("Resume", id) }
func (f *fakeEngine) Paste(id, text string) error {
	return f.note("Paste", id, fmt.Sprintf("%q", text))
}
func (f *fakeEngine) Submit(id, text string) error {
	return f.note("Submit", id, fmt.Sprintf("%q", text))
}
func (f *fakeEngine) Resize(id string, c, r uint16) error { return f.note("Resize", id, c, r) }

// ResizeFor is a Resize when the run is not that size yet, as a supervisor with one
// viewer does.
func (f *fakeEngine) ResizeFor(id, _ string, c, r uint16) error {
	f.mu.Lock()
	i := slices.IndexFunc(f.snap, func(i runs.Info) bool { return i.ID == id })
	same := i >= 0 && f.snap[i].Cols == c && f.snap[i].Rows == r
	f.mu.Unlock()
	if same {
		return nil
	}
	return f.Resize(id, c, r)
}

// Show and Active are the window-size bookkeeping: kept apart from the calls.
func (f *fakeEngine) Show(viewer, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shows = append(f.shows, viewer+" "+id)
	return nil
}
func (f *fakeEngine) Active(string, string)              {}
func (f *fakeEngine) Remove(id string) error             { return f.note("Remove", id) }
func (f *fakeEngine) Shutdown(ctx context.Context) error { return f.note("Shutdown") }
func (f *fakeEngine) Metrics() runs.Metrics {
	f.note("Metrics")
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.metrics // new maps each call, as the supervisor's snapshot has
	m.ExitTotal, m.TimeoutTotal = maps.Clone(m.ExitTotal), maps.Clone(m.TimeoutTotal)
	m.CleanupKillTotal = maps.Clone(m.CleanupKillTotal)
	return m
}

// Watch is kept apart from the calls: tests of the other calls need not list it.
func (f *fakeEngine) Watch(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watched = append(f.watched, id)
	return nil
}

func (f *fakeEngine) Screen(id string) (screen.View, error) {
	err := f.note("Screen", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.screens[id]; s != nil {
		return s, err
	}
	return nil, err
}
func (f *fakeEngine) Write(id string, b []byte) error {
	err := f.note("Write", id, fmt.Sprintf("%q", b))
	f.mu.Lock()
	f.written[id] = append(f.written[id], b...)
	f.mu.Unlock()
	return err
}

// SendKeys, as the supervisor's, encodes the items with the modes of the run's screen
// as it is now (none without one) and writes them.
func (f *fakeEngine) SendKeys(id string, items []keys.Item) error {
	if err := f.note("SendKeys", id, len(items)); err != nil {
		return err
	}
	f.mu.Lock()
	f.items = append(f.items, items)
	var m keys.Modes
	if s := f.screens[id]; s != nil {
		m = s.Modes()
	}
	f.mu.Unlock()
	b, err := keys.EncodeItems(items, m)
	if err != nil {
		return err
	}
	return f.Write(id, b)
}

// Restore answers a dry run from lost (no call noted: every UI start makes one);
// a restore is noted with its ids and restores each as r<ID>.
func (f *fakeEngine) Restore(ctx context.Context, o runs.RestoreOptions) ([]runs.Restored, error) {
	if o.DryRun {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.leaseWait > 0 && o.NoWait && o.Waiting != nil {
			o.Waiting(len(f.lost), f.leaseWait)
			f.leaseWait = 0
			return nil, nil
		}
		var out []runs.Restored
		for _, r := range f.lost {
			if !r.Fresh {
				r.Skipped = runs.SkippedDryRun
			} else if !o.Fresh {
				r.Skipped = "no conversation id was recorded"
			}
			out = append(out, r)
		}
		return out, nil
	}
	err := f.note("Restore", strings.Join(o.IDs, ",")+map[bool]string{true: " --fresh"}[o.Fresh])
	var out []runs.Restored
	for _, r := range f.lost {
		if slices.Contains(o.IDs, r.From) {
			r.ID = "r" + r.From
			out = append(out, r)
		}
	}
	return out, err
}

func (f *fakeEngine) Reconcile(ctx context.Context) ([]runs.Decision, error) {
	err := f.note("Reconcile")
	return f.decisions, err
}
func (f *fakeEngine) Trees(ids ...string) (map[string][]reaper.TreeProc, error) {
	err := f.note("Trees", strings.Join(ids, ","))
	return f.trees, err
}
func (f *fakeEngine) Log(id string) (runs.Output, error) {
	err := f.note("Log", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.logs[id], err
}

// t0 is the fixed clock of every test; liveRun is a running run with armed
// deadlines, endedRun a cancelled one.
var (
	t0                = uitest.T0
	liveRun, endedRun = uitest.LiveRun, uitest.EndedRun
)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// harness is a root model under test with its fake engine and clock.
type harness struct {
	t      *testing.T
	m      Model
	engine *fakeEngine
	clk    *clock
}

// newHarness builds a model over engine, sized w×h, with ticks disabled (tests deliver
// tickMsg themselves) and Init's commands run.
func newHarness(t *testing.T, engine *fakeEngine, w, h int, initial ...runs.Info) *harness {
	t.Helper()
	return harnessWith(t, engine, Options{Initial: initial, Empty: "No runs. Press n to start one, or run corral -- CMD."}, w, h)
}

// harnessWith is newHarness with the model's options given (its Engine is engine).
func harnessWith(t *testing.T, engine *fakeEngine, o Options, w, h int) *harness {
	t.Helper()
	clk := &clock{t: t0}
	o.Engine = engine
	m, err := newModel(o, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	hs := &harness{t: t, m: m, engine: engine, clk: clk}
	hs.run(m.Init())
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// send delivers msgs and runs every command they return, feeding the commands'
// messages back, until nothing is left. It returns the messages the commands produced.
func (h *harness) send(msgs ...tea.Msg) []tea.Msg {
	h.t.Helper()
	var produced []tea.Msg
	queue := slices.Clone(msgs)
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 1000 {
			h.t.Fatal("messages never settle")
		}
		msg := queue[0]
		queue = queue[1:]
		next, cmd := h.m.Update(msg)
		h.m = next.(Model)
		out := h.collect(cmd)
		produced = append(produced, out...)
		for _, o := range out {
			if _, quit := o.(tea.QuitMsg); !quit {
				queue = append(queue, o)
			}
		}
	}
	return produced
}

// run runs a command (and its batch) and feeds the results back.
func (h *harness) run(cmd tea.Cmd) []tea.Msg {
	out := h.collect(cmd)
	return append(out, h.send(out...)...)
}

// collect executes a command tree and returns its messages.
func (h *harness) collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, h.collect(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// key sends a key by its Bubble Tea name ("enter", "ctrl+]", "x", "S").
func (h *harness) key(names ...string) []tea.Msg {
	var out []tea.Msg
	for _, n := range names {
		out = append(out, h.send(keyMsg(n))...)
	}
	return out
}

// keyMsg builds the KeyPressMsg whose String() is name.
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "space": {Code: tea.KeySpace, Text: " "},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "backspace": {Code: tea.KeyBackspace},
		"ctrl+]": {Code: ']', Mod: tea.ModCtrl}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"home":      {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
		"ctrl+f": {Code: 'f', Mod: tea.ModCtrl}, "ctrl+b": {Code: 'b', Mod: tea.ModCtrl},
		"ctrl+d": {Code: 'd', Mod: tea.ModCtrl}, "ctrl+u": {Code: 'u', Mod: tea.ModCtrl},
	}
	if k, ok := special[name]; ok {
		return tea.KeyPressMsg(k)
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// typeText sends each rune as a key press.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// view renders the frame and returns its text without styles.
func (h *harness) view() string {
	return stripANSI(h.m.View().Content)
}

// ptyOutput gives PTY run id the output out: its log, and a screen (80×24, keeping
// a history) written with it, whose scrollback is what scroll mode reads.
func (f *fakeEngine) ptyOutput(id string, out runs.Output) {
	s := screen.NewScreen(80, 24)
	s.SetHistoryLimit(10_000)
	for _, c := range out.Chunks {
		s.Write(c.Data)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs[id], f.screens[id] = out, s
}
