package runs

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// A daemon run A started and run B uses (B is connected to its socket, as every codex
// of one CODEX_HOME is to the app-server the first one started) outlives A: ending A
// passes it to B, which goes on using it, shows it as shared, and ends it with itself.
func TestSharedDaemonPassesToItsUser(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []Option
	}{{"default backend", nil}, {"sessions", []Option{sessions()}}} {
		t.Run(c.name, func(t *testing.T) {
			s := newSup(t, append([]Option{WithEscapeDetection()}, c.opts...)...)
			sock := filepath.Join(t.TempDir(), "d.sock")
			a := spawn(t, s, childSpec(false, "sock-daemon", sock))
			daemon := daemonPID(t, waitOutput(t, s, a, "listening"))
			killReapLater(t, []int{daemon})
			if info, _ := s.Info(a); info.Cgroup == "" {
				waitEscapees(t, s, a, 1) // on sessions, the run must know its escapee to pass it on
			}
			b := spawn(t, s, childSpec(false, "sock-client", sock))
			waitOutput(t, s, b, "pong 3")
			s.Cancel(a)
			waitEnd(t, s, a)
			n := pongs(t, s, b)
			waitOutput(t, s, b, "pong "+strconv.Itoa(n+50)) // five more seconds of use
			if out, _ := s.Log(b); strings.Contains(string(out.Bytes()), "lost") {
				t.Fatalf("the user lost the daemon: %s", out.Bytes())
			}
			info, _ := s.Info(b)
			trees, _ := s.Trees(b)
			shown := false
			for _, p := range trees[b] {
				shown = shown || p.PID == daemon && p.Mark == reaper.MarkShared
			}
			if info.Shared != 1 || !shown {
				t.Errorf("B: shared %d, tree %+v: want the daemon shown shared", info.Shared, trees[b])
			}
			s.Cancel(b)
			waitEnd(t, s, b)
			assertPIDsGone(t, []int{daemon})
		})
	}
}

// A run that has begun to end takes nothing passed on: its escalation may already
// have listed its members, and a daemon moved to it then would outlive both runs
// (seen: corral shutdown of two codex runs left their app-server running). Here B's
// finalizer is made to have begun; A's end must then end the daemon itself.
func TestSharedDaemonNotPassedToAnEndingRun(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []Option
	}{{"default backend", nil}, {"sessions", []Option{sessions()}}} {
		t.Run(c.name, func(t *testing.T) {
			s := newSup(t, append([]Option{WithEscapeDetection()}, c.opts...)...)
			sock := filepath.Join(t.TempDir(), "d.sock")
			a := spawn(t, s, childSpec(false, "sock-daemon", sock))
			daemon := daemonPID(t, waitOutput(t, s, a, "listening"))
			killReapLater(t, []int{daemon})
			if info, _ := s.Info(a); info.Cgroup == "" {
				waitEscapees(t, s, a, 1)
			}
			b := spawn(t, s, childSpec(false, "sock-client", sock))
			waitOutput(t, s, b, "pong 3")
			rb, _ := s.get(b)
			rb.mu.Lock()
			rb.ending = true
			rb.mu.Unlock()
			s.Cancel(a)
			waitEnd(t, s, a)
			assertPIDsGone(t, []int{daemon})
			if info, _ := s.Info(b); info.Shared != 0 {
				t.Errorf("B took %d shared processes while ending", info.Shared)
			}
		})
	}
}

// daemonPID reads "daemon <pid> listening".
func daemonPID(t *testing.T, out []byte) int {
	t.Helper()
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "daemon" {
			pid, _ := strconv.Atoi(f[1])
			return pid
		}
	}
	t.Fatalf("no daemon line in %q", out)
	return 0
}

// pongs is the last "pong N" run id printed so far.
func pongs(t *testing.T, s *Supervisor, id string) int {
	t.Helper()
	return eventually.Value(t, 10*time.Second, "a pong", func() (int, bool) {
		out, _ := s.Log(id)
		lines := strings.Split(strings.TrimSpace(string(out.Bytes())), "\n")
		f := strings.Fields(lines[len(lines)-1])
		if len(f) != 2 || f[0] != "pong" {
			return 0, false
		}
		k, err := strconv.Atoi(f[1])
		return k, err == nil
	})
}
