package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// What happened while no UI was attached is in the events pane of the next: a run
// that exited meanwhile shows its exit there, marked as history.
func TestAttachShowsEventsFromWhileAway(t *testing.T) {
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--name", "early", "--shell", "--", "echo hi; exit 3"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	if r := serverCorral(t, state, "wait", "early"); r.code != 3 {
		t.Fatalf("wait: %+v", r)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`earlier · early r[0-9a-f]+ exited: exit 3`, 20*time.Second)
	x.keys("q") // no live run: detaches at once
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
}

// uiPID is the corral process in x's pane: the pane's shell's one child, which
// must be corralBin.
func uiPID(t *testing.T, x *tmuxTerm) int {
	t.Helper()
	shell := strings.TrimSpace(x.run("display", "-p", "-t", "t", "#{pane_pid}"))
	b, err := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", shell, shell))
	kids := strings.Fields(string(b))
	if err != nil || len(kids) != 1 {
		t.Fatalf("the pane's shell %s has children %q (%v), want the UI alone", shell, kids, err)
	}
	pid, _ := strconv.Atoi(kids[0])
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); exe != corralBin {
		t.Fatalf("the pane's process %d is %q, not corral", pid, exe)
	}
	return pid
}

// An attached UI outlives its server: SIGKILL of the server (by its recorded pid)
// and the UI says "server lost — reconnecting…" while it cannot reach one (here the
// test holds the server lock, so the servers it starts cannot listen), reports keys
// typed meanwhile as not delivered, and once the lock is free it is attached to a new
// server, says which, and works: the killed server's run is back (the keeper kept
// it) with the same pid and takes input, and a run spawned from it shows its
// output. Nothing is left running.
func TestAttachReconnectsAfterServerKilled(t *testing.T) {
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "echoer", "--shell", "--", `while read l; do echo "got $l"; done`); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	old := serverPID(t, state)
	oldFP := testkit.Pin(t, old)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`echoer\s+pty\s+running`, 20*time.Second)
	echoer := registry(t, state)[0].PID
	x.typeInFocus("one", `got one`)

	// Stop the UI while the server dies and the test takes the server lock, so that
	// the UI cannot find or start a server until the test lets it.
	ui := testkit.Pin(t, uiPID(t, x))
	t.Cleanup(func() { ui.Signal(syscall.SIGCONT) })
	if err := ui.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if err := oldFP.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, old, "the killed server")
	lock, err := os.OpenFile(filepath.Join(state, "server.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// Its pid reads as a zombie before its last thread has exited and let go of the
	// lock: wait for that.
	eventually.True(t, 15*time.Second, "the killed server's lock to be free", func() bool {
		return syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
	})
	if err := ui.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	x.waitFor(`Runs 1 · reconnecting…`, 20*time.Second)
	x.waitFor(`server lost — reconnecting… .*keys are not delivered`, 10*time.Second)
	x.waitFor(fmt.Sprintf(`server pid %d lost \(EOF\): reconnecting…`, old), 10*time.Second)

	// A key typed now is not sent anywhere, and the UI says so.
	x.keys("Enter")
	x.waitFor(`FOCUS`, 10*time.Second)
	x.text("two")
	x.keys("Enter")
	x.waitFor(`keys for echoer r[0-9a-f]+ not delivered: the server is lost`, 10*time.Second)
	x.keys("C-]")

	// The lock is free: the next attempt starts a server, and the UI is back.
	lock.Close()
	screen := x.waitFor(`reconnected to server pid \d+`, 60*time.Second)
	got := regexp.MustCompile(`reconnected to server pid (\d+)`).FindStringSubmatch(screen)
	if pid := serverPID(t, state); got[1] != strconv.Itoa(pid) || pid == old {
		t.Errorf("reconnected to pid %s; the server is %d (the killed one was %d)", got[1], pid, old)
	}
	x.waitFor(`echoer\s+pty\s+running`, 10*time.Second)
	if r := registry(t, state); len(r) != 1 || r[0].PID != echoer {
		t.Fatalf("after the reconnect the registry holds %+v; echoer was pid %d", r, echoer)
	}
	x.typeInFocus("three", `got three`)

	// A working UI: a run spawned from it shows its output.
	x.keys("n")
	x.waitFor(`(?i)new run`, 10*time.Second)
	x.text("echo spawned-$((6*7)); sleep 300")
	x.keys("Enter")
	x.waitFor(`spawned-42`, 20*time.Second)

	x.keys("Q")
	x.answer(`2 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	for _, r := range registry(t, state) {
		if r.State != "exited" {
			t.Errorf("run %s (%s) is %s", r.Name, r.RunID, r.State)
		}
		if m, _ := reaper.Session(r.PID); len(m) > 0 {
			t.Errorf("run %s left %+v", r.Name, m)
		}
	}
}
