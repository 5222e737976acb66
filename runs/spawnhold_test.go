//go:build linux

package runs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// markerEnv names the directory where each run's program leaves a file named by its
// pid the moment it runs: proof that the target program, not a held child, ran.
const markerEnv = "CORRAL_TEST_MARKERS"

func init() { roles["spawnloop"] = roleSpawnLoop }

// roleSpawnLoop spawns runs as fast as it can, PTY and pipe in turn, until it is
// SIGKILLed. Each program marks that it ran, then sleeps; the PTY one ignores the
// hangup its master's close sends when this process dies, so both outlive it.
func roleSpawnLoop(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	markers := os.Getenv(markerEnv)
	// Each run's id, before its cgroup is made: one killed before its record names it
	// leaves an empty cgroup only the test can know of (Corral sweeps such ones after a
	// minute; the test removes its own at once).
	ids, err := os.OpenFile(filepath.Join(markers, "ids"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	s.startHook = func(id string) { ids.WriteString(id + "\n") }
	for i := 0; ; i++ {
		// The marker holds the program's cgroup (cgroup2's line), if it is in one.
		spec := Spec{Argv: []string{"/bin/sh", "-c", `trap "" HUP; grep "^0::" /proc/self/cgroup >"$` + markerEnv +
			`/$$"; exec sleep 1000`},
			PTY: i%2 == 0, Env: []string{markerEnv + "=" + markers}}
		if _, err := s.Spawn(spec); err != nil {
			return err
		}
		fmt.Println("spawned", i)
	}
}

// A Corral SIGKILLed while it spawns leaves no program running that no record names:
// every process that ran its program is recorded — by its pid, or (cgroups) by the
// cgroup it ran in, which its record names before the fork — and a reconcile leaves
// nothing of any of them, including those killed between the fork and the record
// (before the spawn hold, 20 such spawns left 0 records and 28 processes).
func TestKilledWhileSpawningLeavesNothingUnrecorded(t *testing.T) {
	dir, markers := t.TempDir(), t.TempDir()
	openReg(t, dir).Close()
	for round := 0; round < 12; round++ {
		cmd, stderr := startRole(t, "spawnloop", dir)
		cmd.Env = append(cmd.Env, markerEnv+"="+markers)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		for n := 0; n < 3 && sc.Scan(); n++ {
		}
		// Not a wait for a condition: a jitter so the kills land all over the spawn
		// path, the fork-to-record window included.
		time.Sleep(time.Duration(round%6) * 400 * time.Microsecond)
		cmd.Process.Kill()
		cmd.Wait()
		if stderr.Len() > 0 && !bytes.Contains([]byte(stderr.String()), []byte("killed")) {
			t.Logf("role stderr: %s", stderr)
		}
	}
	reconcileAll(t, dir)
	t.Cleanup(func() { removeEmptyCgroups(filepath.Join(markers, "ids")) })
	ran := markedPIDs(t, markers)       // read after the reconcile: a late marker counts too
	t.Cleanup(func() { killPIDs(ran) }) // only on failure is anything left to end
	recorded := map[string]bool{}
	for _, rec := range listRecords(t, dir) {
		recorded[strconv.Itoa(rec.PID)] = true
		if rec.Cgroup != "" {
			recorded["cgroup:"+filepath.Base(rec.Cgroup)] = true
		}
	}
	for _, pid := range ran {
		cg, _ := os.ReadFile(filepath.Join(markers, strconv.Itoa(pid)))
		in := "cgroup:" + filepath.Base(strings.TrimSpace(string(cg)))
		if !recorded[strconv.Itoa(pid)] && (len(cg) == 0 || !recorded[in]) {
			t.Errorf("pid %d ran its program (in %q) but no record names it", pid, cg)
		}
		waitGone(t, pid)
	}
	if len(ran) == 0 {
		t.Fatal("no run got as far as its program: the test exercised nothing")
	}
}

// markedPIDs lists the pids that left a marker.
func markedPIDs(t *testing.T, dir string) []int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range es {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func listRecords(t *testing.T, dir string) []Record {
	t.Helper()
	reg := openReg(t, dir)
	recs, err := reg.List()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// reconcileAll reconciles dir until no record is left open (the dead instances'
// leases have to expire first).
func reconcileAll(t *testing.T, dir string) {
	t.Helper()
	s := regSup(t, openReg(t, dir))
	eventually.Value(t, 30*time.Second, "every record closed", func() ([]Decision, bool) {
		ds, err := s.Reconcile(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return ds, !slices.ContainsFunc(ds, func(d Decision) bool { return d.Decision == VerdictLeftAlone })
	})
}

// waitGone waits until pid is no longer a live process (a zombie counts as gone:
// its parent, init, reaps it).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	p, gone := eventually.Within(10*time.Second, func() (reaper.Proc, bool) {
		p, err := reaper.ReadProc(pid)
		return p, err != nil || p.State == 'Z'
	})
	if !gone {
		t.Errorf("pid %d (%s) still alive after the reconcile", pid, p.Comm)
	}
}

// killPIDs ends the marked programs a failed test left: those of the pids they
// recorded that are still this test binary's children (reparented here, the
// subreaper, when their spawner was killed). Parentage, not the number alone nor the
// program's name: by the time this runs, a number may be another process's.
func killPIDs(pids []int) {
	for _, pid := range pids {
		if p, err := reaper.ReadProc(pid); err == nil && p.PPID == os.Getpid() && p.State != 'Z' {
			if fp, err := reaper.Identify(pid); err == nil && fp.StartTime == p.StartTime && fp.Signal(syscall.SIGKILL) == nil {
				eventually.Within(5*time.Second, func() (bool, bool) {
					reaped, err := reaper.ReapIfZombie(pid)
					return reaped, reaped || err != nil
				})
			}
		}
	}
}

// removeEmptyCgroups removes the cgroups of the run ids listed in file that are left
// empty (made by a Corral killed before it recorded them).
func removeEmptyCgroups(file string) {
	base := FindCgroups("").Dir
	b, _ := os.ReadFile(file)
	if base == "" {
		return
	}
	for _, id := range strings.Fields(string(b)) {
		if p := filepath.Join(base, id); checkID(id) == nil {
			(&reaper.Cgroup{Path: p}).Remove() // refused while it has members
		}
	}
}
