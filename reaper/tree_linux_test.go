package reaper

import (
	"os/exec"
	"testing"

	"corral/demo"
)

func listAll(t *testing.T) []Proc {
	t.Helper()
	all, err := ListAll()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// startBash runs script in bash (in a session of its own) with $0 the demo binary and
// $1 the behaviour "sleep", which prints "ready sleep <pid>".
func startBash(t *testing.T, script string) *child {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	argv, env := demo.Child("sleep")
	cmd := exec.Command(bash, "-c", script, argv[0], argv[1])
	cmd.Env = append(childEnv(), env...)
	return startCmd(t, cmd)
}

func TestTreeSession(t *testing.T) {
	c := start(t, "tree", "2")
	c.learnTree()
	tr := Tree(listAll(t), c.pid(), nil)
	pids := []int{c.known[0].PID, c.known[1].PID, c.known[2].PID}
	wantTree(t, tr, pids, []Mark{MarkRoot, MarkMember, MarkMember}, []int{0, 1, 2})
	for _, p := range tr {
		if p.RSS <= 0 || p.CPU < 0 || p.CPU != cpuTime(p.Proc) || p.SID != c.pid() || p.Comm == "" {
			t.Errorf("tree proc %+v", p)
		}
	}
	check(t, Terminate(t.Context(), target(c.pid())), []Step{StepTerm}, 3, 0)
	c.wait()
	c.requireGone()
}

// TestTreeJobControl: a job-control shell puts its job in a process group of its own
// inside the run's session.
func TestTreeJobControl(t *testing.T) {
	c := startBash(t, `set -m; "$0" "$1" & wait`)
	job := c.learnLine("ready sleep")
	if p, err := ReadProc(job); err != nil || p.PGID != job || p.SID != c.pid() {
		t.Fatalf("job %+v, %v: want its own group in the session", p, err)
	}
	tr := Tree(listAll(t), c.pid(), nil)
	wantTree(t, tr, []int{c.pid(), job}, []Mark{MarkRoot, MarkGroup}, []int{0, 1})
	check(t, Terminate(t.Context(), target(c.pid())), []Step{StepTerm}, 2, 0)
	c.wait()
	c.requireGone()
}

// TestTreeEscaped: an attributed escapee reparented to Corral joins the run's tree at
// depth 0; a stale fingerprint of it does not.
func TestTreeEscaped(t *testing.T) {
	c, esc := startEscape(t)
	all := listAll(t)
	wantTree(t, Tree(all, c.pid(), nil), []int{c.pid()}, []Mark{MarkRoot}, []int{0})
	stale := esc
	stale.StartTime++
	wantTree(t, Tree(all, c.pid(), []Fingerprint{stale}), []int{c.pid()}, []Mark{MarkRoot}, []int{0})
	wantTree(t, Tree(all, c.pid(), []Fingerprint{esc}), []int{c.pid(), esc.PID},
		[]Mark{MarkRoot, MarkEscaped}, []int{0, 0})
}

// TestEscapeesAttached: an escapee still attached to the run's tree (setsid(1) from a
// shell without job control, so no fork: its parent is the shell) is found by
// Escapees and shown under its parent.
func TestEscapeesAttached(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	c := startBash(t, `setsid "$0" "$1" & wait`)
	esc := c.learnLine("ready sleep")
	all := listAll(t)
	got := Escapees(all, c.pid(), c.pid())
	if len(got) != 1 || got[0].PID != esc || got[0].SID != esc || got[0].PPID != c.pid() {
		t.Fatalf("Escapees = %+v, want pid %d in a session of its own", got, esc)
	}
	wantTree(t, Tree(all, c.pid(), c.known[1:]), []int{c.pid(), esc},
		[]Mark{MarkRoot, MarkEscaped}, []int{0, 1})
	tg := target(c.pid())
	tg.Extra = c.known[1:]
	check(t, Terminate(t.Context(), tg), []Step{StepTerm}, 2, 0)
	c.wait()
	c.requireGone()
}
