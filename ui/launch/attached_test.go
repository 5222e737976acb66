//go:build unix

package launch

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
	"corral/runs/server/servertest"
	"corral/ui"
)

// A UI attached with its first rows only (the rest of the runs on their way) starts
// the configured runs its server does not run once every run is listed, and each
// once: a configured run that runs already, listed after the first rows, is not
// started again, and one that does not run is started once.
// firstRows is a server of 31 runs, the last a configured run svc, and a client
// attached with the first 10 of them (the others on their way); fresh is configured
// and runs nowhere.
type firstRows struct {
	dir        string
	sup        *runs.Supervisor
	engine     *client.Remote
	svc, fresh runs.Spec
}

// live counts the live runs named name.
func (f firstRows) live(name string) int {
	n := 0
	for _, i := range f.sup.Snapshot() {
		if i.Name == name && !i.Ended() {
			n++
		}
	}
	return n
}

// overFirstRows starts a firstRows, stopped and shut down at the test's end.
func overFirstRows(t *testing.T) firstRows {
	t.Helper()
	dir := t.TempDir()
	sup := servertest.Supervisor(t, dir)
	argv, env := demo.Child("sleep")
	svc := runs.Spec{Name: "svc", Argv: argv, Env: env}
	fresh := runs.Spec{Name: "fresh", Argv: argv, Env: env}
	for range 30 {
		if _, err := sup.Spawn(runs.Spec{Argv: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sup.Spawn(svc); err != nil { // the 31st run: not among the first rows
		t.Fatal(err)
	}
	servertest.Serve(t, sup, dir)

	engine, err := client.AttachFirst(dir, 10, func() error { return errors.New("no server") }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	if len(engine.Initial()) != 10 || engine.Rest().Runs != 21 {
		t.Fatalf("attached with %d runs, the rest %+v", len(engine.Initial()), engine.Rest())
	}
	return firstRows{dir: dir, sup: sup, engine: engine, svc: svc, fresh: fresh}
}

func TestConfiguredRunsStartOnceOverAListInTwoParts(t *testing.T) {
	f := overFirstRows(t)
	engine, svc, fresh, live := f.engine, f.svc, f.fresh, f.live
	m, later, err := attachedModel(engine, Target{Dir: f.dir}, Runs{Start: []runs.Spec{svc, fresh}, Configured: []runs.Spec{svc, fresh}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if later == nil {
		t.Fatal("over the first rows of a longer list, the configured runs did not wait for the rest")
	}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	ran := make(chan struct{})
	go func() { defer close(ran); p.Run() }()
	defer func() { p.Quit(); <-ran }()
	ctx, cancel := context.WithCancel(context.Background())
	bridged := make(chan struct{})
	go func() { defer close(bridged); ui.Bridge(ctx, engine.Events(), p.Send, 0) }()
	defer func() { cancel(); <-bridged }()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 30})

	// fresh is started after svc would be (config order): once it runs, both were decided.
	eventually.True(t, 20*time.Second, "the configured run that did not run started", func() bool { return live("fresh") > 0 })
	if n, k := live("svc"), live("fresh"); n != 1 || k != 1 {
		t.Errorf("%d runs of svc (it ran already: want 1) and %d of fresh (want 1)", n, k)
	}
	// A signal after the UI started them (its finish) starts nothing more.
	later.finish(engine)
	if n, k := live("svc"), live("fresh"); n != 1 || k != 1 {
		t.Errorf("after the UI started them and a signal ended it: %d runs of svc and %d of fresh (want 1 each)", n, k)
	}

	// corral web's engine (Open) starts from every run: its hub lists them at once.
	web, err := Open(Target{Dir: f.dir})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	if n, want := len(web.Initial()), len(f.sup.Snapshot()); n != want {
		t.Errorf("corral web's engine starts from %d runs of %d", n, want)
	}
}

// A signal (the terminal closed) that ends the UI over the first rows, before every
// run is listed, is a detach, which keeps what was asked: the configured runs the
// server does not run are started then, from every run, each once.
func TestASignalBeforeTheListIsWholeStartsTheRunsAskedFor(t *testing.T) {
	f := overFirstRows(t)
	_, later, err := attachedModel(f.engine, Target{Dir: f.dir}, Runs{Start: []runs.Spec{f.svc, f.fresh}, Configured: []runs.Spec{f.svc, f.fresh}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	later.finish(f.engine) // the UI ended before its list was whole: it started nothing
	if n, k := f.live("svc"), f.live("fresh"); n != 1 || k != 1 {
		t.Errorf("%d runs of svc (it ran already: want 1) and %d of fresh (want 1)", n, k)
	}
	// The UI's own start, late (its command ran after the signal), starts nothing more.
	if id := later.run(f.sup.Snapshot()); id != "" {
		t.Errorf("a second start selected %q", id)
	}
	if n, k := f.live("svc"), f.live("fresh"); n != 1 || k != 1 {
		t.Errorf("started twice: %d runs of svc and %d of fresh (want 1 each)", n, k)
	}
}

// An attach with its first rows builds a UI whose first frame shows what came with
// them: the counters of the reply (here 31 runs spawned), before any read of its own.
func TestAttachedModelsFirstFrameHasTheReplysCounters(t *testing.T) {
	f := overFirstRows(t)
	m, _, err := attachedModel(f.engine, Target{Dir: f.dir}, Runs{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50}) // its commands not run: nothing read yet
	if view := ansi.Strip(next.View().Content); !strings.Contains(view, "spawned 31") {
		t.Errorf("the first frame lacks the reply's counters (spawned 31):\n%s", view)
	}
}

// firstEngine is an engine attached with its first runs, as client.Remote.
type firstEngine struct {
	rest    api.RunSummary
	widest  []runs.Info
	metrics *runs.Metrics
	trees   map[string][]reaper.TreeProc
	screen  screen.View
}

func (e firstEngine) Rest() api.RunSummary { return e.rest }
func (e firstEngine) Widest() []runs.Info  { return e.widest }
func (e firstEngine) FirstReads() (*runs.Metrics, map[string][]reaper.TreeProc, screen.View) {
	return e.metrics, e.trees, e.screen
}

// What an engine read with its first runs lands in the UI's options: the rest's
// count and widest runs (those only with a rest), the counters, the tree, the screen.
func TestWithFirstReads(t *testing.T) {
	e := firstEngine{rest: api.RunSummary{Runs: 5}, widest: []runs.Info{{ID: "r5"}}, metrics: &runs.Metrics{SpawnTotal: 9},
		trees: map[string][]reaper.TreeProc{"r0": nil}, screen: screen.NewScreen(80, 24)}
	var o ui.Options
	withFirstReads(&o, e)
	if o.Unlisted.Runs != 5 || len(o.Widest) != 1 || o.Metrics != e.metrics || len(o.Trees) != 1 || o.Screen == nil {
		t.Errorf("options: unlisted %+v, widest %v, metrics %v, trees %v, screen %v", o.Unlisted, o.Widest, o.Metrics, o.Trees, o.Screen)
	}
	e.rest = api.RunSummary{}
	o = ui.Options{}
	withFirstReads(&o, e)
	if o.Widest != nil {
		t.Errorf("widest runs with no rest: %v", o.Widest)
	}
	o = ui.Options{}
	withFirstReads(&o, struct{}{}) // an engine with every run (the fleet's, a reattach's)
	if o.Unlisted.Runs != 0 || o.Widest != nil || o.Metrics != nil || o.Trees != nil || o.Screen != nil {
		t.Errorf("options from an engine with no first reads: %+v", o)
	}
}
