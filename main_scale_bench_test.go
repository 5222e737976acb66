package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/reaper"
	"corral/runs"
	"corral/runs/cli/listing"
)

// BenchmarkThousandRuns is every verb at CORRAL_BENCH_RUNS (1000) idle PTY runs of
// `sh -c 'sleep 100000'`, beside tmux with as many windows of the same command: the
// medians of 11 calls of `corral ls --json` (answered by the server) and of `tmux
// list-windows -a`, wall and CPU (the client's; the server's a call, on average), the
// same listing read from the registry's files in process (what corral ls did before a
// server answered it), `corral attach` and `tmux attach` to a drawn screen (medians of
// 5, attachDrawn), and `corral shutdown`. Run it once: -benchtime 1x. With CORRAL_BENCH_BEFORE (a binary of
// an earlier corral), the same runs are listed and attached to with it and its server
// (before-*), then with this one's again (again-*).
func BenchmarkThousandRuns(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("CORRAL_BENCH_RUNS")); err == nil && v > 0 {
		n = v
	}
	for b.Loop() {
		state := serverState(b)
		spawnMany(b, n, func() *exec.Cmd {
			cmd := corral(b, "spawn", "--pty", "--", "sh", "-c", "sleep 100000")
			cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state)
			return cmd
		})
		verbs := func(bin, prefix string) {
			ls := func() *exec.Cmd {
				cmd := exec.Command(bin, "ls", "--json")
				cmd.Env = append(os.Environ(), "CORRAL_STATE_DIR="+state)
				return cmd
			}
			srv := serverPID(b, state)
			s0 := procCPU(srv)
			wall, cpu := medianOf(b, 11, ls)
			b.ReportMetric(wall, prefix+"ls-json-ms")
			b.ReportMetric(cpu, prefix+"ls-json-cpu-ms")
			b.ReportMetric((procCPU(srv)-s0)/11, prefix+"ls-json-server-cpu-ms") // a call's, on average
			aw, ac, as := medianAttach(b, 5, serverPID(b, state), func() *exec.Cmd {
				cmd := exec.Command(bin, "attach")
				cmd.Env = termEnv(append(os.Environ(), "CORRAL_STATE_DIR="+state))
				return cmd
			})
			b.ReportMetric(aw, prefix+"attach-ms")
			b.ReportMetric(ac, prefix+"attach-cpu-ms")
			b.ReportMetric(as, prefix+"attach-server-cpu-ms")
		}
		verbs(corralBin, "")
		if before := os.Getenv("CORRAL_BENCH_BEFORE"); before != "" {
			// The same runs, served and listed by the binary before: its server takes
			// them over (upgrade), then this one's again.
			upgrade := func(bin string) {
				cmd := exec.Command(bin, "server", "--upgrade")
				cmd.Env = append(os.Environ(), "CORRAL_STATE_DIR="+state)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s server --upgrade: %v: %s", bin, err, out)
				}
				// The new server goes on taking the runs over (their records, a
				// reconcile) for a few seconds after the upgrade answered: not timed.
				time.Sleep(10 * time.Second)
			}
			upgrade(before)
			verbs(before, "before-")
			upgrade(corralBin)
			verbs(corralBin, "again-")
		}
		b.ReportMetric(filesListing(b, state), "ls-files-ms")
		if _, err := exec.LookPath("tmux"); err == nil {
			tw, tc, ta := tmuxListing(b, n)
			b.ReportMetric(tw, "tmux-list-ms")
			b.ReportMetric(tc, "tmux-list-cpu-ms")
			b.ReportMetric(ta[0], "tmux-attach-ms")
			b.ReportMetric(ta[1], "tmux-attach-cpu-ms")
			b.ReportMetric(ta[2], "tmux-attach-server-cpu-ms")
		}
		start := time.Now()
		if r := serverCorral(b, state, "shutdown"); r.code != 0 {
			b.Fatalf("corral shutdown: exit %d: %s", r.code, r.stderr)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "shutdown-ms")
	}
}

// spawnMany runs n commands, four at a time.
func spawnMany(b *testing.B, n int, cmd func() *exec.Cmd) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if out, err := cmd().CombinedOutput(); err != nil {
				b.Errorf("%v: %s", err, out)
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
}

// medianOf runs k commands and returns the median wall and CPU time, in ms.
func medianOf(b *testing.B, k int, cmd func() *exec.Cmd) (wall, cpu float64) {
	var ws, cs []float64
	for range k {
		c := cmd()
		t := time.Now()
		if err := c.Run(); err != nil {
			b.Fatalf("%v: %v", c.Args, err)
		}
		ws = append(ws, float64(time.Since(t).Microseconds())/1000)
		ru := c.ProcessState.SysUsage().(*syscall.Rusage)
		cs = append(cs, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
	}
	slices.Sort(ws)
	slices.Sort(cs)
	return ws[k/2], cs[k/2]
}

// filesListing is the median of 5 listings of state read from its files in process.
func filesListing(b *testing.B, state string) float64 {
	var ms []float64
	for range 5 {
		t := time.Now()
		reg, err := runs.OpenRegistry(state, config.Default())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := listing.List(reg, false, config.Default().FinishedTTL); err != nil {
			b.Fatal(err)
		}
		reg.Close()
		ms = append(ms, float64(time.Since(t).Microseconds())/1000)
	}
	slices.Sort(ms)
	return ms[2]
}

// tmuxListing starts a tmux server with n windows of the runs' command and times
// `tmux list-windows -a` on it, and `tmux attach` to a drawn screen (attachDrawn).
func tmuxListing(b *testing.B, n int) (wall, cpu float64, attach [3]float64) {
	sock := fmt.Sprintf("corral-bench-scale-%d", os.Getpid())
	tm := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
	}
	if out, err := tm("new-session", "-d", "-s", "a", "-x", "120", "-y", "40", "sh -c 'sleep 100000'").CombinedOutput(); err != nil {
		b.Fatalf("tmux: %v: %s", err, out)
	}
	var windows []reaper.Proc // the server and its windows' processes, once they are all there
	defer func() {
		tm("kill-server").Run()
		// The tmux server ends its windows one at a time for seconds after kill-server
		// answers (5.6-7.8 s for 1,000 at load 7-9), 2,000 processes exiting: what is
		// timed next (corral shutdown) does not share the cores with that.
		// A window's shell that outlives the server (seen once under load: it never got
		// its hangup) is ended with its group, by its recorded pid and start time.
		for _, w := range windows {
			gone := func() (struct{}, bool) {
				p, err := reaper.ReadProc(w.PID)
				return struct{}{}, err != nil || p.State == 'Z' || p.StartTime != w.StartTime
			}
			if _, ok := eventually.Woken(time.Minute, 20*time.Millisecond, (chan struct{})(nil), gone); ok {
				continue
			}
			if fp, err := reaper.Identify(w.PID); err == nil && fp.StartTime == w.StartTime {
				if alive, _ := fp.Alive(); alive {
					syscall.Kill(-w.PID, syscall.SIGKILL) // its group: the leader, alive, holds the id
				}
			}
			eventually.True(b, time.Minute, fmt.Sprintf("tmux's process %d to be gone", w.PID), func() bool {
				_, ok := gone()
				return ok
			})
		}
	}()
	for range n - 1 {
		if out, err := tm("new-window", "-d", "-t", "a", "sh -c 'sleep 100000'").CombinedOutput(); err != nil {
			b.Fatalf("tmux new-window: %v: %s", err, out)
		}
	}
	wall, cpu = medianOf(b, 11, func() *exec.Cmd { return tm("list-windows", "-a") })
	out, err := tm("display-message", "-p", "#{pid}").Output()
	if err != nil {
		b.Fatalf("tmux display-message: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	windows = tmuxProcs(pid)
	attach[0], attach[1], attach[2] = medianAttach(b, 5, pid, func() *exec.Cmd {
		cmd := tm("attach", "-t", "a")
		cmd.Env = termEnv(os.Environ())
		return cmd
	})
	return wall, cpu, attach
}

// tmuxProcs is the tmux server pid and its children (its windows' processes), each
// with its start time, so a number reused later is not waited for.
func tmuxProcs(pid int) []reaper.Proc {
	pids := []int{pid}
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				pids = append(pids, c)
			}
		}
	}
	var out []reaper.Proc
	for _, p := range pids {
		if pr, err := reaper.ReadProc(p); err == nil {
			out = append(out, pr)
		}
	}
	return out
}
