package reaper

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestSessionTree(t *testing.T) {
	c := start(t, "tree", "2")
	c.learnTree()
	members, err := Session(c.pid())
	if err != nil {
		t.Fatal(err)
	}
	var got, want []int
	for _, p := range members {
		got = append(got, p.PID)
		if p.SID != c.pid() || p.PGID != c.pid() || p.Comm == "" {
			t.Errorf("member %+v: want sid = pgid = %d", p, c.pid())
		}
	}
	for _, fp := range c.known {
		want = append(want, fp.PID)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(want) != 3 {
		t.Fatalf("Session = %v, want %v", got, want)
	}

	all, err := ListAll()
	if err != nil {
		t.Fatal(err)
	}
	desc := Descendants(all, c.pid())
	if len(desc) != 2 || desc[0].PID != c.known[1].PID || desc[1].PID != c.known[2].PID {
		t.Errorf("Descendants = %+v, want %v", desc, want[1:])
	}
	if !slices.ContainsFunc(all, func(p Proc) bool { return p.PID == os.Getpid() }) {
		t.Error("ListAll misses this process")
	}
	Terminate(t.Context(), Target{SID: c.pid()})
	c.wait()
	c.requireGone()
}

func TestDescendantsPure(t *testing.T) {
	all := []Proc{{PID: 1}, {PID: 10, PPID: 1}, {PID: 11, PPID: 10}, {PID: 12, PPID: 11},
		{PID: 13, PPID: 10}, {PID: 20, PPID: 1}, {PID: 30, PPID: 31}, {PID: 31, PPID: 30}}
	var got []int
	for _, p := range Descendants(all, 10) {
		got = append(got, p.PID)
	}
	if !slices.Equal(got, []int{11, 13, 12}) {
		t.Errorf("Descendants(10) = %v", got)
	}
	if d := Descendants(all, 30); len(d) != 1 || d[0].PID != 31 {
		t.Errorf("a ppid cycle must end: %+v", d)
	}
}

func TestSignalSessionRefusesOwn(t *testing.T) {
	sid, _ := unix.Getsid(0)
	// Signal 0 only probes, so a broken refusal still sends nothing.
	if err := SignalSession(sid, 0); !errors.Is(err, ErrOwnSession) {
		t.Errorf("own session: %v, want ErrOwnSession", err)
	}
	for _, bad := range []int{-5, 0, 1} {
		if bad == sid {
			continue // in a container our own session can read as 0 or 1: checked above
		}
		if err := SignalSession(bad, 0); !errors.Is(err, ErrProtected) {
			t.Errorf("session %d: %v, want ErrProtected", bad, err)
		}
	}
}

// TestSignalSession stops and continues every member through SignalSession.
func TestSignalSession(t *testing.T) {
	c := start(t, "tree", "2")
	c.learnTree()
	if err := SignalSession(c.pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	c.waitState('T')
	if err := SignalSession(c.pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	c.waitState('S')
	if err := SignalSession(c.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.wait()
	c.reapOrphans()
	if err := SignalSession(c.pid(), 0); !errors.Is(err, ErrGone) {
		t.Errorf("empty session: %v, want ErrGone", err)
	}
	c.requireGone()
}

// TestWaitExited: the root is observed exited but stays an unreaped zombie, and
// exec.Cmd still gets its exit code afterwards.
func TestWaitExited(t *testing.T) {
	c := start(t, "exit", "3")
	if err := WaitExited(c.pid()); err != nil {
		t.Fatal(err)
	}
	if p, err := ReadProc(c.pid()); err != nil || p.State != 'Z' || p.SID != c.pid() {
		t.Fatalf("after WaitExited: %+v, %v; want a zombie still holding its sid", p, err)
	}
	if err := WaitExited(c.pid()); err != nil {
		t.Errorf("second WaitExited: %v", err)
	}
	// A zombie can still be identified (it is the same process), but it is not alive.
	if fp, err := Identify(c.pid()); err != nil || fp != c.known[0] {
		t.Errorf("Identify(zombie) = %+v, %v; want %+v", fp, err, c.known[0])
	}
	if alive, err := c.known[0].Alive(); alive || err != nil {
		t.Errorf("zombie Alive = %v, %v", alive, err)
	}
	var ee *exec.ExitError
	if err := c.wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("cmd.Wait = %v, want exit status 3", err)
	}
	if err := WaitExited(c.pid()); err == nil {
		t.Error("WaitExited on a reaped pid succeeded")
	}
	c.requireGone()
}

func TestLastPID(t *testing.T) {
	for in, want := range map[string]int{"0.00 0.01 0.05 1/123 4567\n": 4567, "1.5 2 3 4/5 1": 1} {
		if got, err := parseLastPID([]byte(in)); err != nil || got != want {
			t.Errorf("parseLastPID(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0.00 0.01 0.05 1/123", "a b c d x", "a b c d 0", "a b c d e f"} {
		if _, err := parseLastPID([]byte(bad)); err == nil {
			t.Errorf("parseLastPID(%q): no error", bad)
		}
	}
	before, err := LastPID()
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, "exit", "0") // a fork moves it
	c.wait()
	after, err := LastPID()
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		// A /proc/loadavg virtualised per container (lxcfs) need not follow forks; the
		// escape scan then falls back to its every-tenth-tick scan (runs.scanPacer).
		t.Skipf("LastPID stayed %d across a fork: this /proc/loadavg does not track forks", before)
	}
}

// Past listSplit processes (lowered here: a CI machine may have fewer than 1024),
// ListAll reads the listed pids in parts on a few goroutines: every process listed
// once, in the listing's order, from one full scan of /proc; the tree started here
// among them.
func TestListAllSplit(t *testing.T) {
	c := start(t, "tree", "2")
	c.learnTree()
	was, procs := listSplit, runtime.GOMAXPROCS(4)
	listSplit = 8
	defer func() { listSplit = was; runtime.GOMAXPROCS(procs) }()
	var listed []int
	s := getScanner()
	s.eachPIDListed(func(pid int) { listed = append(listed, pid) })
	putScanner(s)
	if len(listed) < 4*listSplit {
		t.Skipf("%d processes: too few to be split in four parts of more than one", len(listed))
	}
	before := fullScans.Load()
	all, err := ListAll()
	if err != nil {
		t.Fatal(err)
	}
	if scans := fullScans.Load() - before; scans != 1 {
		t.Errorf("%d full scans of /proc, want one", scans)
	}
	var got []int
	for _, p := range all {
		got = append(got, p.PID)
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("pids %v: not each once in the listing's order", got)
	}
	for _, fp := range append(c.known, Fingerprint{PID: os.Getpid()}) {
		if !slices.Contains(got, fp.PID) {
			t.Errorf("ListAll misses %d", fp.PID)
		}
	}
	// Every listed process still alive now was read: none of a part left out.
	for _, pid := range listed {
		if !slices.Contains(got, pid) && unix.Kill(pid, 0) == nil {
			if _, err := ReadProc(pid); err == nil {
				t.Errorf("ListAll misses %d, listed and alive", pid)
			}
		}
	}
	Terminate(t.Context(), Target{SID: c.pid()})
	c.wait()
	c.requireGone()
}

// Those listed only: a listing that yielded no pid reads none, and takes no second
// scan of /proc.
func TestListAllListedOnly(t *testing.T) {
	s := getScanner()
	defer putScanner(s)
	before := fullScans.Load()
	all, err := s.listAll(nil, false)
	if err != nil || len(all) != 0 {
		t.Errorf("no pid listed: read %d processes, %v", len(all), err)
	}
	if scans := fullScans.Load() - before; scans != 0 {
		t.Errorf("no pid listed: %d full scans of /proc, want none", scans)
	}
}
