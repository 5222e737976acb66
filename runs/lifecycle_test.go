package runs

import (
	"errors"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

func TestDirectExit(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "exit", "3"))
		info := waitEnd(t, s, id)
		if info.Reason != Exit || info.ExitCode == nil || *info.ExitCode != 3 {
			t.Fatalf("reason %s code %v, want exit 3", info.Reason, info.ExitCode)
		}
		if len(info.Cleanup.Steps) != 0 || info.Cleanup.Killed != 0 {
			t.Errorf("a clean exit needed cleanup %+v", info.Cleanup)
		}
		if out, _ := s.Log(id); !strings.Contains(string(out.Bytes()), "bye") {
			t.Errorf("output %q lacks the child's line", out.Bytes())
		}
	})
}

func TestManualCancel(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "tree", "2"))
		out := waitOutput(t, s, id, "tree ready")
		if err := s.Cancel(id); err != nil {
			t.Fatal(err)
		}
		info := waitEnd(t, s, id)
		if info.Reason != ManualCancel {
			t.Fatalf("reason %s, want manual-cancel", info.Reason)
		}
		if info.Cleanup.Killed != 3 {
			t.Errorf("killed %d, want 3 (root, child, grandchild)", info.Cleanup.Killed)
		}
		wantFirst := reaper.StepTerm
		if pty {
			wantFirst = reaper.StepHup
		}
		if len(info.Cleanup.Steps) == 0 || info.Cleanup.Steps[0] != wantFirst {
			t.Errorf("steps %v, want %s first", info.Cleanup.Steps, wantFirst)
		}
		assertPIDsGone(t, pidsAfter(out, "member"))
	})
}

// Each deadline ends a run that outlives it, with its own reason: the overall one a
// run that prints nothing and sleeps, the no-output one a run that went silent.
func TestTimeouts(t *testing.T) {
	tests := []struct {
		child string
		set   func(*Spec)
		want  Reason
	}{
		{"sleep", func(s *Spec) { s.Timeout = 300 * time.Millisecond }, OverallTimeout},
		{"silent", func(s *Spec) { s.NoOutputTimeout = 300 * time.Millisecond }, NoOutputTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.want.String(), func(t *testing.T) {
			kinds(t, func(t *testing.T, pty bool) {
				s := newSup(t)
				spec := childSpec(pty, tt.child)
				tt.set(&spec)
				if info := waitEnd(t, s, spawn(t, s, spec)); info.Reason != tt.want {
					t.Fatalf("reason %s, want %s", info.Reason, tt.want)
				}
			})
		})
	}
}

// Intermittent output keeps re-arming the no-output deadline: a run that prints at
// least every 15 s under a 20 s no-output timeout is never ended by it.
func TestInteractiveNoFalseTimeout(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		// The clock is fake and moves only once the watchdog has seen output at the
		// present time: a slow start or a stall on a loaded machine is not silence here
		// (with a real 400 ms window, 2 of 4 runs failed at load 10).
		s, clk := fakeSup(t)
		spec := childSpec(pty, "ticker", "20ms", "3000")
		spec.NoOutputTimeout = 20 * time.Second
		id := spawn(t, s, spec)
		r, err := s.get(id)
		if err != nil {
			t.Fatal(err)
		}
		for range 8 { // 120 s in all: six no-output spans
			eventually.True(t, 20*time.Second, "output at the present time", func() bool { return r.wd.State().LastOutput.Equal(clk.Now()) })
			clk.Advance(15 * time.Second)
		}
		if info, _ := s.Info(id); info.State != Running {
			t.Fatalf("ended %s/%s while it printed every 15 s of a 20 s no-output timeout", info.State, info.Reason)
		}
		s.Cancel(id)
		if info := waitEnd(t, s, id); info.Reason != ManualCancel {
			t.Fatalf("reason %s, want manual-cancel", info.Reason)
		}
	})
}

func TestWriteReachesChild(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "readline"))
		waitOutput(t, s, id, "ready")
		if err := s.Write(id, []byte("hello there\n")); err != nil {
			t.Fatal(err)
		}
		waitOutput(t, s, id, "got: hello there")
		if info := waitEnd(t, s, id); info.Reason != Exit {
			t.Fatalf("reason %s, want exit", info.Reason)
		}
	})
}

func TestCloseStdinGivesEOF(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "readline"))
	waitOutput(t, s, id, "ready")
	if err := s.CloseStdin(id); err != nil {
		t.Fatal(err)
	}
	info := waitEnd(t, s, id)
	if info.ExitCode == nil || *info.ExitCode != 4 {
		t.Fatalf("exit %v, want 4 (EOF)", info.ExitCode)
	}
}

// Shell wrappers: sh -c and bash -lc around a child with a grandchild. The wrapper is
// not the only process: cancelling must end all three.
func TestShellWrapperTree(t *testing.T) {
	argv, env := childSpec(false, "tree", "1").Argv, childSpec(false, "tree").Env
	line := strings.Join(argv, " ") + "; echo wrapper-done"
	wrappers := map[string][]string{
		"sh -c":    {"/bin/sh", "-c", line},
		"bash -lc": {"bash", "-lc", line},
	}
	for name, w := range wrappers {
		t.Run(name, func(t *testing.T) {
			kinds(t, func(t *testing.T, pty bool) {
				s := newSup(t)
				id := spawn(t, s, Spec{Argv: w, Env: env, PTY: pty})
				out := waitOutput(t, s, id, "tree ready")
				s.Cancel(id)
				info := waitEnd(t, s, id)
				if info.Reason != ManualCancel || info.Cleanup.Killed < 3 {
					t.Fatalf("reason %s killed %d, want manual-cancel killing 3", info.Reason, info.Cleanup.Killed)
				}
				assertPIDsGone(t, pidsAfter(out, "member"))
			})
		})
	}
}

func TestShellSpecUsesShell(t *testing.T) {
	s := newSup(t)
	t.Setenv("SHELL", "/bin/sh")
	id := spawn(t, s, Spec{Shell: `echo "a  b" | tr -s ' '; exit 7`})
	info := waitEnd(t, s, id)
	if *info.ExitCode != 7 {
		t.Fatalf("exit %v, want 7", *info.ExitCode)
	}
	waitOutput(t, s, id, "a b")
}

func TestIgnoreTermEscalatesToKill(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "tree", "1", "ignore-term"))
		out := waitOutput(t, s, id, "tree ready")
		start := time.Now()
		s.Cancel(id)
		info := waitEnd(t, s, id)
		if !slices.Contains(info.Cleanup.Steps, reaper.StepKill) || info.Cleanup.Hard < 1 {
			t.Fatalf("cleanup %+v, want a kill step", info.Cleanup)
		}
		if el := time.Since(start); el < testDefaults().Grace {
			t.Errorf("ended after %v, before the grace of %v", el, testDefaults().Grace)
		}
		assertPIDsGone(t, pidsAfter(out, "member"))
	})
}

func TestPTYChildIgnoringHUP(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(true, "ignore-hup"))
	waitOutput(t, s, id, "ready")
	s.Cancel(id)
	info := waitEnd(t, s, id)
	want := []reaper.Step{reaper.StepHup, reaper.StepTerm}
	if !slices.Equal(info.Cleanup.Steps, want) || info.Cleanup.Hard != 0 {
		t.Fatalf("cleanup %+v, want steps %v and no SIGKILL", info.Cleanup, want)
	}
}

// An interactive shell puts each job in its own process group: ending only the
// root's group would leave them. Every group of the session must end.
func TestInteractiveShellJobs(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, Spec{Argv: []string{"bash", "--norc", "--noprofile", "-i"}, PTY: true,
		Env: []string{"PS1=$ "}})
	s.Write(id, []byte("sleep 1000 & sleep 1001 & echo jobs-$((40+2))\n"))
	waitOutput(t, s, id, "jobs-42")
	info, _ := s.Info(id)
	members, err := reaper.Session(info.PID)
	if err != nil {
		t.Fatal(err)
	}
	var others []int
	for _, m := range members {
		if m.PGID != info.PID {
			others = append(others, m.PID)
		}
	}
	if len(others) < 2 {
		t.Fatalf("want 2 jobs in other groups of the session, have %+v", members)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
	assertPIDsGone(t, others)
}

func TestSpawnError(t *testing.T) {
	cases := map[string]struct {
		argv []string
		is   error
	}{
		"not on PATH":  {[]string{"corral-no-such-program"}, exec.ErrNotFound},
		"missing path": {[]string{"/nonexistent/corral-prog"}, fs.ErrNotExist},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			kinds(t, func(t *testing.T, pty bool) {
				s := newSup(t)
				id, err := s.Spawn(Spec{Argv: c.argv, PTY: pty})
				if !errors.Is(err, c.is) {
					t.Fatalf("err %v, want %v", err, c.is)
				}
				info := waitEnd(t, s, id)
				if info.Reason != SpawnError || info.SpawnErr == "" || info.PID != 0 {
					t.Fatalf("info %+v, want spawn-error without a pid", info)
				}
			})
		})
	}
}

func TestBadSpec(t *testing.T) {
	s := newSup(t)
	for _, spec := range []Spec{{}, {Argv: []string{"a"}, Shell: "b"}, {Argv: []string{""}}} {
		if _, err := s.Spawn(spec); !errors.Is(err, ErrBadSpec) {
			t.Errorf("Spawn(%+v) = %v, want ErrBadSpec", spec, err)
		}
	}
	if len(s.Snapshot()) != 0 {
		t.Error("a rejected spec made a run")
	}
}

func TestInterrupt(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "readline"))
		waitOutput(t, s, id, "ready")
		if err := s.Interrupt(id); err != nil {
			t.Fatal(err)
		}
		info := waitEnd(t, s, id)
		if info.Reason != Signal || info.Signal != 2 {
			t.Fatalf("reason %s signal %d, want signal SIGINT", info.Reason, info.Signal)
		}
	})
}
