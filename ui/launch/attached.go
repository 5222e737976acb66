package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"corral/config"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
	"corral/runs/server"
	"corral/ui"
	"corral/ui/frame"
)

// Target is where an attached UI's runs are: this machine's server for the state dir
// Dir ("" for none), and servers on other hosts over ssh. This machine's server alone
// is attached as it always was; any other host through a client.Fleet,
// which keeps each host attached, tried again when it drops, one UI over all.
type Target struct {
	Dir   string
	Hosts []client.Host
}

// several reports whether the target is more than one server.
func (t Target) several() bool { return len(t.Hosts) > 1 || len(t.Hosts) == 1 && t.Dir != "" }

// where says the target for a message: the state dir, the host, or the hosts.
func (t Target) where() string {
	switch {
	case t.several():
		return fmt.Sprintf("%d hosts", len(t.Hosts)+min(len(t.Dir), 1))
	case len(t.Hosts) == 1:
		return "host " + t.Hosts[0].Name
	}
	return t.Dir
}

// attachedEngine is what an attached UI runs on: one server's client.Remote, or a
// client.Fleet over several.
type attachedEngine interface {
	ui.Engine
	Events() <-chan runs.Event
	Initial() []runs.Info
	History() []runs.Event
	Close() error
}

// Open is what an attached UI runs on, for another client of the same target (corral
// web): this machine's server alone as one Remote, else a client.Fleet over every
// host; as attach, with every run in its Initial (the web page's hub starts from all
// of them).
func Open(t Target) (attachedEngine, error) {
	return attach(t, 0)
}

// attach attaches to the target's server, or servers: a host that cannot be reached
// does not keep the UI from opening over the others; with no server reached at all
// (hosts over ssh only, none answering) it fails with why. With first > 0, this
// machine's server alone sends the first first runs before the others
// (client.AttachFirst): a UI's first frame needs only the rows it shows.
func attach(t Target, first int) (attachedEngine, error) {
	if len(t.Hosts) == 0 && first > 0 {
		dir := t.Dir
		return client.AttachFirst(dir, first, func() error { return server.StartSelf(dir) }, 10*time.Second)
	}
	if len(t.Hosts) == 0 {
		return client.AttachTo(t.Dir, "", "", server.StartSelf)
	}
	var ms []client.Member
	if t.Dir != "" {
		dir := t.Dir
		ms = append(ms, client.Local(dir, func() error { return server.StartSelf(dir) }))
	}
	for _, h := range t.Hosts {
		ms = append(ms, client.Over(h))
	}
	f, err := client.OpenFleet(ms)
	if err != nil || t.Dir != "" {
		return f, err
	}
	var why []error
	for _, h := range f.Hosts() {
		switch h.Status {
		case api.HostConnected, api.HostConnecting, api.HostLost:
			return f, nil
		}
		why = append(why, errors.New(h.Err))
	}
	f.Close()
	return nil, errors.Join(why...)
}

// AttachTarget is what corral attach attaches to: without --ssh, this machine's
// server for dir and every configured host's; else the hosts --ssh names (dests): a
// configured host by its name, local for this machine's, and any other word an ssh
// destination, with the state dir given (which is then theirs).
func AttachTarget(dir, stateDir string, dests []string, configured []client.Host) (Target, error) {
	if len(dests) == 0 {
		return Target{Dir: dir, Hosts: configured}, nil
	}
	var t Target
	for i, d := range dests {
		if d == "" || slices.Contains(dests[:i], d) {
			return t, usage(fmt.Errorf("--ssh %q: give each host once", d))
		}
		if d == config.LocalHost {
			t.Dir = dir
			continue
		}
		if k := slices.IndexFunc(configured, func(h client.Host) bool { return h.Name == d }); k >= 0 {
			t.Hosts = append(t.Hosts, configured[k])
			continue
		}
		t.Hosts = append(t.Hosts, client.Host{Name: d, SSH: d, StateDir: stateDir})
	}
	return t, nil
}

// Attached is the terminal UI as a client of the target's server or servers: it
// starts rs's runs on this machine's server unless it already runs them, and the runs
// of always (-- CMD) in any case; quitting detaches: every run goes on in its server,
// and so they do when the terminal closes (SIGHUP) or Corral is told to stop; the
// shutdown key ends them.
func Attached(t Target, rs Runs, always []runs.Spec) error {
	if !isTerminal() {
		return usage(fmt.Errorf("%w (corral run, spawn and poll work without one)", ErrNoTerminal))
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	// The subscription's snapshot (a thousand runs are over a megabyte of JSON) and the
	// model made of it are most of what the client allocates before its first frame:
	// the collector, at its default, ran several cycles over them, a sixth of the
	// client's CPU to that frame at a thousand runs. It runs at its default again once
	// the model is made, or, when the server sent the first rows first, once the
	// runs after them are listed: they are the rest of that snapshot (at a thousand
	// runs, decoded at the default, ~10 ms more of the client's CPU, and the first
	// frame's last reads drawn after them).
	gc := debug.SetGCPercent(startGCPercent)
	restore := sync.OnceFunc(func() { debug.SetGCPercent(gc) })
	defer restore()
	// The run list shows fewer rows than the terminal has: the first that many runs
	// draw the first frame, the others come after it.
	_, rows, _ := term.GetSize(int(os.Stdout.Fd()))
	core, err := attach(t, rows)
	if err != nil {
		return err
	}
	defer core.Close()
	m, later, err := attachedModel(core, t, rs, always)
	if err != nil {
		return usage(err)
	}
	if l, ok := core.(listing); !ok || l.Rest().Runs == 0 {
		restore()
	}
	p := frame.NewProgram(m, tea.WithoutSignalHandler())
	send := func(msg tea.Msg) {
		if l, ok := msg.(ui.ListedMsg); !ok || l.Whole { // every run listed, or the listing cut short
			restore()
		}
		p.Send(msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := make(chan struct{})
	go func() {
		// Frame 0: the server paced the frames (package pacer); they are shown at once.
		ui.Bridge(ctx, core.Events(), send, 0)
		close(gone) // the stream ended: the server stopped or died
		p.Quit()
	}()
	signalled := make(chan struct{})
	go func() {
		select {
		case <-sigs: // the terminal closed, or we were told to stop: detach
			close(signalled)
			p.Quit()
		case <-ctx.Done():
		}
	}()
	final, err := p.Run()
	if err != nil {
		return err
	}
	fm, _ := final.(ui.Model)
	if isClosed(signalled) && !isClosed(gone) && !fm.ShuttingDown() {
		later.finish(core)
	}
	return left(fm, isClosed(gone) && !isClosed(signalled), t)
}

// startGCPercent is the collector's GOGC while an attach reads its first snapshot.
const startGCPercent = 400

// attachedModel starts the runs the server does not run yet (sized for this
// terminal; over several hosts, on this machine's) and builds the UI over core. Over
// the first rows of a longer list they start once every run is listed, through the
// returned startLater (nil when they started already).
func attachedModel(engine attachedEngine, t Target, rs Runs, always []runs.Spec) (ui.Model, *startLater, error) {
	local := t.Dir // "" over ssh alone: the kept layout is in the state dir, which is on the host
	kept, keptPath := prefs(local)
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	ctx := context.Background()
	if t.Dir != "" && len(t.Hosts) > 0 {
		ctx = api.OnHost(ctx, config.LocalHost)
	}
	// start starts the configured runs that are not among every run (all), then
	// always's, and returns the run to select: the last of always's.
	start := func(all []runs.Info) (selectID string) {
		begin := notRunning(rs.Start, all)
		for i, s := range append(begin, always...) {
			// A spawn error is a run ended with spawn-error, shown in the UI.
			rep, _ := api.Spawn.Call(ctx, engine, api.Here(ui.SizedForTerminal(s, w, h, kept)))
			if i >= len(begin) {
				selectID = rep.ID // corral -- CMD opens on the run it started
			}
		}
		return selectID
	}
	empty := "No runs in this server. Press n to start one, or corral spawn one from a script."
	if t.several() {
		empty = "No runs on these hosts. Press n to start one, or corral spawn --host NAME one from a script."
	}
	o := ui.Options{Engine: engine, Initial: engine.Initial(), History: engine.History(), Detachable: true, Keys: rs.Keys, Notify: rs.Notify.Terminal,
		Pending: rs.Pending, Configured: rs.Configured, Mouse: rs.Mouse, InTmux: os.Getenv("TMUX") != "", Prefs: kept, PrefsPath: keptPath,
		Empty: empty}
	withFirstReads(&o, engine)
	var later *startLater
	if o.Unlisted.Runs > 0 && len(rs.Start) > 0 {
		// Which configured runs the server runs already is known from every run
		// only: started from the first rows, a run among the others would start twice.
		later = &startLater{start: start, done: make(chan struct{})}
		o.WhenListed = later.run
	} else {
		o.Select = start(engine.Initial())
	}
	m, err := ui.New(o)
	return m, later, err
}

// withFirstReads gives o what an engine attached with its first runs read with them:
// the count of the rest and its widest runs, the counters, the first run's tree and
// screen, each when the engine has it, so the UI's first frame shows them.
func withFirstReads(o *ui.Options, engine any) {
	if l, ok := engine.(listing); ok {
		o.Unlisted = l.Rest()
	}
	if w, ok := engine.(widest); ok && o.Unlisted.Runs > 0 {
		o.Widest = w.Widest()
	}
	if f, ok := engine.(firstReads); ok {
		o.Metrics, o.Trees, o.Screen = f.FirstReads()
	}
}

// startLater starts the runs asked for (the config's, corral -- CMD's) once every run
// is listed, once: by the UI when its list is whole (Options.WhenListed), or, when a
// signal ended the UI before that (the terminal closed in the first frames of an
// attach to a thousand runs), by finish from a listing of every run. The user asked
// for them and a closed terminal is a detach, which keeps what was asked; the detach
// key pressed twice is the user leaving without them, and starts nothing.
type startLater struct {
	start func([]runs.Info) string
	begun atomic.Bool
	done  chan struct{}
}

// run starts the runs over every run (all), unless they are starting or started
// already: then it waits for that and returns "" (no run to select).
func (l *startLater) run(all []runs.Info) string {
	if !l.begun.CompareAndSwap(false, true) {
		<-l.done
		return ""
	}
	defer close(l.done)
	return l.start(all)
}

// finish starts the runs now, after the UI ended, from every run as the server lists
// them, unless the UI started them (then it waits for that: the UI's command may still
// be spawning them). A server that does not answer the listing starts nothing.
func (l *startLater) finish(engine attachedEngine) {
	if l == nil {
		return
	}
	if l.begun.Load() {
		<-l.done
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rep, err := api.List.Call(ctx, engine, struct{}{})
	if err != nil {
		return
	}
	l.run(rep.Runs)
}

// listing is an engine whose Initial may be the first runs only (client.Remote after
// AttachFirst): Rest counts the others, which its events bring (api.EventListed).
type listing interface{ Rest() api.RunSummary }

// widest is a listing engine that also names the widest of the runs Rest counts.
type widest interface{ Widest() []runs.Info }

// firstReads is an engine that read the counters and the first run's tree with its
// first runs (client.Remote.FirstReads).
type firstReads interface {
	FirstReads() (*runs.Metrics, map[string][]reaper.TreeProc, screen.View)
}

// left says how the UI was left: every run ended (the shutdown key), the server gone
// under it (serverGone, not by a signal: ErrServerEnded), or detached.
func left(fm ui.Model, serverGone bool, t Target) error {
	switch {
	case fm.ShuttingDown() && fm.ShutdownErr() != nil: // the server lost, say: nothing was ended
		return fm.ShutdownErr()
	case fm.ShuttingDown() && t.several():
		fmt.Fprintln(os.Stderr, "corral: every run on every connected host ended")
	case fm.ShuttingDown():
		fmt.Fprintln(os.Stderr, "corral: every run ended; the server stopped")
	case serverGone && !fm.Detached():
		return ErrServerEnded
	case t.several():
		fmt.Fprintf(os.Stderr, "corral: detached from %s; their runs keep running (corral attach to come back)\n", t.where())
	default:
		fmt.Fprintf(os.Stderr, "corral: detached from %s; its runs keep running (corral attach to come back)\n", t.where())
	}
	return nil
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
