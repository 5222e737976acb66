package reaper

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// target is a Target with test timings: a long grace unless the test sets one.
func target(sid int) Target {
	return Target{SID: sid, Grace: 10 * time.Second, Sweep: 2 * time.Second, Poll: 5 * time.Millisecond}
}

// check compares the outcome of a Terminate with what the test expects.
func check(t *testing.T, rep Report, steps []Step, killed, hard int) {
	t.Helper()
	if !rep.VerifiedEmpty || rep.Err != nil || len(rep.Remaining) != 0 {
		t.Errorf("not verified empty: %+v", rep)
	}
	if !slices.Equal(rep.Steps, steps) || rep.Killed != killed || rep.Hard != hard {
		t.Errorf("steps %v killed %d hard %d; want %v %d %d", rep.Steps, rep.Killed, rep.Hard, steps, killed, hard)
	}
}

// wantSignal checks that the root ended by sig (reaping it).
func wantSignal(t *testing.T, c *child, sig syscall.Signal) {
	t.Helper()
	err := c.wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
		t.Errorf("root ended with %v, want %v", err, sig)
	}
}

// The escalation on a tree of processes: those that obey SIGTERM end on it within
// the grace; those that ignore it are SIGKILLed after the grace, or at once when ctx
// is already cancelled; retries cost nothing once a pass verified the session empty.
func TestTerminateEscalation(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		grace      time.Duration // 0: target's long one
		cancelled  bool
		retries    int
		steps      []Step
		killed     int
		hard       int
		minElapsed time.Duration
		maxElapsed time.Duration
		rootSignal syscall.Signal
	}{
		{name: "obeys term", args: []string{"2"}, steps: []Step{StepTerm}, killed: 3,
			maxElapsed: time.Second, rootSignal: syscall.SIGTERM},
		{name: "ignores term", args: []string{"2", "ignore-term"}, grace: 200 * time.Millisecond,
			steps: []Step{StepTerm, StepKill}, killed: 3, hard: 3, minElapsed: 200 * time.Millisecond,
			maxElapsed: time.Hour, rootSignal: syscall.SIGKILL},
		// The 10 s grace is skipped.
		{name: "cancelled skips grace", args: []string{"1", "ignore-term"}, cancelled: true,
			steps: []Step{StepTerm, StepKill}, killed: 2, hard: 2, maxElapsed: 2 * time.Second,
			rootSignal: syscall.SIGKILL},
		{name: "retries not needed", args: []string{"2"}, retries: 2, steps: []Step{StepTerm}, killed: 3,
			maxElapsed: time.Second, rootSignal: syscall.SIGTERM},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t, "tree", tt.args...)
			c.learnTree()
			go WaitExited(c.pid()) // as the supervisor does: the root stays an unreaped zombie
			tg := target(c.pid())
			if tt.grace != 0 {
				tg.Grace = tt.grace
			}
			tg.Retries = tt.retries
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			rep := Terminate(ctx, tg)
			check(t, rep, tt.steps, tt.killed, tt.hard)
			if rep.Elapsed < tt.minElapsed || rep.Elapsed >= tt.maxElapsed {
				t.Errorf("elapsed %v, want in [%v, %v)", rep.Elapsed, tt.minElapsed, tt.maxElapsed)
			}
			c.requireGone()
			wantSignal(t, c, tt.rootSignal)
		})
	}
}

// TestTerminatePTY: the hang-up ends a child that ignores SIGTERM, so no SIGKILL is
// needed. Once in a real PTY, once with only the flag on a pipe run.
func TestTerminatePTY(t *testing.T) {
	for name, startFn := range map[string]func(testing.TB, string, ...string) *child{
		"pty": startPTY, "pipe": start,
	} {
		t.Run(name, func(t *testing.T) {
			c := startFn(t, "ignore-term")
			c.line("ready ignore-term")
			tg := target(c.pid())
			tg.PTY = true
			rep := Terminate(t.Context(), tg)
			check(t, rep, []Step{StepHup, StepTerm}, 1, 0)
			if rep.Elapsed >= tg.Grace {
				t.Errorf("elapsed %v: waited for the grace", rep.Elapsed)
			}
			c.requireGone()
			wantSignal(t, c, syscall.SIGHUP)
		})
	}
}

// TestTerminatePaused: stopped processes cannot act on SIGTERM; with Paused set the
// SIGCONT after it lets them, so no SIGKILL is needed.
func TestTerminatePaused(t *testing.T) {
	c := start(t, "tree", "2")
	c.learnTree()
	if err := SignalSession(c.pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	c.waitState('T')
	tg := target(c.pid())
	tg.Paused = true
	rep := Terminate(t.Context(), tg)
	check(t, rep, []Step{StepTerm}, 3, 0)
	c.requireGone()
	wantSignal(t, c, syscall.SIGTERM)
}

// TestTerminateExtra: an escapee (setsid + double fork) attributed to the run ends with
// it; a stale Extra fingerprint naming another live process is ignored.
func TestTerminateExtra(t *testing.T) {
	c := start(t, "escape")
	esc := c.learnLine("escapee")
	if p, err := ReadProc(esc); err != nil || p.SID == c.pid() {
		t.Fatalf("escapee %+v, %v: not in a session of its own", p, err)
	}
	bystander := start(t, "sleep")
	bystander.line("ready sleep")
	stale := bystander.known[0]
	stale.StartTime++

	tg := target(c.pid())
	tg.Extra = []Fingerprint{c.known[1], stale}
	rep := Terminate(t.Context(), tg)
	check(t, rep, []Step{StepTerm}, 2, 0)
	c.requireGone()
	wantSignal(t, c, syscall.SIGTERM)
	if alive, _ := bystander.known[0].Alive(); !alive {
		t.Fatal("the process behind a stale fingerprint was signalled")
	}
	bystander.known[0].Signal(syscall.SIGKILL)
	bystander.wait()
	bystander.requireGone()
}

// TestTerminateEmpty: a session whose only member is the exited, unreaped root.
func TestTerminateEmpty(t *testing.T) {
	c := start(t, "exit", "0")
	if err := WaitExited(c.pid()); err != nil {
		t.Fatal(err)
	}
	rep := Terminate(t.Context(), target(c.pid()))
	if !rep.VerifiedEmpty || len(rep.Steps) != 0 || rep.Killed != 0 || rep.Err != nil {
		t.Errorf("empty session: %+v", rep)
	}
	if err := c.wait(); err != nil {
		t.Errorf("root: %v", err)
	}
	c.requireGone()
}

// TestTerminateRefusesOwnSession runs the refusal inside a child started in a session
// of its own, so that even a broken refusal could only hit that child.
func TestTerminateRefusesOwnSession(t *testing.T) {
	if os.Getenv("REAPER_OWN_SESSION") == "1" {
		refuseOwnSession(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTerminateRefusesOwnSession$", "-test.count=1")
	cmd.Env = append(childEnv(), "REAPER_OWN_SESSION=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func refuseOwnSession(t *testing.T) {
	sid, _ := unix.Getsid(0)
	if sid != os.Getpid() {
		t.Fatalf("not isolated: sid %d, pid %d", sid, os.Getpid())
	}
	rep := Terminate(t.Context(), Target{SID: sid, Grace: time.Millisecond})
	if !errors.Is(rep.Err, ErrOwnSession) || len(rep.Steps) != 0 || rep.VerifiedEmpty {
		t.Errorf("own session: %+v", rep)
	}
	if err := SignalSession(sid, syscall.SIGTERM); !errors.Is(err, ErrOwnSession) {
		t.Errorf("SignalSession(own): %v", err)
	}
	rep = Terminate(t.Context(), Target{SID: 1})
	if !errors.Is(rep.Err, ErrProtected) || len(rep.Steps) != 0 {
		t.Errorf("session 1: %+v", rep)
	}
}

// stepCall is one Target.OnStep call.
type stepCall struct {
	step Step
	n    int
}

// TestTerminateOnStep: OnStep reports each step as it is performed, with the number of
// processes it targeted.
func TestTerminateOnStep(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want []stepCall
	}{
		"obeys":   {[]string{"2"}, []stepCall{{StepTerm, 3}}},
		"ignores": {[]string{"2", "ignore-term"}, []stepCall{{StepTerm, 3}, {StepKill, 3}}},
	} {
		t.Run(name, func(t *testing.T) {
			c := start(t, "tree", tc.args...)
			c.learnTree()
			var calls []stepCall
			var at []time.Duration
			tg := target(c.pid())
			tg.Grace = 200 * time.Millisecond
			begin := time.Now()
			tg.OnStep = func(s Step, n int) {
				calls = append(calls, stepCall{s, n})
				at = append(at, time.Since(begin))
			}
			rep := Terminate(t.Context(), tg)
			if !slices.Equal(calls, tc.want) || !slices.Equal(rep.Steps, stepsOf(calls)) {
				t.Errorf("OnStep calls %v, report steps %v; want %v", calls, rep.Steps, tc.want)
			}
			// As it happens: the stop signal reported before the grace was waited, SIGKILL
			// after it. (Measured from the stop signal, not from the call: finding the
			// session's members took longer than the grace on a loaded machine.)
			if len(at) > 1 && at[1]-at[0] < tg.Grace {
				t.Errorf("steps called at %v (grace %v)", at, tg.Grace)
			}
			c.wait()
			c.requireGone()
		})
	}
}

func stepsOf(calls []stepCall) []Step {
	var s []Step
	for _, c := range calls {
		s = append(s, c.step)
	}
	return s
}
