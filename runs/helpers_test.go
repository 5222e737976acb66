package runs

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/demo"
	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

func TestMain(m *testing.M) { testkit.Main(m, testkit.Before(maybeRole)) }

// testDefaults are the defaults with a short grace so escalation tests are quick.
func testDefaults() config.Defaults {
	d := config.Default()
	d.Grace = 300 * time.Millisecond
	return d
}

// newSup returns a supervisor that is shut down when the test ends.
func newSup(t *testing.T, opts ...Option) *Supervisor {
	t.Helper()
	// Either backend, as Open would choose it: cgroups where Corral can make them
	// (root, here), sessions with CORRAL_CGROUP_ROOT=off (CI runs both).
	opts = append([]Option{WithDefaults(testDefaults()), WithLogDir(t.TempDir()), WithCgroups(FindCgroups(""))}, opts...)
	s, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s
}

// sessions is the session backend, for tests of what it does that a cgroup makes
// moot (finding and attributing escapees); its cgroup counterparts are in
// cgroup_linux_test.go.
func sessions() Option {
	return WithCgroups(reaper.CgroupBase{Reason: "sessions: a test of the session backend"})
}

// bothBackends runs f as a subtest on each backend: cgroups found under root
// (FindCgroups), and sessions.
func bothBackends(t *testing.T, root string, f func(t *testing.T, backend Option)) {
	t.Run("cgroup", func(t *testing.T) { f(t, WithCgroups(FindCgroups(root))) })
	t.Run("session", func(t *testing.T) { f(t, sessions()) })
}

// childSpec runs a demo child behaviour of this test binary.
func childSpec(pty bool, mode string, args ...string) Spec {
	argv, env := demo.Child(mode, args...)
	return Spec{Argv: argv, Env: env, PTY: pty}
}

func spawn(t *testing.T, s *Supervisor, spec Spec) string {
	t.Helper()
	id, err := s.Spawn(spec)
	if err != nil {
		t.Fatalf("spawn: %v", err)
	}
	return id
}

// waitEnd waits (bounded) for the run to exit and checks nothing of it is left.
func waitEnd(t *testing.T, s *Supervisor, id string) Info {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	info, err := s.Wait(ctx, id)
	if err != nil {
		t.Fatalf("wait %s: %v (state %s)", id, err, info.State)
	}
	assertGone(t, info)
	return info
}

// assertGone checks that the run's session is empty and its cleanup verified.
func assertGone(t *testing.T, info Info) {
	t.Helper()
	if !info.Cleanup.VerifiedEmpty {
		t.Errorf("cleanup not verified empty: %+v", info.Cleanup)
	}
	if info.PID == 0 {
		return
	}
	if m, _ := reaper.Session(info.PID); len(m) > 0 {
		t.Errorf("session %d still has members: %+v", info.PID, m)
	}
}

// assertPIDsGone checks that every listed pid is dead (or a zombie awaiting its reaper).
func assertPIDsGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
			t.Errorf("pid %d (%s) is still alive", pid, p.Comm)
		}
	}
}

// waitLimit is how long a wait on a run may take on a loaded 2-core machine.
const waitLimit = 20 * time.Second

// waitRun reads run id's info until it satisfies cond, again at each of the
// supervisor's events (and every every too, when not 0: for a change no event
// announces), for up to waitLimit. It returns the last info read and whether cond held.
func waitRun(t testing.TB, s *Supervisor, id string, every time.Duration, cond func(Info) bool) (Info, bool) {
	t.Helper()
	_, sub := s.Subscribe()
	defer sub.Close()
	return eventually.Woken(waitLimit, every, sub.C, func() (Info, bool) {
		info, err := s.Info(id)
		if err != nil {
			t.Fatal(err)
		}
		return info, cond(info)
	})
}

// waitOutput waits until the run's log contains want, driven by output events.
func waitOutput(t *testing.T, s *Supervisor, id, want string) []byte {
	t.Helper()
	_, sub := s.Subscribe()
	defer sub.Close()
	b, ok := eventually.Woken(waitLimit, 0, sub.C, func() ([]byte, bool) {
		out, err := s.Log(id)
		if err != nil {
			t.Fatal(err)
		}
		return out.Bytes(), bytes.Contains(out.Bytes(), []byte(want))
	})
	if !ok {
		t.Fatalf("timed out waiting for %q in output %q", want, b)
	}
	return b
}

// waitState waits until the run reaches state st, driven by events.
func waitState(t *testing.T, s *Supervisor, id string, st State) Info {
	t.Helper()
	info, ok := waitRun(t, s, id, 0, func(i Info) bool { return i.State >= st })
	if !ok {
		t.Fatalf("timed out waiting for %s; run is %s", st, info.State)
	}
	return info
}

// pidsAfter returns the pids printed as "<word> <pid>" lines in output.
func pidsAfter(output []byte, word string) []int {
	var pids []int
	sc := bufio.NewScanner(bytes.NewReader(output))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == word {
			if pid, err := strconv.Atoi(f[1]); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// kinds runs a subtest for a PTY and a pipe run.
func kinds(t *testing.T, f func(t *testing.T, pty bool)) {
	for _, pty := range []bool{true, false} {
		name := "pipe"
		if pty {
			name = "pty"
		}
		t.Run(name, func(t *testing.T) { f(t, pty) })
	}
}
