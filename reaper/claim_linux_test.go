package reaper

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit/eventually"

	"golang.org/x/sys/unix"
)

// recycle ends c's root and hands its pid to a new "daemonize" process (started with
// setsid, so it leads a session with the dead root's number), which forks a sleeper
// into that session and exits: the sequence that got an unrelated daemon killed by a
// reconcile. It returns the daemonizer and the sleeper's fingerprint.
func recycle(t *testing.T, root *child) (*child, Fingerprint) {
	t.Helper()
	pid := root.pid()
	root.known[0].Signal(syscall.SIGKILL)
	root.wait()
	for try := 0; try < 100; try++ {
		if err := demo.SetLastPID(pid - 1); err != nil {
			t.Skipf("ns_last_pid: %v", err)
		}
		d := startCmd(t, demoCmd("daemonize"))
		d.learnLine("daemon")
		if d.pid() != pid {
			continue // a thread took the pid first; d's cleanup ends its sleeper
		}
		if err := d.wait(); err != nil {
			t.Fatalf("daemonizer: %v", err)
		}
		return d, d.known[1]
	}
	t.Fatalf("pid %d was never handed out again", pid)
	return nil, Fingerprint{}
}

// A dead root's session number recycled by a stranger's daemon: nothing of it is
// claimed, and a claim-mode Terminate signals nothing. Fails when a
// member of the numbered session is taken for the run's.
func TestClaimIgnoresRecycledSession(t *testing.T) {
	if !demo.RerunInPIDNamespace(t) {
		return
	}
	root := start(t, "sleep")
	root.line("ready sleep")
	rec := root.known[0]
	_, daemon := recycle(t, root)
	if p, err := ReadProc(daemon.PID); err != nil || p.SID != rec.PID {
		t.Fatalf("daemon %+v %v: want it in session %d", p, err, rec.PID)
	}
	claim := Claim{Root: rec, EnvKey: "CORRAL_RUN_ID", EnvValue: ownMarker("rrecycled")}
	if got, err := Claimed(nil, claim, nil); err != nil || len(got) != 0 {
		t.Fatalf("claimed %+v %v from a recycled session, want nothing", got, err)
	}
	tg := target(rec.PID)
	tg.Claim = &claim
	rep := Terminate(t.Context(), tg)
	if !rep.VerifiedEmpty || rep.Killed != 0 || len(rep.Steps) != 0 {
		t.Errorf("terminate of a recycled session: %+v", rep)
	}
	if alive, _ := daemon.Alive(); !alive {
		t.Fatal("the stranger's daemon was killed")
	}
}

// Forged records: out-of-range and negative pids are refused before anything is
// read or signalled; a dead root naming a victim's session claims nothing, and the
// victim survives a claim-mode Terminate.
func TestForgedClaimsRefused(t *testing.T) {
	victim := start(t, "sleep")
	victim.line("ready sleep")
	gone := start(t, "exit", "0")
	gone.wait()
	boot, _ := BootID()
	for _, root := range []Fingerprint{
		{BootID: boot, PID: 99999999, StartTime: 1},
		{BootID: boot, PID: -5, StartTime: 1},
		{BootID: boot, PID: gone.pid(), StartTime: gone.known[0].StartTime},
	} {
		claim := Claim{Root: root, EnvKey: "CORRAL_RUN_ID", EnvValue: ownMarker("rforged")}
		got, err := Claimed(nil, claim, nil)
		if len(got) != 0 {
			t.Errorf("root %d: claimed %+v", root.PID, got)
		}
		tg := target(victim.pid()) // the victim's session, as a forged record names it
		tg.Claim = &claim
		rep := Terminate(t.Context(), tg)
		if rep.Killed != 0 || len(rep.Steps) != 0 {
			t.Errorf("root %d: %+v", root.PID, rep)
		}
		if !ValidPID(root.PID) && (!errors.Is(err, ErrProtected) || !errors.Is(rep.Err, ErrProtected)) {
			t.Errorf("root %d: claimed err %v, terminate err %v; want ErrProtected", root.PID, err, rep.Err)
		}
	}
	own, _ := unix.Getsid(0) // 0 inside a container's PID namespace, as on CI
	for _, sid := range []int{99999999, -5, 0, 1} {
		rep := Terminate(t.Context(), target(sid))
		refused := errors.Is(rep.Err, ErrProtected) || sid == own && errors.Is(rep.Err, ErrOwnSession)
		if !refused || len(rep.Steps) != 0 {
			t.Errorf("session %d: %+v", sid, rep)
		}
	}
	if alive, _ := victim.known[0].Alive(); !alive {
		t.Fatal("the victim was killed")
	}
}

// A forged escapee naming pid 1 with init's real fingerprint is never signalled: the
// namespace's init reports any signal it gets and fails the run.
func TestForgedEscapeeInit(t *testing.T) {
	if !demo.RerunInPIDNamespace(t) {
		return
	}
	init, err := Identify(1)
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, "sleep")
	c.line("ready sleep")
	tg := target(c.pid())
	tg.Extra = []Fingerprint{init}
	tg.Paused = true // SIGCONT too, as the forged record got
	if rep := Terminate(t.Context(), tg); rep.Killed != 1 || !rep.VerifiedEmpty {
		t.Errorf("terminate with a forged pid 1: %+v", rep)
	}
	claim := Claim{Root: c.known[0]}
	tg.Claim = &claim
	Terminate(t.Context(), tg)
	c.wait()
	c.requireGone()
}

// Claim mode with a live root: the root's session and an escapee that carries the
// run's marker (its parents gone) are claimed and ended one by one through pidfds; a
// process with another run's marker is not, nor one with the marker older than the
// root. (The root carries the marker too, as every run's process does.)
func TestClaimLiveRun(t *testing.T) {
	run := ownMarker("rclaim")
	older := startMarked(t, run)
	awaitTick(t, older.known[0].StartTime)
	root := startCmd(t, markedCmd(run, "tree", "2"))
	root.learnTree()
	marked := startMarked(t, run)
	other := startMarked(t, ownMarker("rother"))
	claim := Claim{Root: root.known[0], EnvKey: "CORRAL_RUN_ID", EnvValue: run, Find: true}
	got, err := Claimed(nil, claim, nil)
	if err != nil || len(got) != 4 {
		t.Fatalf("claimed %d (%v), want the tree of 3 and the marked sleeper: %+v\n%s", len(got), err, got,
			describeUnknown(got, older, root, marked, other))
	}
	tg := target(root.pid())
	tg.Claim = &claim
	tg.Grace = 2 * time.Second
	check(t, Terminate(t.Context(), tg), []Step{StepTerm}, 4, 0)
	root.wait()
	root.reapOrphans()
	root.requireGone()
	marked.wait()
	marked.requireGone()
	for _, c := range []*child{older, other} {
		if alive, _ := c.known[0].Alive(); !alive {
			t.Errorf("pid %d was claimed: older than the root, or another run's marker", c.pid())
		}
	}
}

// ownMarker is a run id for this test binary alone. A claim takes any process of our
// uid that carries the run's id, as it must (a real run's id is unique): with a fixed
// id, the same test running at once in another binary (two CI runs on one machine)
// claimed this one's sleeper, and this one's claim that binary's.
func ownMarker(name string) string { return fmt.Sprintf("%s-%d", name, os.Getpid()) }

// describeUnknown says what each of fps is that none of cs started: why a claim took
// it (parent, session, marker).
func describeUnknown(fps []Fingerprint, cs ...*child) string {
	known := map[int]bool{}
	for _, c := range cs {
		for _, fp := range c.known {
			known[fp.PID] = true
		}
	}
	var b strings.Builder
	for _, fp := range fps {
		if known[fp.PID] {
			continue
		}
		p, err := ReadProc(fp.PID)
		argv, _ := ReadCmdline(fp.PID)
		marker, envErr := EnvVar(fp.PID, "CORRAL_RUN_ID")
		fmt.Fprintf(&b, "not this test's: pid %d: %+v (%v) argv %q marker %q (%v)\n", fp.PID, p, err, argv, marker, envErr)
	}
	return b.String()
}

// startMarked starts a sleeper in a session of its own with CORRAL_RUN_ID=id.
func startMarked(t *testing.T, id string) *child {
	t.Helper()
	c := startCmd(t, markedCmd(id, "sleep"))
	c.line("ready sleep")
	return c
}

// markedCmd is a demo child with CORRAL_RUN_ID=id in its environment.
func markedCmd(id, mode string, args ...string) *exec.Cmd {
	cmd := demoCmd(mode, args...)
	cmd.Env = append(cmd.Env, "CORRAL_RUN_ID="+id)
	return cmd
}

// An escapee's own descendants and session end with the run, on the live-run path too.
func TestTerminateExtraDescendants(t *testing.T) {
	c := start(t, "sleep")
	c.line("ready sleep")
	esc := start(t, "tree", "2") // stands for a daemon that forked: its own session
	esc.learnTree()
	tg := target(c.pid())
	tg.Extra = []Fingerprint{esc.known[0]}
	check(t, Terminate(t.Context(), tg), []Step{StepTerm}, 4, 0)
	c.wait()
	esc.wait()
	esc.reapOrphans()
	esc.requireGone()
}

// awaitTick waits until a process started now gets a start time after tick: start
// times count clock ticks of CLOCK_BOOTTIME.
func awaitTick(t *testing.T, tick uint64) {
	t.Helper()
	eventually.True(t, waitFor, fmt.Sprintf("clock tick %d to pass", tick), func() bool {
		var ts unix.Timespec
		unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts)
		return uint64(ts.Nano()/(int64(time.Second)/ClockTicks())) > tick
	})
}
