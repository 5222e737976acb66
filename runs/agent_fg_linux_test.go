package runs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
)

// toyBin writes the toy agent as a program named toy-agent (and toy2-agent, the same
// script for a second agent) in a directory of its own, and returns the directory
// and the PATH that finds them.
func toyBin(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range []string{"toy-agent", "toy2-agent"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+toyScript+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir, "PATH=" + dir + ":" + os.Getenv("PATH")
}

// toy2Set is the toy agent and a second one, toy2, run by toy2-agent.
func toy2Set(t *testing.T) *agentstate.Set {
	t.Helper()
	a, err := agentstate.ParseRules("toy.toml", []byte(testkit.ToyRules))
	if err != nil {
		t.Fatal(err)
	}
	b, err := agentstate.ParseRules("toy2.toml", []byte(strings.Replace(strings.Replace(testkit.ToyRules,
		`agent = "toy"`, `agent = "toy2"`, 1), `"toy-agent"`, `"toy2-agent"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return agentstate.NewSet(a, b)
}

// An agent is recognised however it is started: through env with a path in an
// assignment (from the command), and through sh -c with another command first, a
// wrapper script that runs it, make (from the program in the terminal's foreground);
// each then follows the agent's states, and explain works.
func TestAgentRecognisedHoweverStarted(t *testing.T) {
	dir, path := toyBin(t)
	wrapper := filepath.Join(dir, "wrap")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho starting the agent\ntoy-agent\necho done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte("agent:\n\ttoy-agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	for _, tt := range []struct {
		name string
		argv []string
		by   string
	}{
		{"env", []string{"env", "-u", "FOO", "HOME=/a/b", "toy-agent"}, "from the command (env … → toy-agent)"},
		{"sh -c", []string{"sh", "-c", "cd / && toy-agent"}, "from the foreground process "},
		{"wrapper script", []string{wrapper}, "from the foreground process "},
		{"make", []string{"make", "-C", dir, "agent"}, "from the foreground process "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.argv[0] == "make" {
				if _, err := exec.LookPath("make"); err != nil {
					t.Skip("make is not installed:", err)
				}
			}
			id := spawn(t, s, Spec{Argv: tt.argv, Env: []string{path}, PTY: true})
			info := waitAgent(t, s, id, agentstate.Idle)
			if info.Agent != "toy" || !strings.HasPrefix(info.AgentBy, tt.by) {
				t.Errorf("agent %q by %q, want toy %s…", info.Agent, info.AgentBy, tt.by)
			}
			if tt.by != "from the command (env … → toy-agent)" && !strings.Contains(info.AgentBy, "→ toy-agent): /bin/sh "+dir+"/toy-agent") {
				t.Errorf("by %q: not the toy agent's process and argv", info.AgentBy)
			}
			if err := s.Write(id, []byte("\r")); err != nil {
				t.Fatal(err)
			}
			waitAgent(t, s, id, agentstate.Working)
			if e, err := s.Explain(id); err != nil || e.Agent != "toy" {
				t.Errorf("explain: %+v %v", e, err)
			}
			s.Cancel(id)
			waitEnd(t, s, id)
		})
	}
}

// --agent none turns detection off, the foreground's too; --agent NAME forces the
// agent and says so. The same command without either is recognised (the control).
func TestAgentNoneAndForced(t *testing.T) {
	_, path := toyBin(t)
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	argv := []string{"sh", "-c", "cd / && toy-agent"}
	off := spawn(t, s, Spec{Argv: argv, Env: []string{path}, PTY: true, Agent: AgentNone})
	on := spawn(t, s, Spec{Argv: argv, Env: []string{path}, PTY: true})
	forced := spawn(t, s, Spec{Argv: []string{"sleep", "30"}, PTY: true, Agent: "toy"})
	waitAgent(t, s, on, agentstate.Idle)
	waitOutput(t, s, off, "> ")
	for _, id := range []string{on, off} {
		if err := s.Write(id, []byte("\r")); err != nil {
			t.Fatal(err)
		}
	}
	waitAgent(t, s, on, agentstate.Working)
	waitOutput(t, s, off, "thinking")
	if info, _ := s.Info(off); info.Agent != "" || info.AgentBy != "" || info.AgentState != agentstate.Unknown {
		t.Errorf("--agent none: agent %q by %q, %s", info.Agent, info.AgentBy, info.AgentState)
	}
	if r, _ := s.get(off); r.fg != nil || r.agent.Load() != nil {
		t.Error("--agent none: the foreground is watched")
	}
	if info, _ := s.Info(forced); info.Agent != "toy" || !strings.HasPrefix(info.AgentBy, "forced") {
		t.Errorf("--agent toy: agent %q by %q", info.Agent, info.AgentBy)
	}
	for _, id := range []string{on, off, forced} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// An interactive shell is no agent until the user starts one in it: the agent is
// recognised once it draws; when it exits, the shell's prompt is no agent again; a
// second agent started then is recognised as itself.
func TestAgentStartedLaterInAShell(t *testing.T) {
	_, path := toyBin(t)
	s := newSup(t, WithScreens(), WithAgents(toy2Set(t)))
	id := spawn(t, s, Spec{Argv: []string{"sh", "-i"}, Env: []string{path, "PS1=$ ", "ENV="}, PTY: true})
	waitOutput(t, s, id, "$ ")
	if info, _ := s.Info(id); info.Agent != "" {
		t.Fatalf("a shell is %q", info.Agent)
	}
	if err := s.Write(id, []byte("toy-agent\r")); err != nil {
		t.Fatal(err)
	}
	info := waitAgent(t, s, id, agentstate.Idle)
	if info.Agent != "toy" || !strings.HasPrefix(info.AgentBy, "from the foreground process ") {
		t.Fatalf("agent %q by %q", info.Agent, info.AgentBy)
	}
	for range 5 { // the toy agent's five steps, then it exits
		if err := s.Write(id, []byte("\r")); err != nil {
			t.Fatal(err)
		}
	}
	waitInfo(t, s, id, "no agent after the agent exited", func(i Info) bool { return i.Agent == "" })
	if err := s.Write(id, []byte("toy2-agent\r")); err != nil {
		t.Fatal(err)
	}
	info = waitInfo(t, s, id, "toy2 recognised", func(i Info) bool { return i.Agent == "toy2" && i.AgentState == agentstate.Idle })
	if !strings.Contains(info.AgentBy, "toy2-agent") {
		t.Errorf("toy2 by %q", info.AgentBy)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// The costs of looking at the foreground: the ioctl each judgment makes, and the
// look at the group's members that a change of the group (or a new process while no
// agent is known) brings, for a toy agent under sh -c.
func BenchmarkForegroundLook(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "toy-agent"), []byte("#!/bin/sh\n"+toyScript+"\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	a, err := agentstate.ParseRules("toy.toml", []byte(testkit.ToyRules))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(WithDefaults(testDefaults()), WithScreens(), WithAgents(agentstate.NewSet(a)), WithCgroups(FindCgroups("")))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	id, err := s.Spawn(Spec{Argv: []string{"sh", "-c", "cd / && toy-agent"}, Env: []string{"PATH=" + dir + ":" + os.Getenv("PATH")}, PTY: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Cancel(id)
	r, _ := s.get(id)
	eventually.True(b, 20*time.Second, "the toy agent recognised", func() bool { return r.agent.Load() != nil })
	r.mu.Lock()
	proc, root, cg := r.proc, r.info.PID, r.cgroup
	r.mu.Unlock()
	b.Run("ioctl", func(b *testing.B) {
		for range b.N {
			proc.ForegroundPgrp()
		}
	})
	pgrp, _ := proc.ForegroundPgrp()
	b.Run("members", func(b *testing.B) {
		for range b.N {
			if len(fgMembers(cg, root, pgrp)) == 0 {
				b.Fatal("no members")
			}
		}
	})
	b.Run("stamp", func(b *testing.B) { // a burst's start while no agent is known
		for range b.N {
			fgProcs(cg)
			fgNames([]int{root})
		}
	})
}

// What watching the foreground costs a PTY run that is no agent and writes a line
// every 5 ms for 2 s (no agent ever found, so each judgment checks the run's
// processes): the server's CPU time with the watch, and with --agent none.
func BenchmarkForegroundWatchCPU(b *testing.B) {
	for _, c := range []struct{ name, agent string }{{"watched", ""}, {"agent-none", AgentNone}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := New(WithDefaults(testDefaults()), WithScreens(), WithAgents(agentstate.Builtin()), WithCgroups(FindCgroups("")))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Shutdown(context.Background())
			var total time.Duration
			for range b.N {
				before := cpuTime()
				id, err := s.Spawn(Spec{Shell: "i=0; while [ $i -lt 400 ]; do echo line $i; sleep 0.005; i=$((i+1)); done",
					PTY: true, Agent: c.agent})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				s.Wait(ctx, id)
				cancel()
				total += cpuTime() - before
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "cpu-µs/run")
		})
	}
}

// cpuTime is this process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A re-adopted run whose command names one agent while another had taken its terminal
// under the previous server: the look at its start finds the one in the foreground,
// which is given what the record kept of its notifications as it is made, and
// judged from its screen at once. (The run as resumedRun leaves it: the command's agent, a foreground
// not looked at yet.)
func TestAgentReadoptedForegroundOverCommand(t *testing.T) {
	dir, _ := toyBin(t)
	launch := t.TempDir()
	if err := os.WriteFile(filepath.Join(launch, "toy-agent"), []byte("#!/bin/sh\nexec "+dir+"/toy2-agent\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	set := toy2Set(t)
	s := newSup(t, WithScreens(), WithAgents(set))
	id := spawn(t, s, Spec{Argv: []string{filepath.Join(launch, "toy-agent")}, PTY: true})
	waitInfo(t, s, id, "toy2 at its prompt", func(i Info) bool { return i.Agent == "toy2" && i.AgentState == agentstate.Idle })
	r, err := s.get(id)
	if err != nil {
		t.Fatal(err)
	}
	if r.fg == nil {
		t.Skip("no foreground recognition here")
	}

	r.fg.mu.Lock()
	r.fg.looked, r.fg.pgrp, r.fg.agentPID, r.fg.agentAt = false, 0, 0, 0
	r.fg.mu.Unlock()
	old := r.agent.Load()
	r.mu.Lock() // as resumedRun's startAgent: the agent the command names
	r.agent.Store(r.newAgentRun(set.Named("toy")))
	r.info.Agent, r.info.AgentBy = "toy", "from the command"
	r.mu.Unlock()
	old.stop()
	r.dropNotes(old)
	rec := Record{AgentStatus: AgentStatus{Agent: "toy2", AgentState: agentstate.Idle}, AgentEpisode: 3,
		AgentNotified: &NotifyMark{State: agentstate.Idle, Episode: 3, Event: NotifyTurnEnded, How: "sent"}}
	r.readopted.Store(&rec)
	r.lookAtStart()
	a := r.agent.Load()
	if a == nil || a.det.Agent().Name != "toy2" {
		t.Fatalf("after the look at its start: %q, want toy2", r.snapshot().Agent)
	}
	// Given the notes as it was made: a look on the keeper's bytes (the watch's timer)
	// may switch, and its judgment notify, before resume's restoreAgent.
	if ep, m, _ := a.notes.kept(); ep != 3 || m == nil || m.Event != NotifyTurnEnded {
		t.Errorf("toy2's notes: episode %d, mark %+v; want the record's", ep, m)
	}
	r.restoreAgent(rec)
	r.readopted.Store(nil)
	r.rejudgeAgent(rec)
	waitInfo(t, s, id, "toy2 idle again", func(i Info) bool { return i.Agent == "toy2" && i.AgentState == agentstate.Idle })
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A submit to a run no agent is known in yet, whose script starts the agent while the
// submit waits: readiness follows the agent once its foreground look recognises it
// (idle at its prompt, well before the line-mode quiet of 3 s would count), and the
// submit is checked as an agent's.
func TestSubmitReadyAgentAppearsMidWait(t *testing.T) {
	_, path := toyBin(t)
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	id := spawn(t, s, Spec{Argv: []string{"sh", "-c", "echo starting; sleep 1; toy-agent"}, Env: []string{path}, PTY: true})
	if r, _ := s.get(id); r.fg == nil {
		t.Skip("no foreground recognition here")
	}
	res, err := s.SubmitReady(context.Background(), id, "hello", 20*time.Second)
	if err != nil || res.Ready != ReadyAgentIdle || res.Took != "left idle" {
		t.Fatalf("submit: %+v %v", res, err)
	}
	if info := waitAgent(t, s, id, agentstate.Working); info.Agent != "toy" {
		t.Errorf("agent %q", info.Agent)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}
