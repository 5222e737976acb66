package reaper

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"corral/demo/testkit/eventually"

	"golang.org/x/sys/unix"
)

// A run's cgroup is its whole subtree: members of the cgroups it makes inside its
// own are its members, signalled and killed with it, and the cgroups are removed with
// it. What it moved out of the subtree (root can) is ended beside the cgroup when the
// target names it (Extra), and the report names each process ended, and how.
func TestCgroupSubtreeAndOutside(t *testing.T) {
	cg := testCgroup(t)
	sib := testCgroup(t)
	c := startCmdIn(t, cg, exec.Command("/bin/sh", "-c", `m=$(awk '$3=="cgroup2"{print $2; exit}' /proc/mounts)
c=$m$(sed -n 's/^0:://p' /proc/self/cgroup)
mkdir "$c/a" "$c/a/b"
sleep 1001 & echo $! > "$c/a/b/cgroup.procs"; echo inner $!
sleep 1002 & echo out $!
echo $$ > "$c/a/cgroup.procs"
echo ready; wait`))
	inner := c.learnLine("inner")
	out := c.learnLine("out")
	c.line("ready")
	eventually.True(t, 10*time.Second, "both sleeps exec'd", func() bool {
		a, _ := ReadCmdline(inner)
		b, _ := ReadCmdline(out)
		return slices.Equal(a, []string{"sleep", "1001"}) && slices.Equal(b, []string{"sleep", "1002"})
	})
	if err := sib.Take(out); err != nil {
		t.Fatal(err)
	}
	if pids, err := cg.Procs(); err != nil || len(pids) != 2 || !slices.Contains(pids, inner) || !slices.Contains(pids, c.pid()) {
		t.Fatalf("members %v (%v), want the root and %d, in cgroups below the run's", pids, err, inner)
	}
	root, _ := Identify(c.pid())
	moved, _ := Identify(out)
	rep := Terminate(context.Background(), Target{Cgroup: cg, Root: root, SID: c.pid(), Extra: []Fingerprint{moved},
		Grace: 2 * time.Second})
	if !rep.VerifiedEmpty || rep.Killed != 3 {
		t.Fatalf("report %+v", rep)
	}
	want := map[int]Named{
		c.pid(): {Argv: []string{"/bin/sh"}},
		inner:   {Argv: []string{"sleep", "1001"}},
		out:     {Argv: []string{"sleep", "1002"}, Outside: true},
	}
	for _, n := range rep.Ended {
		w, ok := want[n.PID]
		if !ok || n.Outside != w.Outside || !slices.Equal(n.Argv[:len(w.Argv)], w.Argv) {
			t.Errorf("ended %+v, want %+v", n, w)
		}
		delete(want, n.PID)
	}
	if len(want) > 0 {
		t.Errorf("not named: %v", want)
	}
	c.wait()
	if err := cg.Remove(); err != nil {
		t.Errorf("remove with the cgroups the run made: %v", err)
	}
}

// A cgroup with no cgroup below it is told so by its directory's link count (no read
// of its entries), and one with a cgroup below it is not: its members are read.
func TestCgroupLeafByLinks(t *testing.T) {
	cg := testCgroup(t)
	isLeaf := func() bool {
		dfd, err := unix.Open(cg.Path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(dfd)
		return leaf(dfd)
	}
	if !isLeaf() {
		t.Fatalf("%s: no cgroup below it, not a leaf", cg.Path)
	}
	below := filepath.Join(cg.Path, "below")
	if err := os.Mkdir(below, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(below)
	if isLeaf() {
		t.Fatalf("%s: a cgroup below it, said a leaf", cg.Path)
	}
	c := startCmdIn(t, &Cgroup{Path: below}, exec.Command("/bin/sh", "-c", "echo ready; exec sleep 1000"))
	c.line("ready")
	pids, err := cg.Procs()
	if err != nil || !slices.Contains(pids, c.pid()) {
		t.Errorf("members %v, %v: want the one below, %d", pids, err, c.pid())
	}
	(&Cgroup{Path: below}).Kill()
	c.wait()
}
