// Package uitest is what the tests of the UI's packages share: the fixed clock, the
// runs and process trees they draw, and the golden files their views are compared
// with (testdata/NAME.golden in the package under test, rewritten with -update).
// Only tests import it.
package uitest

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/watchdog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// T0 is the fixed clock of every test.
var T0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// LiveRun is a running run with armed deadlines.
func LiveRun(id, name string, pty bool) runs.Info {
	spec := runs.Spec{Name: name, Shell: name, PTY: pty, Timeout: 10 * time.Minute}
	i := runs.Info{ID: id, Name: name, Kind: spec.Kind(), Spec: spec, State: runs.Running, Seq: 3,
		PID: 4242, Cols: 80, Rows: 24, CreatedAt: T0.Add(-2 * time.Minute), StartedAt: T0.Add(-2 * time.Minute),
		Fingerprint: reaper.Fingerprint{BootID: "0123456789abcdef", PID: 4242, StartTime: 777},
		LeaseOwner:  "inst-1", LeaseEpoch: 1, LeaseExpiresAt: T0.Add(30 * time.Second),
		Transcript: ""}
	i.Watchdog = watchdog.State{
		Overall:    watchdog.Deadline{Armed: true, At: T0.Add(8 * time.Minute), Span: 10 * time.Minute},
		NoOutput:   watchdog.Deadline{Armed: true, At: T0.Add(50 * time.Second), Span: 5 * time.Minute},
		LastOutput: T0.Add(-4 * time.Minute), LastOutputAge: 4 * time.Minute,
	}
	return i
}

// EndedRun is a cancelled run.
func EndedRun(id, name string) runs.Info {
	i := LiveRun(id, name, false)
	i.State, i.Reason, i.Signal, i.Seq = runs.Exited, runs.ManualCancel, 15, 9
	i.EndedAt = T0.Add(-time.Minute)
	i.Watchdog = watchdog.State{Overall: watchdog.Deadline{Span: 10 * time.Minute}, Stopped: true}
	i.Cleanup = runs.Cleanup{Steps: []reaper.Step{reaper.StepTerm}, Killed: 1, VerifiedEmpty: true}
	return i
}

// Tree is a process tree of four: a shell, its make and compiler, and a daemon that
// escaped with control characters in its name.
func Tree() []reaper.TreeProc {
	return []reaper.TreeProc{
		{Proc: reaper.Proc{PID: 4242, PPID: 1, PGID: 4242, SID: 4242, State: 'S', Comm: "bash", RSS: 4 << 20},
			Mark: reaper.MarkRoot, CPU: 120 * time.Millisecond},
		{Proc: reaper.Proc{PID: 4250, PPID: 4242, PGID: 4242, SID: 4242, State: 'R', Comm: "make", RSS: 9 << 20},
			Mark: reaper.MarkMember, Depth: 1, CPU: 15 * time.Second},
		{Proc: reaper.Proc{PID: 4251, PPID: 4250, PGID: 4251, SID: 4242, State: 'S', Comm: "cc1", RSS: 900 << 10},
			Mark: reaper.MarkGroup, Depth: 2, CPU: 3 * time.Minute},
		{Proc: reaper.Proc{PID: 4300, PPID: 1, PGID: 4300, SID: 4300, State: 'S', Comm: "daemon\x1b[2J", RSS: 2 << 20},
			Mark: reaper.MarkEscaped},
	}
}

// DaemonArgv is what a codex-like agent's two escaped daemons run.
var DaemonArgv = [][]string{
	{"/tmp/ctmux1234567890/corral", "agent-daemon", "app-server", "--managed-daemon"},
	{"/tmp/ctmux1234567890/corral", "agent-daemon", "pid-update-loop"},
}

// EscapedTree is a live agent's tree whose two daemons (DaemonArgv) left its session.
func EscapedTree() []reaper.TreeProc {
	return []reaper.TreeProc{
		{Proc: reaper.Proc{PID: 1234567, PPID: 1, PGID: 1234567, SID: 1234567, State: 'S', Comm: "corral", RSS: 12 << 20},
			Mark: reaper.MarkRoot, CPU: 1500 * time.Millisecond},
		{Proc: reaper.Proc{PID: 1234590, PPID: 1234567, PGID: 1234590, SID: 1234590, State: 'S', Comm: "corral", RSS: 8 << 20},
			Mark: reaper.MarkEscaped, Depth: 1, Argv: DaemonArgv[0]},
		{Proc: reaper.Proc{PID: 1234591, PPID: 1234567, PGID: 1234591, SID: 1234591, State: 'S', Comm: "corral", RSS: 7 << 20},
			Mark: reaper.MarkEscaped, Depth: 1, Argv: DaemonArgv[1]},
	}
}

// PendingSpecs are two configured runs not started: an argv PTY run with everything
// set, and a shell pipe run with the no-output deadline off.
func PendingSpecs() []runs.Spec {
	return []runs.Spec{
		{Name: "agent", Argv: []string{"claude", "--model", "big one"}, PTY: true, Dir: "/src/app",
			Timeout: 2 * time.Hour, Env: []string{"A=1", "TOKEN=secret"}},
		{Name: "api", Shell: "go run ./cmd/api", Timeout: 0, NoOutputTimeout: -1, Grace: 10 * time.Second},
	}
}

// AgentRun is a live agent run in a state since d before T0.
func AgentRun(id, name string, s agentstate.State, d time.Duration, rule string) runs.Info {
	i := LiveRun(id, name, true)
	i.Agent, i.AgentState, i.AgentStateSince, i.AgentRule = "claude", s, T0.Add(-d), rule
	return i
}

// SixAgents are six agents, as a user babysits them: who needs them reads at a glance.
func SixAgents() []runs.Info {
	shell := LiveRun("r6", "shell", true)
	return []runs.Info{
		AgentRun("r1", "claude-api", agentstate.Working, time.Minute, "spinner-title"),
		AgentRun("r2", "claude-ui", agentstate.Waiting, 30*time.Second, "permission"),
		AgentRun("r3", "codex-db", agentstate.Idle, 5*time.Minute, "prompt"),
		AgentRun("r4", "codex-docs", agentstate.Waiting, 2*time.Minute, "approval"),
		AgentRun("r5", "claude-new", agentstate.Unknown, 2*time.Second, ""),
		shell,
	}
}

// Golden compares got with testdata/name.golden (rewriting it with -update).
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -run %s -update to accept):\n--- got\n%s\n--- want\n%s",
			path, t.Name(), got, want)
	}
}

// GoldenView checks a view as text and, styles included, as quoted lines; every line
// must be exactly w columns wide.
func GoldenView(t *testing.T, name, view string, w int) {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: line %d is %d columns, want %d: %q", name, i, n, w, l)
		}
	}
	Golden(t, name, ansi.Strip(view)+"\n")
	var b strings.Builder
	for _, l := range strings.Split(view, "\n") {
		b.WriteString(strconv.Quote(l) + "\n")
	}
	Golden(t, name+".styled", b.String())
}
