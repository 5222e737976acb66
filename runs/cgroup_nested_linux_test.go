package runs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// A run's cgroup is its whole subtree, and what leaves the subtree is an escape: the
// attacks of a run that makes cgroups inside its own (containers, systemd-run, build
// sandboxes do), of one that moves its child to another cgroup (as root can), and of
// a cgroup emptied and removed from outside.

func init() {
	roles["nested-late"] = roleNestedLate
	roles["moved-late"] = roleMovedLate
}

// nestedShell makes cgroups inside the run's own and moves everything into them: a
// sleep into a/, a shell that moves itself into a/deep/, a sleep into b/ that it
// then freezes, and at last the root itself into a/, so that the run's own
// cgroup.procs is empty. It prints "inner PID" for each process, the root's too.
const nestedShell = `m=$(awk '$3=="cgroup2"{print $2; exit}' /proc/mounts)
c=$m$(sed -n 's/^0:://p' /proc/self/cgroup)
mkdir "$c/a" "$c/b" "$c/a/deep" || exit 1
sleep 1000 & echo $! > "$c/a/cgroup.procs"; echo inner $!
sh -c 'echo $$ > "$1/a/deep/cgroup.procs"; exec sleep 1000' nested "$c" & echo inner $!
sleep 1000 & echo $! > "$c/b/cgroup.procs"; echo inner $!
echo 1 > "$c/b/cgroup.freeze"
echo $$ > "$c/a/cgroup.procs"; echo inner $$
while [ -n "$(cat "$c/cgroup.procs")" ] || [ "$(cat "$c/a/deep/cgroup.procs")" = "" ]; do sleep 0.01; done
echo nested ready
exec sleep 1000`

// A run that made cgroups inside its own and moved into them, one of them frozen, is
// ended whole by a cancel: everything signalled (the frozen cgroup thawed after its
// stop signal, so it acts on it), the report truthful (all of it killed, named,
// verified empty only once it is gone), its cgroups removed.
func TestCgroupNestedCancel(t *testing.T) {
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: nestedShell, NoOutputTimeout: -1})
	pids := pidsAfter(waitOutput(t, s, id, "nested ready"), "inner")
	killReapLater(t, pids)
	if len(pids) != 4 {
		t.Fatalf("inner pids %v", pids)
	}
	info, _ := s.Info(id)
	if procs, _ := (&reaper.Cgroup{Path: info.Cgroup}).Procs(); len(procs) != 4 {
		t.Errorf("the subtree's members %v, want the 4 of %v", procs, pids)
	}
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, pids)
	if end.Cleanup.Killed != 4 {
		t.Errorf("cleanup %+v: want the 4 killed, the frozen one too (thawed to take its stop signal)", end.Cleanup)
	}
	for _, pid := range pids {
		if !slices.ContainsFunc(end.Cleanup.Ended, func(e EndedProcess) bool { return e.PID == pid && e.How == EndedMember }) {
			t.Errorf("pid %d not named a member ended: %+v", pid, end.Cleanup.Ended)
		}
	}
	if _, err := os.Stat(info.Cgroup); !os.IsNotExist(err) {
		t.Errorf("the run's cgroup (and those it made) left: %v", err)
	}
}

// roleNestedLate starts the nested run and prints its id, cgroup and pids; it is
// killed (a crash) right after.
func roleNestedLate(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	id, err := s.Spawn(Spec{Shell: nestedShell, NoOutputTimeout: -1})
	if err != nil {
		return err
	}
	if err := awaitOutput(s, id, "nested ready"); err != nil {
		return err
	}
	out, _ := s.Log(id)
	info, _ := s.Info(id)
	fmt.Printf("run %s %s %s\n", id, info.Cgroup, strings.Trim(fmt.Sprint(pidsAfter(out.Bytes(), "inner")), "[]"))
	select {}
}

// After a crash, a reconcile ends the nested run whole: every process in the cgroups
// it made inside its own, the frozen one too.
func TestCgroupNestedReconcile(t *testing.T) {
	if FindCgroups("").Dir == "" {
		t.Skip(FindCgroups("").Reason)
	}
	dir := t.TempDir()
	cmd, stderr := startRole(t, "nested-late", dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	f := strings.Fields(line)
	if len(f) != 7 {
		t.Fatalf("role said %q; stderr %s", line, stderr)
	}
	id, cg := f[1], f[2]
	var pids []int
	for _, s := range f[3:] {
		pid, _ := strconv.Atoi(s)
		pids = append(pids, pid)
	}
	killReapLater(t, pids)
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	if d := ds[id]; d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 4") {
		t.Errorf("decision %+v, want orphan-reaped with the 4 killed", d)
	}
	eventually.True(t, 5*time.Second, "the nested run's processes gone", func() bool {
		for _, pid := range pids {
			if p, err := reaper.ReadProc(pid); err == nil && p.State != 'Z' {
				return false
			}
		}
		return true
	})
	assertPIDsGone(t, pids)
	eventually.True(t, 5*time.Second, "the cgroup removed", func() bool {
		_, err := os.Stat(cg)
		return os.IsNotExist(err)
	})
}

// sibling is a cgroup beside the runs' (what root can move a process into: here
// beside Corral's base, as another service's), emptied and removed when the test
// ends.
func sibling(t *testing.T) *reaper.Cgroup {
	t.Helper()
	base := FindCgroups("")
	if base.Dir == "" {
		t.Skip(base.Reason)
	}
	cg := &reaper.Cgroup{Path: filepath.Join(filepath.Dir(base.Dir), fmt.Sprintf("corral-test-%x", time.Now().UnixNano()))}
	if err := os.Mkdir(cg.Path, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cg.Kill()
		cg.AwaitEmpty(context.Background(), time.Now().Add(5*time.Second))
		if err := os.Remove(cg.Path); err != nil {
			t.Errorf("remove %s: %v", cg.Path, err)
		}
	})
	return cg
}

// movedShell moves a child of the run into the cgroup $SIBLING and prints its pid.
const movedShell = `sleep 1000 & echo $! > "$SIBLING/cgroup.procs" && echo moved $!; exec sleep 1000`

// A child the run moved to a sibling cgroup is noticed while the run lives: an
// escapee with its pid and command, an escape event; the cancel ends it, the report
// names it an escapee, and the run is verified empty only once it is gone.
func TestCgroupChildMovedOut(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: movedShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1})
	moved := pidsAfter(waitOutput(t, s, id, "moved "), "moved")
	killReapLater(t, moved)
	if len(moved) != 1 {
		t.Fatalf("moved %v", moved)
	}
	eventually.True(t, 10*time.Second, "the moved child noticed", func() bool {
		es, _ := s.Escapees(id)
		return len(es) == 1
	})
	es, _ := s.Escapees(id)
	if es[0].PID != moved[0] || !slices.Equal(es[0].Argv, []string{"sleep", "1000"}) {
		t.Errorf("escapee %+v, want pid %d, sleep 1000", es[0], moved[0])
	}
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, moved)
	if !slices.ContainsFunc(end.Cleanup.Ended, func(e EndedProcess) bool {
		return e.PID == moved[0] && e.How == EndedEscapee && slices.Equal(e.Argv, []string{"sleep", "1000"})
	}) {
		t.Errorf("ended %+v: want the moved child named an escapee", end.Cleanup.Ended)
	}
	if end.Escapees != 1 {
		t.Errorf("info escapees %d", end.Escapees)
	}
}

// The selected run's process tree shows a child moved out of the cgroup: its pid,
// marked escaped, with its command line, beside the members the cgroup lists; once
// the cancel has ended it, it is gone from the tree.
func TestCgroupTreeShowsEscapee(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: movedShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1})
	moved := pidsAfter(waitOutput(t, s, id, "moved "), "moved")
	killReapLater(t, moved)
	if len(moved) != 1 {
		t.Fatalf("moved %v", moved)
	}
	eventually.True(t, 10*time.Second, "the moved child noticed", func() bool {
		es, _ := s.Escapees(id)
		return len(es) == 1
	})
	info, _ := s.Info(id)
	trees, err := s.Trees(id)
	if err != nil {
		t.Fatal(err)
	}
	tree := trees[id]
	i := slices.IndexFunc(tree, func(p reaper.TreeProc) bool { return p.PID == moved[0] })
	if i < 0 {
		t.Fatalf("tree %+v: the moved child %d is not in it", tree, moved[0])
	}
	if tree[i].Mark != reaper.MarkEscaped || !slices.Equal(tree[i].Argv, []string{"sleep", "1000"}) {
		t.Errorf("moved child in the tree %+v: want marked escaped, with sleep 1000", tree[i])
	}
	if !slices.ContainsFunc(tree, func(p reaper.TreeProc) bool { return p.PID == info.PID && p.Mark == reaper.MarkRoot }) {
		t.Errorf("tree %+v: the root %d is not in it", tree, info.PID)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
	assertPIDsGone(t, moved)
}

// Under escape policy fail, a child moved out of the cgroup ends the run
// ownership-escape, and the child with it.
func TestCgroupChildMovedOutPolicyFail(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: movedShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1,
		Escape: EscapeFail})
	moved := pidsAfter(waitOutput(t, s, id, "moved "), "moved")
	killReapLater(t, moved)
	end := waitEnd(t, s, id)
	if end.Reason != OwnershipEscape {
		t.Errorf("reason %s, want ownership-escape", end.Reason)
	}
	assertPIDsGone(t, moved)
}

// A child moved out just before the cancel, before any scan looked (escape detection
// off), is found by the last look for its lineage and ended.
func TestCgroupChildMovedOutLastLook(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t)
	id := spawn(t, s, Spec{Shell: movedShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1})
	moved := pidsAfter(waitOutput(t, s, id, "moved "), "moved")
	killReapLater(t, moved)
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, moved)
	if end.Escapees != 1 {
		t.Errorf("escapees %d, want the moved child", end.Escapees)
	}
}

// A run whose cgroup was emptied and removed from outside (its members moved to
// another cgroup, then rmdir) still ends: its root and its session are signalled
// as on the session backend, and it is verified empty only after that look.
func TestCgroupRemovedFromOutside(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: "sleep 1000 & echo child $!; echo ready; exec sleep 1000", NoOutputTimeout: -1})
	kids := pidsAfter(waitOutput(t, s, id, "ready"), "child")
	killReapLater(t, kids)
	info, _ := s.Info(id)
	cg := &reaper.Cgroup{Path: info.Cgroup}
	procs, err := cg.Procs()
	if err != nil || len(procs) != 2 {
		t.Fatalf("members %v, %v", procs, err)
	}
	for _, pid := range procs {
		if err := sib.Take(pid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(info.Cgroup); err != nil {
		t.Fatal(err)
	}
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, append([]int{info.PID}, kids...))
	if end.Cleanup.Killed != 2 {
		t.Errorf("cleanup %+v: want the root and its child killed", end.Cleanup)
	}
	if p, _ := sib.Populated(); p {
		t.Error("the run's processes live on in the cgroup they were moved to")
	}
}

// The report names what the cleanup ended, on both backends: the root a member, a
// setsid daemon a member of the cgroup (contained) or an escapee of the session,
// each with its pid and command line, in the report's JSON too.
func TestCleanupNamesWhatItEnded(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	s := newSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: "setsid -f sh -c 'echo daemon $$; exec sleep 1001'; exec sleep 1002", NoOutputTimeout: -1})
	daemon := pidsAfter(waitOutput(t, s, id, "daemon "), "daemon")
	killReapLater(t, daemon)
	info, _ := s.Info(id)
	eventually.True(t, 10*time.Second, "both exec'd sleep", func() bool {
		a, _ := reaper.ReadCmdline(info.PID)
		b, _ := reaper.ReadCmdline(daemon[0])
		return slices.Equal(a, []string{"sleep", "1002"}) && slices.Equal(b, []string{"sleep", "1001"})
	})
	if info.Cgroup == "" {
		eventually.True(t, 10*time.Second, "the daemon found", func() bool {
			es, _ := s.Escapees(id)
			return len(es) == 1
		})
	}
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, daemon)
	how := EndedEscapee
	if end.Cgroup != "" {
		how = EndedMember
	}
	want := map[int]EndedProcess{
		end.PID:   {PID: end.PID, Argv: []string{"sleep", "1002"}, How: EndedMember},
		daemon[0]: {PID: daemon[0], Argv: []string{"sleep", "1001"}, How: how},
	}
	for pid, w := range want {
		i := slices.IndexFunc(end.Cleanup.Ended, func(e EndedProcess) bool { return e.PID == pid })
		if i < 0 {
			t.Errorf("pid %d not named: %+v", pid, end.Cleanup.Ended)
			continue
		}
		got := end.Cleanup.Ended[i]
		if !slices.Equal(got.Argv, w.Argv) || got.How != w.How || got.StartTime == 0 {
			t.Errorf("named %+v, want %+v", got, w)
		}
	}
	es, _ := s.Escapees(id)
	b, err := json.Marshal(NewReport(end, es, nil))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Cleanup struct {
			Ended []struct {
				PID  int      `json:"pid"`
				Argv []string `json:"argv"`
				How  string   `json:"how"`
			} `json:"ended"`
		} `json:"cleanup"`
	}
	json.Unmarshal(b, &rep)
	if !slices.ContainsFunc(rep.Cleanup.Ended, func(e struct {
		PID  int      `json:"pid"`
		Argv []string `json:"argv"`
		How  string   `json:"how"`
	}) bool {
		return e.PID == daemon[0] && e.How == string(how) && filepath.Base(e.Argv[0]) == "sleep"
	}) {
		t.Errorf("report JSON %s: no cleanup.ended naming the daemon", b)
	}
}

// roleMovedLate starts a run that moves its child into the cgroup $SIBLING, waits
// until the child is its escapee (in its record) and prints the run's id and the
// child's pid; it is killed (a crash) right after.
func roleMovedLate(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection(), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	id, err := s.Spawn(Spec{Shell: movedShell, NoOutputTimeout: -1})
	if err != nil {
		return err
	}
	if err := awaitOutput(s, id, "moved "); err != nil {
		return err
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if rec, err := reg.record(id); err == nil && len(rec.Escapees) == 1 {
			fmt.Printf("run %s %d\n", id, rec.Escapees[0].PID)
			select {}
		}
		if time.Now().After(deadline) {
			s.Cancel(id) // leave nothing behind
			s.Wait(context.Background(), id)
			return fmt.Errorf("the moved child never reached the record")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// After a crash, a reconcile ends the child the run had moved out of its cgroup (its
// record names it an escapee, and it carries the run's secret) with the rest.
func TestCgroupMovedOutReconcile(t *testing.T) {
	sib := sibling(t)
	dir := t.TempDir()
	cmd, stderr := startRole(t, "moved-late", dir)
	cmd.Env = append(cmd.Env, "SIBLING="+sib.Path)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	f := strings.Fields(line)
	if len(f) != 3 {
		t.Fatalf("role said %q; stderr %s", line, stderr)
	}
	id := f[1]
	moved, _ := strconv.Atoi(f[2])
	killReapLater(t, []int{moved})
	s := regSup(t, openReg(t, dir))
	ds := reconcileUntilSettled(t, s)
	if d := ds[id]; d.Decision != VerdictReaped || !strings.Contains(d.Detail, "killed 2") {
		t.Errorf("decision %+v, want orphan-reaped with the root and the moved child killed", d)
	}
	eventually.True(t, 5*time.Second, "the moved child gone", func() bool {
		p, err := reaper.ReadProc(moved)
		return err != nil || p.State == 'Z'
	})
	if rec, _ := s.reg.record(id); !slices.ContainsFunc(rec.Cleanup.Ended, func(e EndedProcess) bool {
		return e.PID == moved && e.How == EndedEscapee
	}) {
		t.Errorf("record's cleanup %+v: want the moved child named an escapee", rec.Cleanup)
	}
}

// dodgeShell is a root that answers its stop signal by moving itself into the cgroup
// $SIBLING, where the cgroup's kill cannot reach it, and lives on.
const dodgeShell = `trap 'echo $$ > "$SIBLING/cgroup.procs"; echo dodged' TERM
echo ready
while :; do sleep 1 & wait $!; done`

// A root that leaves the run's cgroup when the cleanup signals it (it was a member
// when the cleanup began, so that pass ended only the cgroup, which it found empty)
// is not left alive under "verified empty": the same cleanup looks at the root, finds
// it alive, and runs the escalation again, which ends it beside the cgroup. Before,
// the report said "verified empty, killed 2" naming the live root, and the run stayed
// exiting until a second cancel.
func TestCgroupRootLeavesWhenSignalled(t *testing.T) {
	sib := sibling(t)
	s := cgroupSup(t, WithEscapeDetection())
	id := spawn(t, s, Spec{Shell: dodgeShell, Env: []string{"SIBLING=" + sib.Path}, NoOutputTimeout: -1,
		Grace: 300 * time.Millisecond})
	waitOutput(t, s, id, "ready")
	info, _ := s.Info(id)
	killReapLater(t, []int{info.PID})
	s.Cancel(id)
	end := waitEnd(t, s, id)
	assertPIDsGone(t, []int{info.PID})
	if !strings.Contains(string(waitOutput(t, s, id, "dodged")), "dodged") {
		t.Fatal("the root never left the cgroup: the attack did not happen")
	}
	if !end.Cleanup.VerifiedEmpty || !slices.Contains(end.Cleanup.Steps, reaper.StepKill) {
		t.Errorf("cleanup %+v: want the root killed beside the cgroup, then verified empty", end.Cleanup)
	}
	if end.Reason != ManualCancel {
		t.Errorf("reason %s", end.Reason)
	}
}
