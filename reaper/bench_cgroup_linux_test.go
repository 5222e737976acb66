package reaper

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The cost of a run's cgroup being its whole subtree: the membership read of a run
// with 50 cgroups of its own and 1,000 processes, and the cancel of such a run against
// a flat one's (budget: p95 at most twice the flat run's).

// benchCgroup makes a run cgroup for one benchmark, or skips.
func benchCgroup(b *testing.B) *Cgroup {
	b.Helper()
	base := FindCgroupBase("")
	if base.Dir == "" {
		b.Skip(base.Reason)
	}
	cg, err := NewCgroup(base.Dir, fmt.Sprintf("r%012x", time.Now().UnixNano()&0xffffffffffff))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cg.Kill()
		cg.AwaitEmpty(context.Background(), time.Now().Add(5*time.Second))
		cg.Remove()
	})
	return cg
}

// startBig starts a run of 1,000 processes in cg (the root and 999 sleeps): with
// subs > 0, spread over subs cgroups it makes inside its own, the root moving into
// the first, so none is left in the run's own cgroup.procs.
func startBig(b *testing.B, cg *Cgroup, subs int) *child {
	script := `i=1; while [ $i -lt 1000 ]; do sleep 1000 & i=$((i+1)); done; echo fanout ready; wait`
	if subs > 0 {
		script = `m=$(awk '$3=="cgroup2"{print $2; exit}' /proc/mounts); c=$m$(sed -n 's/^0:://p' /proc/self/cgroup)
n=` + strconv.Itoa(subs) + `; j=0; while [ $j -lt $n ]; do mkdir "$c/s$j"; j=$((j+1)); done
echo $$ > "$c/s0/cgroup.procs"
i=1; while [ $i -lt 1000 ]; do sleep 1000 & echo $! > "$c/s$((i % n))/cgroup.procs"; i=$((i+1)); done
echo fanout ready; wait`
	}
	fd, err := cg.FD()
	if err != nil {
		b.Fatal(err)
	}
	defer closeFd(fd)
	cmd := exec.Command("/bin/sh", "-c", script)
	c := startCmdInFD(b, cmd, fd)
	select { // a thousand forks by a shell take seconds on a loaded machine
	case l := <-c.lines:
		if l != "fanout ready" {
			b.Fatalf("the run said %q", l)
		}
	case <-time.After(2 * time.Minute):
		b.Fatal("no fanout within 2 minutes")
	}
	if pids, err := cg.Procs(); err != nil || len(pids) != 1000 {
		b.Fatalf("%d members (%v), want 1000", len(pids), err)
	}
	return c
}

// BenchmarkCgroupMembers50x1000 reads the members of a run with 50 cgroups of its own
// holding 1,000 processes (every cgroup.procs of the subtree).
func BenchmarkCgroupMembers50x1000(b *testing.B) { benchMembers(b, 50) }

// BenchmarkCgroupMembersFlat1000: the same 1,000 processes in the run's own cgroup.
func BenchmarkCgroupMembersFlat1000(b *testing.B) { benchMembers(b, 0) }

func benchMembers(b *testing.B, subs int) {
	cg := benchCgroup(b)
	c := startBig(b, cg, subs)
	b.ReportAllocs()
	for b.Loop() {
		if pids, err := cg.Procs(); err != nil || len(pids) != 1000 {
			b.Fatalf("%d members, %v", len(pids), err)
		}
	}
	b.StopTimer()
	rep := Terminate(b.Context(), Target{Cgroup: cg, SID: c.pid(), Grace: 5 * time.Second})
	c.settle(rep)
}

// settle reaps the root and, by exact pid, the members reparented to this test binary
// (a subreaper: TestMain), so that twenty runs of a thousand do not leave twenty
// thousand zombies to exhaust the pids.
func (c *child) settle(rep Report) {
	root, _ := Identify(c.pid())
	c.known = []Fingerprint{root}
	for _, fp := range rep.Exited {
		if fp.PID != c.pid() {
			c.known = append(c.known, fp)
		}
	}
	c.wait()
	c.reapOrphans()
}

// BenchmarkCgroupCancel50x1000 times cancel → verified empty of a run with 50 cgroups
// of its own and 1,000 processes that obey SIGTERM, as runs asks it (the root's
// fingerprint given, to be ended beside the cgroup were it outside). Starting the
// run is not timed.
func BenchmarkCgroupCancel50x1000(b *testing.B) { benchCancel(b, 50) }

// BenchmarkCgroupCancelFlat1000: the same run with its 1,000 processes in its own
// cgroup.
func BenchmarkCgroupCancelFlat1000(b *testing.B) { benchCancel(b, 0) }

func benchCancel(b *testing.B, subs int) {
	var elapsed []time.Duration
	for b.Loop() {
		b.StopTimer()
		cg := benchCgroup(b)
		c := startBig(b, cg, subs)
		root, err := Identify(c.pid())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep := Terminate(b.Context(), Target{Cgroup: cg, Root: root, SID: c.pid(), Grace: 5 * time.Second})
		b.StopTimer()
		if !rep.VerifiedEmpty || rep.Killed != 1000 {
			b.Fatalf("report steps %v killed %d verified %v err %v", rep.Steps, rep.Killed, rep.VerifiedEmpty, rep.Err)
		}
		elapsed = append(elapsed, rep.Elapsed)
		c.settle(rep)
		cg.Remove()
		b.StartTimer()
	}
	reportLatency(b, elapsed, 0)
}

// startCmdInFD starts cmd directly inside the cgroup open as fd, in a session of its
// own, as the hosts do.
func startCmdInFD(tb testing.TB, cmd *exec.Cmd, fd int) *child {
	tb.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, UseCgroupFD: true, CgroupFD: fd}
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		tb.Fatalf("start %v: %v", cmd.Args, err)
	}
	return newChild(tb, cmd, r)
}
