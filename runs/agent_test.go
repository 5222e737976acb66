package runs

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// waitEscapees waits (bounded, driven by events) until the run has at least n escapees.
func waitEscapees(t *testing.T, s *Supervisor, id string, n int) Info {
	t.Helper()
	info, ok := waitRun(t, s, id, 0, func(i Info) bool { return i.Escapees >= n || i.State == Exited })
	if !ok {
		t.Fatalf("timed out waiting for %d escapees; run has %d", n, info.Escapees)
	}
	return info
}

// wantDaemonArgv checks that the escapees are the codex-like agent's two daemons, each
// shown with its command line.
func wantDaemonArgv(t *testing.T, esc []Escapee) {
	t.Helper()
	var lines []string
	for _, e := range esc {
		lines = append(lines, strings.Join(e.Argv, " "))
	}
	for _, want := range []string{"agent-daemon app-server --managed-daemon", "agent-daemon pid-update-loop"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasSuffix(l, want) }) {
			t.Errorf("escapees %q: none shows %q", lines, want)
		}
	}
}

// An agent that forks a managed daemon and a pid-update loop out of its
// session at start (as codex does) keeps running under the default policy; both show
// as its escapees with their argv, in its tree too; cancel ends everything.
func TestManagedDaemonOwned(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t, WithEscapeDetection(), sessions())
		id := spawn(t, s, childSpec(pty, "codex-like"))
		out := waitOutput(t, s, id, "agent ready")
		daemons := pidsAfter(out, "daemon")
		if info := waitEscapees(t, s, id, 2); info.State != Running || info.Escapees != 2 {
			t.Fatalf("run %s with %d escapees, want running with the 2 daemons", info.State, info.Escapees)
		}
		esc, _ := s.Escapees(id)
		wantDaemonArgv(t, esc)
		trees, _ := s.Trees(id)
		shown := 0
		for _, p := range trees[id] {
			if slices.Contains(daemons, p.PID) && len(p.Argv) > 0 {
				shown++
			}
		}
		if shown != 2 {
			t.Errorf("tree %+v: want both daemons with their argv", trees[id])
		}
		s.Cancel(id)
		if info := waitEnd(t, s, id); info.Reason != ManualCancel {
			t.Errorf("reason %s", info.Reason)
		}
		assertPIDsGone(t, daemons)
	})
}

// A real Corral process running a codex-like agent (PTY and pipe) is
// SIGKILLed; once the lease expires a second one reconciles and nothing is left. The
// PTY agent dies of the hang-up when the master closes, so its root is gone and its
// escapees, which ignore the hang-up, are reaped all the same (a lost root does not
// leave its escapees behind).
func TestManagedDaemonReapedAfterCrash(t *testing.T) {
	dir := t.TempDir()
	cmd, stderr := startRole(t, "codex", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	var pids []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
		f := strings.Fields(sc.Text())
		ids = append(ids, f[1])
		for _, p := range f[2:] {
			var pid int
			fmt.Sscan(p, &pid)
			pids = append(pids, pid)
		}
	}
	killReapLater(t, pids) // while the role lives: its runs are alive
	cmd.Process.Kill()
	cmd.Wait()
	if len(ids) != 2 || len(pids) != 6 {
		t.Fatalf("role reported runs %v pids %v; stderr %s", ids, pids, stderr)
	}
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	for _, id := range ids {
		if d := ds[id]; d.Decision != VerdictReaped {
			t.Errorf("%s: %s (%s), want orphan-reaped", id, d.Decision, d.Detail)
		}
	}
	assertPIDsGone(t, pids)
}

// roleCodex runs a codex-like agent in a PTY and on pipes with default settings,
// prints "run <id> <root> <daemon> <daemon>" for each once both daemons are recorded
// as its escapees, then "ready", and waits to be killed.
func roleCodex(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection())
	if err != nil {
		return err
	}
	for _, pty := range []bool{true, false} {
		id, err := s.Spawn(childSpec(pty, "codex-like"))
		if err != nil {
			return err
		}
		if err := awaitOutput(s, id, "agent ready"); err != nil {
			return err
		}
		info, ok := eventually.Within(20*time.Second, func() (Info, bool) { // a role polls as a user would
			info, _ := s.Info(id)
			return info, info.Escapees >= 2
		})
		if !ok {
			return fmt.Errorf("run %s: %d escapees recorded", id, info.Escapees)
		}
		out, _ := s.Log(id)
		fmt.Printf("run %s %d %s\n", id, info.PID, strings.Trim(fmt.Sprint(pidsAfter(out.Bytes(), "daemon")), "[]"))
	}
	fmt.Println("ready")
	select {}
}

// killReapLater fingerprints pids, processes this test started that are alive now,
// and when the test ends kills those still alive and reaps those reparented to the
// test binary, so none is left behind. By fingerprint, not by number: a process the
// test ended may have died long before the cleanup, and its number may have gone to
// another process by then (numbers wrap within minutes on a busy machine).
func killReapLater(t *testing.T, pids []int) {
	var fps []reaper.Fingerprint
	for _, pid := range pids {
		if fp, err := reaper.Identify(pid); err == nil {
			fps = append(fps, fp)
		}
	}
	t.Cleanup(func() {
		for _, fp := range fps {
			fp.Signal(syscall.SIGKILL)
			eventually.Within(5*time.Second, func() (struct{}, bool) {
				p, err := reaper.ReadProc(fp.PID)
				if err != nil || p.StartTime != fp.StartTime || p.PPID != os.Getpid() {
					return struct{}{}, true // gone, or not ours to reap
				}
				if p.State == 'Z' {
					reaper.ReapIfZombie(fp.PID)
				}
				return struct{}{}, p.State == 'Z'
			})
		}
	})
}
