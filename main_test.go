package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/reaper"
	"corral/runs/eventually"
)

// corralBin is the real corral binary, built once for these end-to-end tests. It also
// hosts the child programs (CORRAL_CHILD=1), so nothing else needs installing.
var corralBin string

func TestMain(m *testing.M) {
	demo.MaybeChild()
	dir, err := os.MkdirTemp("", "corral-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	corralBin = filepath.Join(dir, "corral")
	if out, err := exec.Command("go", "build", "-o", corralBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build corral: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// corral returns a command running the built binary with a private state dir.
func corral(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(corralBin, args...)
	cmd.Env = append(os.Environ(), "CORRAL_STATE_DIR="+t.TempDir())
	return cmd
}

// child is the argv prefix for `corral run` to run one of corral's own child programs.
func child(mode string, args ...string) []string {
	return append([]string{"--env", demo.ChildEnv + "=1", "--", corralBin, mode}, args...)
}

func runArgs(flags []string, childArgs []string) []string {
	return append(append([]string{"run"}, flags...), childArgs...)
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

var summaryRE = regexp.MustCompile(`(?m)^corral: \S+ ended: [a-z-]+ (\((exit \d+|signal SIG[A-Z0-9]+|[^)]*)\) )?after \S+; cleanup: \S+, killed \d+, verified empty$`)

func TestRunExitCodes(t *testing.T) {
	perm := filepath.Join(t.TempDir(), "not-executable")
	os.WriteFile(perm, []byte("#!/bin/sh\n"), 0o644)
	cases := []struct {
		name   string
		args   []string
		code   int
		reason string
		absent string // must not appear on stderr
	}{
		{"child code", runArgs(nil, child("exit", "3")), 3, "exit", ""},
		{"child code pty", runArgs([]string{"--pty"}, child("exit", "5")), 5, "exit", ""},
		{"killed by signal", []string{"run", "--shell", "--", "kill -KILL $$"}, 128 + 9, "signal", ""},
		{"overall timeout", runArgs([]string{"--timeout", "300ms"}, child("sleep")), 124, "overall-timeout", ""},
		{"stop signal", runArgs([]string{"--timeout", "300ms", "--stop-signal", "INT"}, child("ignore-term")), 124, "overall-timeout", "+kill"},
		{"no-output timeout", runArgs([]string{"--no-output-timeout", "300ms"}, child("silent")), 124, "no-output-timeout", ""},
		{"not found", []string{"run", "--", "corral-no-such-program"}, 127, "spawn-error", ""},
		{"not executable", []string{"run", "--", perm}, 126, "spawn-error", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, corral(t, c.args...))
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, c.code, r.stderr)
			}
			if !summaryRE.MatchString(r.stderr) || !strings.Contains(r.stderr, "ended: "+c.reason+" ") {
				t.Fatalf("summary line missing or wrong (want reason %s): %q", c.reason, r.stderr)
			}
			if c.absent != "" && strings.Contains(r.stderr, c.absent) {
				t.Fatalf("stderr has %q: %q", c.absent, r.stderr)
			}
		})
	}
}

func TestRunUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"run"},
		{"run", "--bogus", "--", "true"},
		{"run", "--shell", "--", "a", "b"},
		{"run", "--timeout", "soon", "--", "true"},
		{"run", "--stop-signal", "SIGNOPE", "--", "true"},
		{"frobnicate"},
	} {
		if r := run(t, corral(t, args...)); r.code != 2 || r.stderr == "" {
			t.Errorf("corral %v: exit %d, stderr %q; want 2 and a message", args, r.code, r.stderr)
		}
	}
	r := run(t, corral(t, "run", "--help"))
	if r.code != 0 || !strings.Contains(r.stderr, "exit codes:") || !strings.Contains(r.stderr, "127") {
		t.Errorf("--help: exit %d, %q", r.code, r.stderr)
	}
}

// report is the --json report's shape.
type report struct {
	ID, Name, Kind, Reason string
	ExitCode               *int    `json:"exit_code"`
	Signal                 *string `json:"signal"`
	PID, PGID, SID         int
	StartedAt              time.Time `json:"started_at"`
	EndedAt                time.Time `json:"ended_at"`
	DurationMS             *int64    `json:"duration_ms"`
	Cleanup                struct {
		Steps         []string `json:"steps"`
		Killed        int      `json:"killed"`
		VerifiedEmpty bool     `json:"verified_empty"`
	}
	Escapees   []any  `json:"escapees"`
	OutputTail string `json:"output_tail"`
}

func TestRunJSONReport(t *testing.T) {
	r := run(t, corral(t, runArgs([]string{"--json", "--name", "answer"}, child("streams"))...))
	if r.code != 3 {
		t.Fatalf("exit %d, want 3; stderr %q", r.code, r.stderr)
	}
	var rep report
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("report %q: %v", r.stdout, err)
	}
	if rep.Name != "answer" || rep.Kind != "pipe" || rep.Reason != "exit" || rep.ExitCode == nil ||
		*rep.ExitCode != 3 || rep.Signal != nil || rep.PID == 0 || rep.PGID != rep.PID ||
		rep.SID != rep.PID || rep.DurationMS == nil || !rep.Cleanup.VerifiedEmpty ||
		rep.Escapees == nil || rep.StartedAt.IsZero() || rep.EndedAt.Before(rep.StartedAt) {
		t.Fatalf("report %+v", rep)
	}
	if !strings.Contains(rep.OutputTail, "out 2") || !strings.Contains(rep.OutputTail, "err 2") {
		t.Errorf("tail %q lacks the output", rep.OutputTail)
	}
	if strings.Contains(r.stdout, "out 0\n") {
		t.Error("--json also streamed the output to stdout")
	}
}

func TestRunStreamsAndForwardsStdin(t *testing.T) {
	cmd := corral(t, runArgs(nil, child("readline"))...)
	cmd.Stdin = strings.NewReader("hello\n")
	r := run(t, cmd)
	if r.code != 0 || r.stdout != "ready\ngot: hello\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestRunPTYWithoutTerminal(t *testing.T) {
	r := run(t, corral(t, "run", "--pty", "--shell", "--", "stty size; test -t 0 && echo tty"))
	if r.code != 0 || !strings.Contains(r.stdout, "40 120") || !strings.Contains(r.stdout, "tty") {
		t.Fatalf("exit %d stdout %q", r.code, r.stdout)
	}
}

func TestRunTranscriptInStateDir(t *testing.T) {
	state := t.TempDir()
	cmd := corral(t, runArgs([]string{"--state-dir", state}, child("exit", "0"))...)
	if r := run(t, cmd); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	logs, _ := filepath.Glob(filepath.Join(state, "logs", "*.log"))
	if len(logs) == 0 {
		t.Fatal("no transcript in the state dir")
	}
	if b, _ := os.ReadFile(logs[0]); string(b) != "bye\n" {
		t.Errorf("transcript %q", b)
	}
}

// Signals to corral run end the run through the escalation and map to exit codes.
func TestRunSignals(t *testing.T) {
	cases := []struct {
		sig    syscall.Signal
		code   int
		reason string
	}{
		{syscall.SIGINT, 130, "manual-cancel"},
		{syscall.SIGTERM, 143, "supervisor-shutdown"},
		{syscall.SIGHUP, 129, "supervisor-shutdown"},
		{syscall.SIGQUIT, 131, "supervisor-shutdown"},
	}
	for _, c := range cases {
		t.Run(c.sig.String(), func(t *testing.T) {
			cmd := corral(t, runArgs([]string{"--json"}, child("tree", "1"))...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// --json streams nothing; wait for the child to exist via /proc instead.
			waitChildRunning(t, cmd.Process.Pid)
			cmd.Process.Signal(c.sig)
			var rep report
			if err := json.NewDecoder(bufio.NewReader(out)).Decode(&rep); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.code {
				t.Fatalf("exit %v, want %d; stderr %q", err, c.code, errb.String())
			}
			if rep.Reason != c.reason || !rep.Cleanup.VerifiedEmpty || rep.Cleanup.Killed != 2 {
				t.Fatalf("report %+v", rep)
			}
			if m, _ := reaper.Session(rep.SID); len(m) > 0 {
				t.Fatalf("left behind: %+v", m)
			}
		})
	}
}

// waitChildRunning waits until corral (pid) has a child whose own child (the tree's
// second level) runs the tree program: exec'd, not only forked. A signal that found the
// second level between its fork and its exec was counted apart (killed 1, not 2: seen
// once in a loaded soak).
func waitChildRunning(t *testing.T, pid int) {
	t.Helper()
	// /proc has no change notification: it is polled.
	eventually.True(t, 20*time.Second, "the run's tree to come up", func() bool {
		all, _ := reaper.ListAll()
		for _, p := range all {
			if p.PPID != pid {
				continue
			}
			for _, d := range reaper.Descendants(all, p.PID) {
				if argv, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", d.PID)); bytes.HasSuffix(argv, []byte("tree\x000\x00")) {
					return true
				}
			}
		}
		return false
	})
}

// An escaping command (setsid + double fork) under --escape-policy fail ends with
// ownership-escape, exit 122, and its escapee is dead.
func TestRunOwnershipEscape(t *testing.T) {
	r := run(t, corral(t, runArgs([]string{"--json", "--escape-policy", "fail"}, child("escape"))...))
	if r.code != 122 || !strings.Contains(r.stderr, "ended: ownership-escape") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscanf(rep.OutputTail, "escapee %d", &pid); err != nil {
		t.Fatalf("tail %q: %v", rep.OutputTail, err)
	}
	if len(rep.Escapees) != 1 {
		t.Errorf("escapees %v, want the one escapee", rep.Escapees)
	}
	if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
		t.Fatalf("escapee %d still alive", pid)
	}
}

// By default an escapee is the run's (issue 14.1): the run goes on until its timeout,
// the report lists the escapee with its command line, and it is dead afterwards.
func TestRunEscapeOwnedByDefault(t *testing.T) {
	r := run(t, corral(t, runArgs([]string{"--json", "--timeout", "2s", "--no-output-timeout", "0"}, child("escape"))...))
	if !strings.Contains(r.stderr, "ended: overall-timeout") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	var rep struct {
		OutputTail string `json:"output_tail"`
		Escapees   []struct {
			PID  int      `json:"pid"`
			Argv []string `json:"argv"`
		} `json:"escapees"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscanf(rep.OutputTail, "escapee %d", &pid); err != nil {
		t.Fatalf("tail %q: %v", rep.OutputTail, err)
	}
	if len(rep.Escapees) != 1 || rep.Escapees[0].PID != pid || len(rep.Escapees[0].Argv) < 2 || rep.Escapees[0].Argv[1] != "sleep" {
		t.Errorf("escapees %+v, want pid %d with its argv", rep.Escapees, pid)
	}
	if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
		t.Fatalf("escapee %d still alive", pid)
	}
}

// ls and reconcile on the registry corral run wrote.
func TestLsAndReconcile(t *testing.T) {
	state := t.TempDir()
	for _, code := range []string{"0", "4"} {
		cmd := corral(t, runArgs([]string{"--state-dir", state, "--name", "job" + code}, child("exit", code))...)
		run(t, cmd)
	}
	r := run(t, corral(t, "ls", "--json", "--state-dir", state))
	var ls struct {
		Runs []struct {
			RunID               string `json:"run_id"`
			Name, State, Reason string
			OwnerAlive          *bool `json:"owner_alive"`
		}
		Metrics struct {
			Spawn int            `json:"run_spawn_total"`
			Exit  map[string]int `json:"run_exit_total"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || r.code != 0 {
		t.Fatalf("ls --json: %v, exit %d: %s", err, r.code, r.stdout)
	}
	if len(ls.Runs) != 2 || ls.Runs[0].State != "exited" || ls.Runs[0].OwnerAlive == nil ||
		ls.Metrics.Spawn != 2 || ls.Metrics.Exit["exit"] != 2 {
		t.Fatalf("ls %+v", ls)
	}
	table := run(t, corral(t, "ls", "--state-dir", state))
	if !strings.Contains(table.stdout, "job4") || !strings.HasPrefix(table.stdout, "ID") {
		t.Fatalf("ls table %q", table.stdout)
	}
	rec := run(t, corral(t, "reconcile", "--json", "--state-dir", state))
	if rec.code != 0 || rec.stdout != "" {
		t.Fatalf("reconcile with nothing open: exit %d %q", rec.code, rec.stdout)
	}
}

// tmuxTerm is a private tmux server (its own socket) showing one window that runs a
// command. The tests drive it with send-keys and read it with capture-pane, as a
// person at a terminal would; the server is killed by its socket when the test ends.
type tmuxTerm struct {
	t    *testing.T
	sock string
	last time.Time // when keys were last sent
}

var tmuxCount atomic.Int32

func startTmux(t *testing.T, w, h int, cmdline string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed (.ci/run installs it)")
		}
		t.Skip("tmux not installed")
	}
	x := &tmuxTerm{t: t, sock: fmt.Sprintf("corral-test-%d-%d", os.Getpid(), tmuxCount.Add(1))}
	// The pane outlives the command, so its exit code and last screen can be read.
	shell := cmdline + "; echo CORRAL-EXIT=$?; sleep 600"
	x.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), shell)
	t.Cleanup(func() { exec.Command("tmux", "-L", x.sock, "kill-server").Run() })
	return x
}

func (x *tmuxTerm) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.sock}, args...)...).CombinedOutput()
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
func (x *tmuxTerm) text(s string)    { x.send("send-keys", "-t", "t", "-l", s) }

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

// assertEnded checks that the registry holds n runs, every one ended with reason, and
// that nothing they started is left.
func assertEnded(t *testing.T, state string, n int, reason string) {
	t.Helper()
	reps := registry(t, state)
	if len(reps) != n {
		t.Fatalf("registry %+v, want %d runs", reps, n)
	}
	for _, r := range reps {
		if r.Reason != reason {
			t.Errorf("%s ended %s, want %s", r.Name, r.Reason, reason)
		}
	}
	assertNothingLeft(t, state)
}

// regRun is a run as corral ls --json reports it.
type regRun struct {
	RunID               string `json:"run_id"`
	Name, Reason, State string
	PID                 int
}

// registry reads the runs recorded in a state dir through corral ls --json.
func registry(t *testing.T, state string) []regRun {
	t.Helper()
	out, err := exec.Command(corralBin, "ls", "--json", "--all", "--state-dir", state).Output()
	if err != nil {
		t.Fatal(err)
	}
	var ls struct{ Runs []regRun }
	if err := json.Unmarshal(out, &ls); err != nil {
		t.Fatal(err)
	}
	return ls.Runs
}

// assertNothingLeft checks that no run recorded in state has a live session member.
func assertNothingLeft(t *testing.T, state string) {
	t.Helper()
	for _, r := range registry(t, state) {
		if r.State != "exited" {
			t.Errorf("run %s (%s) is %s", r.Name, r.RunID, r.State)
		}
		if m, _ := reaper.Session(r.PID); len(m) > 0 {
			t.Errorf("run %s left %+v", r.Name, m)
		}
	}
}

// A shell in the UI: focus it and type a command, interrupt it with send-keys C-c,
// resize the terminal and see the child's stty size follow, cancel it, quit.
func TestUIShellSession(t *testing.T) {
	state := serverState(t)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s PS1='$ ' %s -- bash --norc --noprofile",
		state, corralBin))
	x.waitFor(`bash\s+pty\s+running`, 20*time.Second)

	x.keys("Enter") // focus
	x.waitFor(`FOCUS`, 10*time.Second)
	x.text("echo hi-$((6*7))")
	x.keys("Enter")
	x.waitFor(`(?m)^.*hi-42`, 10*time.Second)

	x.text("stty size")
	x.keys("Enter")
	before := x.waitFor(sttyRE.String(), 10*time.Second)
	x.run("resize-window", "-t", "t", "-x", "100", "-y", "30")
	x.text("clear; stty size")
	x.keys("Enter")
	x.waitUntil("stty size to follow the resize from "+sizeOf(before), 10*time.Second, func(s string) bool {
		after := sizeOf(s)
		return after != "" && after != sizeOf(before)
	})

	x.text("sleep 1000")
	x.keys("Enter")
	x.keys("C-]") // leave focus
	x.keys("s")
	x.text("C-c")
	x.keys("Enter")
	x.keys("s")
	x.text(`"echo back-$((2+3))" Enter`)
	x.keys("Enter")
	x.waitFor(`back-5`, 10*time.Second) // the sleep was interrupted: the shell answers again

	x.keys("x")
	x.answer(`(?i)cancel.*\?`, "y")
	x.waitFor(`bash\s+(pty\s+)?exited.*cancel`, 20*time.Second) // a 100-column list drops the kind
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertNothingLeft(t, state)
}

// sttyRE finds stty's "rows cols" at the left edge of the terminal pane.
var sttyRE = regexp.MustCompile(`│(\d+ \d+) +│`)

// sizeOf is the last "rows cols" line on a screen.
func sizeOf(screen string) string {
	m := sttyRE.FindAllStringSubmatch(screen, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// Two runs; quitting with them live asks first, then ends both, leaving nothing: q in
// a UI that runs them itself (--local), the shutdown key (Q) in one attached to the
// server, where q would detach.
func TestUIQuitWithLiveRuns(t *testing.T) {
	t.Run("local", func(t *testing.T) { testQuitWithLiveRuns(t, "--local", "q") })
	t.Run("server", func(t *testing.T) { testQuitWithLiveRuns(t, "", "Q") })
}

func testQuitWithLiveRuns(t *testing.T, flag, quit string) {
	state := serverState(t)
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s %s -- env CORRAL_CHILD=1 %s sleep",
		state, corralBin, flag, corralBin))
	x.waitFor(`running`, 20*time.Second)
	x.keys("n") // a second run, from the new-run form
	x.waitFor(`(?i)new run`, 10*time.Second)
	x.text("sleep 1000")
	x.keys("Enter")
	x.waitFor(`(?s)running.*running`, 20*time.Second)
	// The terminal's title says how many runs are live (OSC 2, which tmux keeps as the
	// pane title).
	eventually.Value(t, 10*time.Second, `the pane title "corral · 2 live"`, func() (string, bool) {
		title := strings.TrimSpace(x.run("display", "-p", "-t", "t", "#{pane_title}"))
		return title, title == "corral · 2 live"
	})
	x.keys(quit)
	x.answer(`2 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	assertEnded(t, state, 2, "supervisor-shutdown")
}

// A [[run]] with autostart = false is listed as not started, is not in the registry,
// and starts on R; it is then a run like any other, and the events pane counts both.
func TestUIPendingRunStartsOnKey(t *testing.T) {
	state, dir := serverState(t), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	toml := "[[run]]\nname = \"first\"\ncmd = \"echo first-up\"\n\n" +
		"[[run]]\nname = \"later\"\ncmd = \"echo started-$((6*7))\"\nautostart = false\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin, cfg))
	x.waitFor(`(?s)first\s+pipe\s+exited.*later\s+pipe\s+not started`, 20*time.Second)
	if reps := registry(t, state); len(reps) != 1 || reps[0].Name != "first" {
		t.Fatalf("registry %+v, want only the autostart run", reps)
	}
	x.keys("j")
	x.waitFor(`Details later \(not started\)`, 10*time.Second)
	x.keys("R")
	x.waitFor(`started-42`, 20*time.Second)
	screen := x.waitFor(`later\s+pipe\s+exited`, 20*time.Second)
	if strings.Contains(screen, "not started") {
		t.Errorf("the pending row stayed after the start:\n%s", screen)
	}
	x.waitFor(`Events( [0-9–/]+)? · spawned 2 · escape events 0 `, 10*time.Second) // the supervisor's counters (DESIGN §11)
	x.keys("q")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	assertEnded(t, state, 2, "exit")
}

// corral demo --autoplay runs to the end in tmux; every scenario run reaches its
// expected reason (read back from the demo's registry), and nothing is left.
func TestDemoAutoplay(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo takes about a minute")
	}
	state := t.TempDir()
	x := startTmux(t, 140, 45, fmt.Sprintf("%s demo --autoplay --state-dir %s", corralBin, state))
	screen := x.waitFor(`CORRAL-EXIT=\d+`, 4*time.Minute)
	if !strings.Contains(screen, "CORRAL-EXIT=0") {
		t.Fatalf("autoplay failed:\n%s", screen)
	}
	want := map[string]string{"build": "exit", "silent-job": "no-output-timeout", "deadline": "overall-timeout",
		"wrapper": "manual-cancel", "stubborn": "overall-timeout", "daemonizer": "ownership-escape",
		"failing": "exit", "agent": "supervisor-shutdown"}
	for _, r := range registry(t, state) {
		if want[r.Name] != r.Reason {
			t.Errorf("%s ended %s, want %s", r.Name, r.Reason, want[r.Name])
		}
	}
	assertNothingLeft(t, state)
}

// A PTY run's recording plays back inside a Corral pane.
func TestReplayRecording(t *testing.T) {
	state := t.TempDir()
	rec := corral(t, "run", "--pty", "--state-dir", state, "--shell", "--", "printf 'hello \\033[32mreplay\\033[0m\\n'")
	if r := run(t, rec); r.code != 0 {
		t.Fatalf("record: exit %d %s", r.code, r.stderr)
	}
	casts, _ := filepath.Glob(filepath.Join(state, "logs", "*.cast"))
	if len(casts) != 1 {
		t.Fatalf("recordings %v, want one", casts)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay --speed 4 %s", t.TempDir(), corralBin, casts[0]))
	x.waitFor(`hello replay`, 20*time.Second)
	x.waitFor(`end of recording`, 20*time.Second)
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	if r := run(t, corral(t, "replay", filepath.Join(state, "nope.cast"))); r.code != 2 {
		t.Errorf("a missing recording: exit %d, want 2", r.code)
	}

	// A recording that was resized plays at its sizes, whatever the pane's: 40×10, then
	// 60×12, where 60 #s fill one line.
	resized := filepath.Join(t.TempDir(), "resized.cast")
	os.WriteFile(resized, []byte(`{"version": 2, "width": 40, "height": 10}
[0.0, "o", "before\r\n"]
[0.05, "r", "60x12"]
[0.1, "o", "`+strings.Repeat("#", 60)+`after"]
`), 0o600)
	x = startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay %s", t.TempDir(), corralBin, resized))
	full := regexp.MustCompile(`│#{60} +│`) // 60 #s and the line's end: no wrap at 40
	x.waitUntil("the replay at 60×12", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "· 60×12") && full.MatchString(s) && strings.Contains(s, "│after")
	})
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}
