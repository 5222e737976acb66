package main

// The private tmux server the end-to-end tests drive the real binary in.

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// tmuxTerm is a private tmux server (its own socket) showing one window that runs a
// command. The tests drive it with send-keys and read it with capture-pane, as a
// person at a terminal would; the server is killed by its socket when the test ends,
// and its socket's directory (TMUX_TMPDIR, the test's own) removed: tmux leaves the
// socket file of a killed server behind.
type tmuxTerm struct {
	t    testing.TB
	sock string
	dir  string    // TMUX_TMPDIR
	last time.Time // when keys were last sent
}

var tmuxCount atomic.Int32

func startTmux(t testing.TB, w, h int, cmdline string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed (.ci/run installs it)")
		}
		t.Skip("tmux not installed")
	}
	// Short, as a socket path must be: not t.TempDir(), which holds the test's name.
	dir, err := os.MkdirTemp("", "ctmux")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	x := &tmuxTerm{t: t, sock: fmt.Sprintf("corral-test-%d", tmuxCount.Add(1)), dir: dir}
	// The pane outlives the command, so its exit code and last screen can be read.
	shell := cmdline + "; echo CORRAL-EXIT=$?; sleep 600"
	x.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), shell)
	t.Cleanup(func() {
		// The pane's processes (the Corral under test) end on the server's hangup, but
		// not at once: one still shutting down writes into a state dir that t.TempDir's
		// cleanup, which runs next, is removing (CI saw "directory not empty").
		pane := x.paneProcs()
		x.command("kill-server").Run()
		for _, p := range pane {
			eventually.True(t, 20*time.Second, fmt.Sprintf("the pane's %s (pid %d) to end", p.Comm, p.PID), func() bool {
				now, err := reaper.ReadProc(p.PID)
				return err != nil || now.StartTime != p.StartTime || now.State == 'Z'
			})
		}
	})
	return x
}

// paneProcs is the pane's shell and the processes below it in its session (the Corral
// under test), by pid and start time. A server Corral started for itself has a
// session of its own and outlives the pane by design: not listed.
func (x *tmuxTerm) paneProcs() []reaper.Proc {
	out, err := x.command("display", "-p", "-t", "t", "#{pane_pid}").Output()
	if err != nil {
		return nil
	}
	root, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	all, _ := reaper.ListAll()
	var procs []reaper.Proc
	for _, p := range all {
		if p.SID == root { // the pane's shell leads its session
			procs = append(procs, p)
		}
	}
	return procs
}

// command is a tmux client of x's server.
func (x *tmuxTerm) command(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-L", x.sock}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX_TMPDIR="+x.dir)
	return cmd
}

func (x *tmuxTerm) run(args ...string) string {
	x.t.Helper()
	out, err := x.command(args...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (x *tmuxTerm) screen() string { return x.run("capture-pane", "-p", "-t", "t") }

// keys sends tmux key names (Enter, C-c, …); text sends literal text. Each call is
// what a person presses at once: calls are paced as a person types (typingGap apart),
// because Corral takes keys that come faster than that outside focus for a paste and
// drops them (ui/guard.go).
func (x *tmuxTerm) keys(k ...string) { x.send(append([]string{"send-keys", "-t", "t"}, k...)...) }

func (x *tmuxTerm) text(s string) { x.send("send-keys", "-t", "t", "-l", s) }

// typingGap is the time between two key presses of a person; it is above the time
// Corral gives a question to be read before it takes an answer (ui answerGrace).
const typingGap = 150 * time.Millisecond

func (x *tmuxTerm) send(args ...string) {
	x.t.Helper()
	if wait := typingGap - time.Since(x.last); wait > 0 {
		time.Sleep(wait) // the gap itself is what is modelled, not a condition to wait for
	}
	x.run(args...)
	x.last = time.Now()
}

// answer answers the question on screen (re) with key, as a person who read it does.
// Corral ignores an answer that reached it before the question could be read (ui
// answerGrace), and keys are paced from their sending: a loaded Corral that shows the
// question late may take the answer as early. While the question stays, the answer is
// given again.
func (x *tmuxTerm) answer(re, key string) {
	x.t.Helper()
	rx := regexp.MustCompile(re)
	x.waitFor(re, 10*time.Second)
	gone := func() (struct{}, bool) { return struct{}{}, !rx.MatchString(x.screen()) }
	answered := func() (struct{}, bool) {
		x.keys(key)
		eventually.Within(time.Second, gone) // tmux has no change notification: polled
		return gone()
	}
	if _, ok := eventually.Within(10*time.Second, answered); !ok {
		x.t.Fatalf("the question %q stayed after %s:\n%s", re, key, x.screen())
	}
}

// waitSettled waits until the screen matches re and two captures 50 ms apart agree:
// a capture taken while Corral was still drawing a frame (tmux applies its output as
// it reads it) mixed two frames once (TestUIWidthsUsed, in CI).
func (x *tmuxTerm) waitSettled(re string, limit time.Duration) string {
	x.t.Helper()
	return x.waitUntilSettled(fmt.Sprintf("%q", re), limit, regexp.MustCompile(re).MatchString)
}

// waitUntilSettled is waitUntil for a screen every capture has agreed on for 50 ms.
func (x *tmuxTerm) waitUntilSettled(what string, limit time.Duration, ok func(string) bool) string {
	x.t.Helper()
	prev, since := "", time.Now()
	return x.waitUntil(what+", settled", limit, func(s string) bool {
		if s != prev {
			prev, since = s, time.Now()
			return false
		}
		return time.Since(since) >= settle && ok(s)
	})
}

// settle is how long a screen must stay the same to be read as drawn, not mid-frame.
const settle = 50 * time.Millisecond

// waitFor waits until the screen matches re, with a deadline.
func (x *tmuxTerm) waitFor(re string, limit time.Duration) string {
	x.t.Helper()
	rx := regexp.MustCompile(re)
	return x.waitUntil(fmt.Sprintf("%q", re), limit, rx.MatchString)
}

// read waits for re as waitFor does, as a person who reads it before the next key:
// that key goes a typingGap after re showed, not after the keys before it (a key
// pressed at once after a notice about a paste's keys is taken as more of the paste).
func (x *tmuxTerm) read(re string, limit time.Duration) string {
	x.t.Helper()
	s := x.waitFor(re, limit)
	x.last = time.Now()
	return s
}

// waitUntil waits until ok(screen), with a deadline. tmux has no change notification,
// so it polls the screen.
func (x *tmuxTerm) waitUntil(what string, limit time.Duration, ok func(string) bool) string {
	x.t.Helper()
	s, done := eventually.Within(limit, func() (string, bool) {
		s := x.screen()
		return s, ok(s)
	})
	if !done {
		x.t.Fatalf("timed out waiting for %s on screen:\n%s", what, s)
	}
	return s
}
