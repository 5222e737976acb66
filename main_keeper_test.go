package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/client"
)

// Runs that survive their server (a kill -9 of it ends none), through the binary: the
// server is the keeper's child, the keeper holds every run's terminal or pipes, and a
// server started after another takes the runs back.

// keeperPID reads the state dir's keeper's pid from its lock file.
func keeperPID(t testing.TB, state string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "keeper.lock"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("keeper pid: %q %v", b, err)
	}
	return pid
}

// killKeeperAndServer SIGKILLs the state dir's keeper and server (each pinned first,
// so that a pid reused meanwhile is never signalled) and waits until both are gone:
// nothing holds the runs any more.
func killKeeperAndServer(t *testing.T, state string) {
	t.Helper()
	keeper, srv := testkit.Pin(t, keeperPID(t, state)), testkit.Pin(t, serverPID(t, state))
	keeper.Signal(syscall.SIGKILL)
	srv.Signal(syscall.SIGKILL)
	waitGone(t, srv.PID, "the killed server")
	waitGone(t, keeper.PID, "the killed keeper")
}

// counter is a shell loop printing PREFIX1, PREFIX2, … every 50 ms.
func counter(prefix string) string {
	return fmt.Sprintf(`i=0; while :; do i=$((i+1)); echo %s$i; sleep 0.05; done`, prefix)
}

// lsRuns is corral ls --json's runs by name.
func lsRuns(t *testing.T, state string) map[string]lsEntry { return lsRunsOf(t, state) }

func lsRunsOf(t testing.TB, state string) map[string]lsEntry {
	t.Helper()
	var ls struct {
		Runs []lsEntry `json:"runs"`
	}
	r := serverCorral(t, state, "ls", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("ls --json: %v: %+v", err, r)
	}
	out := map[string]lsEntry{}
	for _, x := range ls.Runs {
		out[x.Name] = x
	}
	return out
}

type lsEntry struct {
	Name     string `json:"name"`
	PID      int    `json:"pid"`
	State    string `json:"state"`
	Reason   string `json:"reason"`
	ExitCode *int   `json:"exit_code"`
}

// counted checks that text holds prefix's counter values from 1 (or its first) to at
// least upTo with none missing, and returns the last.
func counted(t *testing.T, text, prefix string) (first, last int, gaps []string) {
	t.Helper()
	first, last = -1, -1
	for _, m := range regexp.MustCompile(prefix+`(\d+)`).FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		switch {
		case last == -1:
			first = n
		case n != last+1:
			gaps = append(gaps, fmt.Sprintf("%d→%d", last, n))
		}
		last = n
	}
	return first, last, gaps
}

// newServerPID waits for the state dir's server to be another than old, and answering.
func newServerPID(t testing.TB, state string, old int) int {
	t.Helper()
	var pid int
	eventually.True(t, 20*time.Second, "a new server", func() bool {
		c, err := client.Dial(state)
		if err != nil {
			return false
		}
		defer c.Close()
		pid = c.Hello.PID
		return pid != old
	})
	return pid
}

// SIGKILL of the server with PTY and pipe runs writing counters: the keeper starts a
// new server, which takes the same pids back; corral log shows every counter value
// without a gap; the PTY screen shows the last lines; input reaches the run; a run
// that exited during the change has its real exit code. Then shutdown ends
// everything, the keeper included.
func TestServerKilledRunsGoOn(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	trigger := filepath.Join(t.TempDir(), "go")
	spawns := [][]string{
		{"--pty", "--name", "tty", "--shell", "--", counter("t")},
		{"--name", "pipe", "--shell", "--", counter("p")},
		{"--pty", "--name", "echo", "--shell", "--", `while read l; do echo "got $l"; done`},
		{"--name", "seven", "--shell", "--", fmt.Sprintf(`while [ ! -e %s ]; do sleep 0.01; done; exit 7`, trigger)},
	}
	for _, s := range spawns {
		if r := serverCorral(t, state, append([]string{"spawn"}, s...)...); r.code != 0 {
			t.Fatalf("spawn %v: %+v", s, r)
		}
	}
	keeper := keeperPID(t, state)
	endLater(t, testkit.Pin(t, keeper), syscall.SIGTERM, "keeper")
	before := lsRuns(t, state)
	eventually.True(t, 10*time.Second, "the counters to count", func() bool {
		_, last, _ := counted(t, serverCorral(t, state, "log", "tty").stdout, "t")
		return last >= 5
	})
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	os.WriteFile(trigger, nil, 0o600) // "seven" exits while, or just after, no server runs
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)

	after := lsRuns(t, state)
	for _, name := range []string{"tty", "pipe", "echo"} {
		if after[name].PID != before[name].PID || after[name].State != "running" {
			t.Errorf("%s: before %+v, after %+v", name, before[name], after[name])
		}
	}
	eventually.True(t, 10*time.Second, "seven to end with its own exit code", func() bool {
		s := lsRuns(t, state)["seven"]
		return s.State == "exited" && s.ExitCode != nil && *s.ExitCode == 7 && s.Reason == "exit"
	})
	for _, c := range []struct{ name, prefix string }{{"tty", "t"}, {"pipe", "p"}} {
		var text string
		eventually.Value(t, 10*time.Second, c.name+"'s log to go on past the kill", func() (string, bool) {
			text = serverCorral(t, state, "log", c.name, "--limit", "100000").stdout
			_, last, _ := counted(t, text, c.prefix)
			return text, last >= 60 // 3 s of counting: well past the kill
		})
		if first, last, gaps := counted(t, text, c.prefix); first != 1 || len(gaps) > 0 {
			t.Errorf("%s's log: %d..%d, gaps %v", c.name, first, last, gaps)
		}
	}
	eventually.Value(t, 10*time.Second, "the PTY screen to show the latest lines", func() (string, bool) {
		scr := serverCorral(t, state, "screen", "tty").stdout
		_, last, _ := counted(t, scr, "t")
		return scr, last >= 60
	})
	if r := serverCorral(t, state, "submit", "echo", "after the kill"); r.code != 0 {
		t.Fatalf("submit: %+v", r)
	}
	eventually.Value(t, 10*time.Second, "input to reach the resumed run", func() (string, bool) {
		out := serverCorral(t, state, "log", "echo").stdout
		return out, strings.Contains(out, "got after the kill")
	})

	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, keeper, "the keeper, once nothing is kept")
	for name, r := range after {
		if r.PID > 1 {
			waitGone(t, r.PID, name)
		}
	}
}

// corral server --upgrade to another binary, one that speaks the next protocol, with
// 20 runs: no run ends, the same pids run under a server of the new binary, and they
// answer input.
func TestServerUpgradeKeepsRuns(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	newBin := nextCorral(t)
	t.Cleanup(func() { withBin(t, newBin, state, "shutdown") }) // before serverState's
	const n = 20
	for i := range n {
		if r := serverCorral(t, state, "spawn", "--pty", "--name", fmt.Sprintf("u%02d", i), "--shell", "--",
			`while read l; do echo "got $l"; done`); r.code != 0 {
			t.Fatalf("spawn: %+v", r)
		}
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	if d := serverCorral(t, state, "doctor"); !strings.Contains(d.stdout, fmt.Sprintf("keeper:           pid %d: the runs outlive the server", keeperPID(t, state))) {
		t.Errorf("corral doctor of a server with its keeper:\n%s", d.stdout)
	}
	before := lsRuns(t, state)
	old := serverPID(t, state)

	up := withBin(t, newBin, state, "server", "--upgrade")
	if up.code != 0 || !strings.Contains(up.stderr, "20 live run(s) handed over, 20 live now") {
		t.Fatalf("upgrade: %+v", up)
	}
	next := serverPID(t, state)
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", next)); next == old || exe != newBin {
		t.Fatalf("server after the upgrade: pid %d (was %d), exe %q, want %q", next, old, exe, newBin)
	}
	after := lsRuns(t, state)
	for name, b := range before {
		if a := after[name]; a.PID != b.PID || a.State != "running" {
			t.Errorf("%s: before %+v, after %+v", name, b, a)
		}
	}
	withBin(t, newBin, state, "submit", "u07", "still here")
	eventually.Value(t, 10*time.Second, "input to reach a handed-over run", func() (string, bool) {
		out := withBin(t, newBin, state, "log", "u07").stdout
		return out, strings.Contains(out, "got still here")
	})
	if strings.Contains(readEvents(t, state), `"reason":"supervisor-shutdown"`) {
		t.Error("a run was ended by the upgrade")
	}
}

// An upgrade asked of a server no keeper started is refused with why, and ends nothing.
func TestUpgradeWithoutKeeperRefused(t *testing.T) {
	t.Parallel()
	state := serverState(t) // shuts down whatever server is left
	srv := withState(corral(t, "server", "--no-keeper"), state)
	srv.Stderr = io.Discard
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Wait() }) // last: after endLater's SIGTERM
	endLater(t, testkit.Pin(t, srv.Process.Pid), syscall.SIGTERM, "server")
	eventually.True(t, 10*time.Second, "the server to answer", func() bool {
		c, err := client.Dial(state)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	if d := serverCorral(t, state, "doctor"); !strings.Contains(d.stdout, "keeper:           none: the runs end with the server") {
		t.Errorf("corral doctor of a server without keeper:\n%s", d.stdout)
	}
	up := serverCorral(t, state, "server", "--upgrade")
	if up.code == 0 || !strings.Contains(up.stderr, "was not started by a keeper") {
		t.Fatalf("upgrade of a server without keeper: %+v", up)
	}
	if pid := serverPID(t, state); pid != srv.Process.Pid {
		t.Fatalf("server pid %d, want %d: it must go on", pid, srv.Process.Pid)
	}
}

// SIGKILL of the keeper and the server: nothing holds the runs any more, and the next
// server reaps them by reconciliation, exactly once; nothing is left.
func TestKeeperAndServerKilledReconciled(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	sp := serverCorral(t, state, "spawn", "--name", "orphan", "--", "sleep", "300")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	orphan := recordedPID(t, state, "orphan")
	endLater(t, testkit.Pin(t, orphan), syscall.SIGKILL, "the orphan") // only if the test failed
	killKeeperAndServer(t, state)
	if r := serverCorral(t, state, "spawn", "--name", "next", "--", "true"); r.code != 0 {
		t.Fatalf("spawn on a new server: %+v", r)
	}
	eventually.True(t, 30*time.Second, "the new server to reap the orphan", func() bool {
		o := lsRuns(t, state)["orphan"]
		if o.State == "exited" && o.Reason != "orphan-reaped" {
			t.Fatalf("the orphan's record closed %s", o.Reason)
		}
		return o.State == "exited"
	})
	waitGone(t, orphan, "the orphan")
	if n := strings.Count(readEvents(t, state), `"decision":"orphan-reaped"`); n != 1 {
		t.Errorf("%d orphan-reaped decisions, want exactly 1", n)
	}
}

// SIGSTOP of the server: the runs go on writing (into the terminal's buffer); once it
// continues, every value is in the log.
func TestServerStoppedRunsGoOn(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	mark := filepath.Join(t.TempDir(), "count")
	loop := fmt.Sprintf(`i=0; while :; do i=$((i+1)); echo s$i; echo $i > %s; sleep 0.05; done`, mark)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "tty", "--shell", "--", loop); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	count := func() int {
		b, _ := os.ReadFile(mark)
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n
	}
	eventually.True(t, 10*time.Second, "the run to count", func() bool { return count() > 0 })
	srv := testkit.Pin(t, serverPID(t, state))
	srv.Signal(syscall.SIGSTOP)
	t.Cleanup(func() { srv.Signal(syscall.SIGCONT) })
	from := count()
	eventually.True(t, 20*time.Second, "the run to count on while its server is stopped", func() bool {
		return count() >= from+20
	})
	srv.Signal(syscall.SIGCONT)
	var text string
	eventually.Value(t, 10*time.Second, "the log after the stop", func() (string, bool) {
		text = serverCorral(t, state, "log", "tty", "--limit", "100000").stdout
		_, last, _ := counted(t, text, "s")
		return text, last >= from+20
	})
	if first, last, gaps := counted(t, text, "s"); first != 1 || len(gaps) > 0 {
		t.Errorf("log: %d..%d, gaps %v", first, last, gaps)
	}
}

// corralCmd runs bin (a corral binary) in the test's environment.
func corralCmd(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	return cmd
}

// withState points cmd at state (the last CORRAL_STATE_DIR wins).
func withState(cmd *exec.Cmd, state string) *exec.Cmd {
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
	return cmd
}

// An attached UI rides an upgrade: the handed-over server leaves its socket, so the
// UI takes the end of its stream for a lost server, reconnects to the new one and
// finds its run there, taking input.
func TestUpgradeAttachedUIReconnects(t *testing.T) {
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "echoer", "--shell", "--", `while read l; do echo "got $l"; done`); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s attach", state, corralBin))
	x.waitFor(`echoer\s+pty\s+running`, 20*time.Second)
	x.typeInFocus("one", `got one`)
	old := serverPID(t, state)
	newBin := copyOfCorral(t)
	if up := withBin(t, newBin, state, "server", "--upgrade"); up.code != 0 {
		t.Fatalf("upgrade: %+v", up)
	}
	next := serverPID(t, state)
	x.waitFor(fmt.Sprintf(`reconnected to server pid %d`, next), 20*time.Second)
	if next == old {
		t.Fatalf("no new server: pid %d", next)
	}
	x.typeInFocus("two", `got two`)
	x.keys("Q")
	x.answer(`1 live run\(s\) will be ended`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}

// keeperSteady is how long a server must have run for the keeper to restart it at once
// (runs/keeper steadyAfter).
const keeperSteady = 5100 * time.Millisecond

// BenchmarkKeeper: a server holding keeperRuns PTY runs is SIGKILLed, b.N times; each
// time the keeper starts a new server and it takes every run back. Reported: the time
// from the kill to a new server answering with the runs taken back (ms/op), the new
// server's own time to take them back (its log), the keeper's resident memory with one
// run and with all (and per run), and the server's.
func BenchmarkKeeper(b *testing.B) {
	const keeperRuns = 200
	state := b.TempDir()
	at := func(args ...string) result {
		return run(b, withState(corralCmd(corralBin, args...), state))
	}
	if r := at("spawn", "--pty", "--name", "k000", "--", "sleep", "3600"); r.code != 0 {
		b.Fatalf("spawn: %+v", r)
	}
	keeper := keeperPID(b, state)
	b.Cleanup(func() {
		at("shutdown")
		waitGone(b, keeper, "keeper")
	})
	empty := memoryKB(b, keeper, "VmRSS")
	for i := 1; i < keeperRuns; i++ {
		if r := at("spawn", "--pty", "--name", fmt.Sprintf("k%03d", i), "--", "sleep", "3600"); r.code != 0 {
			b.Fatalf("spawn: %+v", r)
		}
	}
	full := memoryKB(b, keeper, "VmRSS")
	srv := serverPID(b, state)
	b.ResetTimer()
	for range b.N {
		// A server that dies young is restarted after a backoff; one that ran steadily
		// at once, which is the case measured.
		b.StopTimer()
		time.Sleep(keeperSteady)
		b.StartTimer()
		testkit.Pin(b, srv).Signal(syscall.SIGKILL)
		srv = newServerPID(b, state, srv)
	}
	b.StopTimer()
	live := 0
	for _, r := range lsRunsOf(b, state) {
		if r.State == "running" {
			live++
		}
	}
	if live != keeperRuns {
		b.Fatalf("%d runs live after the kills, want %d", live, keeperRuns)
	}
	if took, err := lastReadopt(state); err == nil {
		b.ReportMetric(float64(took.Microseconds())/1000, "readopt-ms")
	} else {
		b.Error(err)
	}
	b.ReportMetric(float64(empty), "keeper-KiB-1run")
	b.ReportMetric(float64(full), "keeper-KiB-200runs")
	b.ReportMetric(float64(full-empty)/float64(keeperRuns-1), "keeper-KiB/run")
	b.ReportMetric(float64(memoryKB(b, srv, "VmRSS")), "server-KiB-200runs")
}

// lastReadopt is how long the last server of state took to take its runs back, from
// its log ("readopt done … took=…").
func lastReadopt(state string) (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join(state, "server.log"))
	if err != nil {
		return 0, err
	}
	m := regexp.MustCompile(`msg="readopt done" runs=\d+ took=(\S+)`).FindAllSubmatch(b, -1)
	if len(m) == 0 {
		return 0, fmt.Errorf("no readopt in server.log")
	}
	return time.ParseDuration(string(m[len(m)-1][1]))
}

// A run paused under a server that is killed is still paused under the next one, and
// says so; resumed, it goes on.
func TestPausedRunStaysPausedAcrossServers(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "tty", "--shell", "--", counter("z")); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	if r := serverCorral(t, state, "pause", "tty"); r.code != 0 {
		t.Fatalf("pause: %+v", r)
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	var info string
	eventually.Value(t, 10*time.Second, "the run to show paused", func() (string, bool) {
		info = serverCorral(t, state, "info", "tty").stdout
		return info, regexp.MustCompile(`"paused":\s*true`).MatchString(info)
	})
	if r := serverCorral(t, state, "resume", "tty"); r.code != 0 {
		t.Fatalf("resume: %+v", r)
	}
	_, before, _ := counted(t, serverCorral(t, state, "log", "tty").stdout, "z")
	eventually.True(t, 10*time.Second, "the run to count on once resumed", func() bool {
		_, last, _ := counted(t, serverCorral(t, state, "log", "tty").stdout, "z")
		return last > before+3
	})
}

// BenchmarkKeeperFlood: a PTY run printing 100 MB (cat of a file), spawn → corral wait
// returned, under a server with its keeper and under one with --no-keeper, alternately.
// Reported: each one's median in ms, and the keeper's CPU ticks over all its floods.
func BenchmarkKeeperFlood(b *testing.B) {
	file := filepath.Join(b.TempDir(), "flood.txt")
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(strings.Repeat("word ", 19) + "\n")
	for n := 0; n < 100<<20; n += len(line) {
		f.Write(line)
	}
	f.Close()
	kept, bare := floodServer(b, false), floodServer(b, true)
	keeper := keeperPID(b, kept.state)
	ticks := cpuTicks(b, keeper)
	for b.Loop() {
		kept.flood(b, file)
		bare.flood(b, file)
	}
	b.ReportMetric(kept.median(), "keeper-ms")
	b.ReportMetric(bare.median(), "no-keeper-ms")
	b.ReportMetric(float64(cpuTicks(b, keeper)-ticks), "keeper-cpu-ticks")
}

// floodTarget is a state dir whose server floods are timed in.
type floodTarget struct {
	state string
	ms    []float64
}

func floodServer(b *testing.B, noKeeper bool) *floodTarget {
	t := &floodTarget{state: b.TempDir()}
	if noKeeper {
		srv := withState(corralCmd(corralBin, "server", "--no-keeper"), t.state)
		if err := srv.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { srv.Wait() })
		eventually.True(b, 10*time.Second, "the server to answer", func() bool {
			c, err := client.Dial(t.state)
			if err == nil {
				c.Close()
			}
			return err == nil
		})
	} else if r := run(b, withState(corralCmd(corralBin, "spawn", "--", "true"), t.state)); r.code != 0 {
		b.Fatalf("start: %+v", r)
	}
	b.Cleanup(func() { run(b, withState(corralCmd(corralBin, "shutdown"), t.state)) })
	return t
}

func (t *floodTarget) flood(b *testing.B, file string) {
	start := time.Now()
	r := run(b, withState(corralCmd(corralBin, "spawn", "--pty", "--", "cat", file), t.state))
	if r.code != 0 {
		b.Fatalf("spawn: %+v", r)
	}
	if w := run(b, withState(corralCmd(corralBin, "wait", strings.TrimSpace(r.stdout)), t.state)); w.code != 0 {
		b.Fatalf("wait: %+v", w)
	}
	t.ms = append(t.ms, float64(time.Since(start).Microseconds())/1000)
}

func (t *floodTarget) median() float64 {
	s := slices.Clone(t.ms)
	slices.Sort(s)
	return s[len(s)/2]
}

// cpuTicks is a process's user and system time in clock ticks (/proc/PID/stat).
func cpuTicks(b *testing.B, pid int) int {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// A daemon that leaves a run taken over from a killed server is reparented to the
// keeper (the runs' subreaper now), not to the new server: it is still found as the
// run's and ended with it (on sessions by attribution; on cgroups it is a member).
func TestResumedRunsEscapeeEnded(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	dir := t.TempDir()
	trigger, pidFile := filepath.Join(dir, "go"), filepath.Join(dir, "daemon")
	script := fmt.Sprintf(`while [ ! -e %s ]; do sleep 0.02; done; (setsid sleep 300 & echo $! > %s.tmp; mv %s.tmp %s); sleep 300`,
		trigger, pidFile, pidFile, pidFile)
	if r := serverCorral(t, state, "spawn", "--pty", "--name", "forks", "--shell", "--", script); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	os.WriteFile(trigger, nil, 0o600)
	var daemon int
	eventually.True(t, 10*time.Second, "the daemon to start", func() bool {
		b, _ := os.ReadFile(pidFile)
		daemon, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return daemon > 1
	})
	fp := testkit.Pin(t, daemon)
	endLater(t, fp, syscall.SIGKILL, "the daemon") // only if the test failed
	if r := serverCorral(t, state, "kill", "forks"); r.code != 0 {
		t.Fatalf("kill: %+v", r)
	}
	serverCorral(t, state, "wait", "forks", "--timeout", "30s")
	waitGone(t, daemon, "the daemon that left the resumed run")
}

// An upgrade of a server with no live run still starts the new binary (the keeper does
// not take "nothing kept" for "nothing to do").
func TestUpgradeWithNoRuns(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--name", "done", "--", "true"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	serverCorral(t, state, "wait", "done")
	old := serverPID(t, state)
	newBin := copyOfCorral(t)
	if up := withBin(t, newBin, state, "server", "--upgrade"); up.code != 0 || !strings.Contains(up.stderr, "0 live run(s) handed over") {
		t.Fatalf("upgrade: %+v", up)
	}
	next := serverPID(t, state)
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", next)); next == old || exe != newBin {
		t.Fatalf("after the upgrade: server pid %d (was %d), exe %q, want %q", next, old, exe, newBin)
	}
}

// copyOfCorral is the binary under test copied elsewhere: "another binary" to upgrade to.
func copyOfCorral(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "corral")
	b, err := os.ReadFile(corralBin)
	if err == nil {
		err = os.WriteFile(bin, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// recordedPID is the pid corral ls gives the run called name, once its record on disk
// names it too: a run in a cgroup is recorded by its cgroup before it starts and its
// pid written behind, so a server killed at once can leave a record without one; a
// test that kills the server and then reads what the records say waits for it.
func recordedPID(t *testing.T, state, name string) int {
	t.Helper()
	pid := lsRuns(t, state)[name].PID
	if pid == 0 {
		t.Fatalf("corral ls gives run %q no pid", name)
	}
	eventually.True(t, 20*time.Second, "the record of "+name+" to name its pid", func() bool {
		files, _ := filepath.Glob(filepath.Join(state, "runs", "*.json"))
		for _, f := range files {
			var rec struct {
				Name string `json:"name"`
				PID  int    `json:"pid"`
			}
			if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &rec) == nil && rec.Name == name && rec.PID == pid {
				return true
			}
		}
		return false
	})
	return pid
}
