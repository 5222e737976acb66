//go:build linux

package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/runs"
	"corral/runs/client"
	"corral/runs/server/servertest"
)

// The end-to-end benchmarks (flood, latency, streaming) run the real pipeline: a
// runs.Supervisor with screens, transcripts and casts, Bridge coalescing its output
// events, and a Model driven by liveLoop the way Bubble Tea drives it. Only the
// terminal writes of Bubble Tea's renderer are left out: tmux, which they are compared
// with, draws nothing either when no client is attached.

// benchWinW×benchWinH is the window whose terminal pane is 120×40 inside its border,
// the size the runs are started at, so the UI never resizes them mid-measurement and
// the flood's final screen is tmux's at the same size. It is found from the layout
// itself: a fixed 186×51 gave a 129-column pane once the left column's share changed
// (when the side panes were made narrower), and the flood's check and its comparison with tmux both broke.
var benchWinW, benchWinH = windowFor(120, 40)

// windowFor is the smallest window whose default layout's terminal pane is
// cols×rows inside its border.
func windowFor(cols, rows int) (int, int) {
	for h := rows + 3; h < 4*rows; h++ {
		for w := cols + 2; w < 4*cols; w++ {
			t := computeLayout(w, h, 1, false, panesAll).term
			if t.w-2 == cols && t.h-2 == rows {
				return w, h
			}
		}
	}
	panic(fmt.Sprintf("no window has a %d×%d terminal pane", cols, rows))
}

// liveLoop applies messages to a Model on one goroutine, runs every command it
// returns on a goroutine of its own and feeds the result back, and calls View after
// every message, as Bubble Tea's event loop does.
type liveLoop struct {
	in     chan tea.Msg
	done   chan struct{}
	exited chan struct{}
	m      Model
	frames atomic.Int64
	// onFrame, if set, is called on the loop goroutine after each View.
	onFrame func(m Model, v tea.View)
}

// syncMsg asks the loop to run f on its goroutine (with the newest model) once every
// message sent before it has been applied.
type syncMsg struct{ f func(m Model) }

func startLoop(b testing.TB, engine Engine, initial []runs.Info, onFrame func(Model, tea.View)) *liveLoop {
	b.Helper()
	return startLoopWith(b, Options{Engine: engine, Initial: initial}, onFrame)
}

// startLoopWith is startLoop with the model's options given.
func startLoopWith(b testing.TB, o Options, onFrame func(Model, tea.View)) *liveLoop {
	b.Helper()
	m, err := newModel(o, nil)
	if err != nil {
		b.Fatal(err)
	}
	l := &liveLoop{in: make(chan tea.Msg, 64), done: make(chan struct{}), exited: make(chan struct{}),
		m: m, onFrame: onFrame}
	go l.run()
	l.exec(m.Init())
	l.send(tea.WindowSizeMsg{Width: benchWinW, Height: benchWinH})
	return l
}

func (l *liveLoop) send(msg tea.Msg) {
	select {
	case l.in <- msg:
	case <-l.done:
	}
}

// do runs f on the loop goroutine after everything sent so far, and waits for it.
func (l *liveLoop) do(f func(m Model)) {
	ran := make(chan struct{})
	l.send(syncMsg{f: func(m Model) { f(m); close(ran) }})
	select {
	case <-ran:
	case <-l.exited:
	}
}

func (l *liveLoop) stop() {
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	<-l.exited
}

func (l *liveLoop) run() {
	defer close(l.exited)
	for {
		select {
		case msg := <-l.in:
			if s, ok := msg.(syncMsg); ok {
				s.f(l.m)
				continue
			}
			next, cmd := l.m.Update(msg)
			l.m = next.(Model)
			l.exec(cmd)
			v := l.m.View()
			l.frames.Add(1)
			if l.onFrame != nil {
				l.onFrame(l.m, v)
			}
		case <-l.done:
			return
		}
	}
}

func (l *liveLoop) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				l.exec(c)
			}
			return
		}
		if msg != nil {
			l.send(msg)
		}
	}()
}

// liveEngine is a supervisor set up as main's runUI sets it up (registry, log dir,
// screens) with a transcript cap of transcriptCap bytes, and, once attached, a live
// loop fed by Bridge (16 ms frames, as in main). close ends all of it.
type liveEngine struct {
	sup   *runs.Supervisor
	reg   *runs.Registry
	dir   string
	loop  *liveLoop
	sub   *runs.Subscription
	stopB func()
	// unserve stops the server and detaches, for a loop attached through a socket.
	unserve func()
	// stream, set before attaching through a socket, carries the attachment's stream:
	// a test holds it to keep the UI's frames older than what the runs did since.
	stream *holdableConn
}

func newLiveEngine(b testing.TB, transcriptCap int64) *liveEngine {
	b.Helper()
	dir, err := os.MkdirTemp("", "corral-bench-")
	if err != nil {
		b.Fatal(err)
	}
	d := config.Default()
	d.TranscriptCap = transcriptCap
	reg, err := runs.OpenRegistry(filepath.Join(dir, "state"), d)
	if err != nil {
		b.Fatal(err)
	}
	sup, err := runs.New(runs.WithDefaults(d), runs.WithRegistry(reg), runs.WithScreens(),
		runs.WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		b.Fatal(err)
	}
	return &liveEngine{sup: sup, reg: reg, dir: dir}
}

// attach starts the live loop and the bridge that feeds it.
func (c *liveEngine) attach(b testing.TB, onFrame func(Model, tea.View)) *liveLoop {
	return c.attachVia(b, onFrame, false)
}

// attachVia is attach in process, or, remote, through a server on a socket: the
// loop's engine is then a client.Remote, as under corral attach.
func (c *liveEngine) attachVia(b testing.TB, onFrame func(Model, tea.View), remote bool) *liveLoop {
	var engine Engine = Local{c.sup}
	snap, sub := c.sup.Subscribe()
	c.sub = sub
	events, frame := sub.C, 16*time.Millisecond
	if remote { // paced by the server, as under corral attach
		rem := c.serve(b)
		engine, snap, events, frame = rem, rem.Initial(), rem.Events(), 0
	}
	c.loop = startLoop(b, engine, snap, onFrame)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { Bridge(ctx, events, c.loop.send, frame) })
	c.stopB = func() { cancel(); wg.Wait() }
	return c.loop
}

// serve serves the supervisor on a socket in the bench dir and attaches to it.
func (c *liveEngine) serve(b testing.TB) *client.Remote {
	stop := servertest.Serve(b, c.sup, c.dir)
	var rem *client.Remote
	var err error
	if c.stream == nil {
		rem, err = client.Attach(c.dir, func() error { return errors.New("no server") }, time.Second)
	} else {
		rem, err = client.AttachWith(c.stream.dialThird(c.dir))
	}
	if err != nil {
		b.Fatal(err)
	}
	c.unserve = func() { rem.Close(); stop() }
	return rem
}

func (c *liveEngine) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if c.stopB != nil {
		c.stopB()
	}
	if c.unserve != nil {
		c.unserve()
	}
	if c.loop != nil {
		c.loop.stop()
	}
	c.sup.Shutdown(ctx)
	if c.sub != nil {
		c.sub.Close()
	}
	c.reg.Close()
	os.RemoveAll(c.dir)
}

// writeEnv writes data to the file named by environment variable env, if set: the
// driver script (.ci/bench) collects results this way.
func writeEnv(b testing.TB, env string, data []byte) {
	if path := os.Getenv(env); path != "" {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
