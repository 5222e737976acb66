package reaper

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// statTail is a real stat line's fields from state (3) on, with distinctive numbers:
// ppid 17765, pgrp 17771, session 17765, utime 7, stime 3, threads 4, starttime 32566,
// rss 411 pages.
const statTail = "S 17765 17771 17765 0 -1 4194304 101 0 0 0 7 3 0 0 20 0 4 0 32566 3133440 411 " +
	"18446744073709551615 94229513895936 94229513915817 140725637736784 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"

func TestParseStat(t *testing.T) {
	for _, comm := range []string{"cat", "a) (b c", ")) ", "x) R 1 2 3 4", "(", "sp ace", ""} {
		var p Proc
		got, err := parseStat([]byte("17771 ("+comm+") "+statTail), &p)
		if err != nil {
			t.Fatalf("comm %q: %v", comm, err)
		}
		want := Proc{PID: 17771, PPID: 17765, PGID: 17771, SID: 17765, State: 'S', UTime: 7, STime: 3,
			Threads: 4, StartTime: 32566, RSS: 411 * int64(os.Getpagesize())}
		if string(got) != comm || p != want {
			t.Errorf("comm %q: got %q %+v, want %+v", comm, got, p, want)
		}
	}
}

func TestParseStatMalformed(t *testing.T) {
	for _, line := range []string{
		"", "17771", "17771 (cat", "17771 cat) S 1", "(cat) " + statTail,
		"17771 (cat) S 1 2 3\n", "17771 (cat) SS" + statTail[1:], "x1 (cat) " + statTail,
		"17771 (cat) " + strings.Replace(statTail, "32566", "3z566", 1),
	} {
		var p Proc
		if _, err := parseStat([]byte(line), &p); !errors.Is(err, errBadStat) {
			t.Errorf("%q: err %v, want errBadStat", line, err)
		}
	}
}

// TestReadProcSelf checks the parse against what the kernel says through syscalls.
func TestReadProcSelf(t *testing.T) {
	p, err := ReadProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	sid, _ := unix.Getsid(0)
	if p.PID != os.Getpid() || p.PPID != os.Getppid() || p.PGID != unix.Getpgrp() || p.SID != sid ||
		dead(p.State) || p.Threads < 2 || p.RSS <= 0 || p.StartTime == 0 {
		t.Errorf("ReadProc(self) = %+v", p)
	}
	if _, err := ReadProc(-1); !errors.Is(err, ErrGone) {
		t.Errorf("ReadProc(-1) err %v, want ErrGone", err)
	}
}

// TestReadProcHostileComm runs a real process whose name holds spaces and parentheses:
// the kernel takes comm from the basename of the executed path.
func TestReadProcHostileComm(t *testing.T) {
	link := filepath.Join(t.TempDir(), "a) (b c")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	c := startLinked(t, link)
	c.line("ready sleep")
	p, err := ReadProc(c.pid())
	if err != nil || p.Comm != "a) (b c" || p.SID != c.pid() || p.State == 'Z' {
		t.Fatalf("ReadProc = %+v, %v", p, err)
	}
	if err := c.known[0].Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.wait()
	c.requireGone()
}

// startLinked starts the "sleep" behaviour through another path to this binary.
func startLinked(t *testing.T, path string) *child {
	cmd := demoCmd("sleep")
	cmd.Path, cmd.Args[0] = path, path
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return newChild(t, cmd, out)
}

func TestClockTicks(t *testing.T) {
	if got := ClockTicks(); got != 100 {
		t.Logf("CLK_TCK = %d (100 on this machine's kernel config expected)", got)
	}
	if ClockTicks() <= 0 {
		t.Fatal("ClockTicks <= 0")
	}
}
