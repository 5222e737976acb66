package reaper

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit/eventually"

	"github.com/creack/pty"
)

// waitFor bounds every wait on a child's output or state.
const waitFor = 20 * time.Second

// child is one demo child program started in its own session. It records every process
// it learns as a fingerprint, so cleanup kills only those, by identity.
type child struct {
	tb     testing.TB
	cmd    *exec.Cmd
	out    io.Closer // read end of the output (pipe or PTY master)
	lines  chan string
	known  []Fingerprint // root first
	waited bool
	werr   error
}

// start runs a demo behaviour with Setsid and a pipe for stdout.
func start(tb testing.TB, mode string, args ...string) *child {
	tb.Helper()
	return startCmd(tb, demoCmd(mode, args...))
}

// startCmd runs cmd with Setsid and a pipe for stdout.
func startCmd(tb testing.TB, cmd *exec.Cmd) *child {
	tb.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		tb.Fatalf("start %v: %v", cmd.Args, err)
	}
	return newChild(tb, cmd, r)
}

// startPTY runs a demo behaviour in a real PTY (Setsid+Setctty), as the PTY host does.
func startPTY(tb testing.TB, mode string, args ...string) *child {
	tb.Helper()
	cmd := demoCmd(mode, args...)
	master, err := pty.StartWithAttrs(cmd, nil, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		tb.Fatalf("start %s in a pty: %v", mode, err)
	}
	return newChild(tb, cmd, master)
}

func demoCmd(mode string, args ...string) *exec.Cmd {
	argv, env := demo.Child(mode, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(childEnv(), env...)
	return cmd
}

// childEnv is the environment for re-executed test binaries. Under -race a binary that
// exits with status 0 sleeps a second first (GORACE atexit_sleep_ms defaults to 1000),
// which would slow every test whose child exits on its own.
func childEnv() []string {
	if _, set := os.LookupEnv("GORACE"); set {
		return os.Environ()
	}
	return append(os.Environ(), "GORACE=atexit_sleep_ms=0")
}

func newChild(tb testing.TB, cmd *exec.Cmd, out io.ReadCloser) *child {
	c := &child{tb: tb, cmd: cmd, out: out, lines: make(chan string, 64)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- strings.TrimRight(sc.Text(), "\r")
		}
	}()
	tb.Cleanup(c.finish)
	c.learn(cmd.Process.Pid)
	return c
}

func (c *child) pid() int { return c.cmd.Process.Pid }

// learn fingerprints a process of this child's tree so the test can check it is gone
// and cleanup can kill it by identity.
func (c *child) learn(pid int) Fingerprint {
	c.tb.Helper()
	fp, err := Identify(pid)
	if err != nil {
		c.tb.Fatalf("identify %d: %v", pid, err)
	}
	c.known = append(c.known, fp)
	return fp
}

// line waits for the next output line starting with prefix (others are skipped).
func (c *child) line(prefix string) string {
	c.tb.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.tb.Fatalf("output ended before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			c.tb.Fatalf("no %q line within %v", prefix, waitFor)
		}
	}
}

// learnLine waits for a line "<prefix> ... <pid>" and learns that pid.
func (c *child) learnLine(prefix string) int {
	c.tb.Helper()
	f := strings.Fields(c.line(prefix))
	pid, err := strconv.Atoi(f[len(f)-1])
	if err != nil {
		c.tb.Fatalf("bad pid in %q line: %v", prefix, err)
	}
	if pid != c.pid() {
		c.learn(pid)
	}
	return pid
}

// learnTree learns every member a "tree" behaviour prints, until "tree ready".
func (c *child) learnTree() {
	c.tb.Helper()
	for {
		l := c.line("")
		if l == "tree ready" {
			return
		}
		if strings.HasPrefix(l, "member ") {
			pid, _ := strconv.Atoi(strings.TrimPrefix(l, "member "))
			if pid != c.pid() {
				c.learn(pid)
			}
		}
	}
}

// learnSession learns every live member of the child's session.
func (c *child) learnSession() {
	c.tb.Helper()
	members, err := Session(c.pid())
	if err != nil {
		c.tb.Fatal(err)
	}
	for _, p := range members {
		if p.PID != c.pid() {
			c.learn(p.PID)
		}
	}
}

// wait reaps the root (once) and returns its wait error.
func (c *child) wait() error {
	if !c.waited {
		c.waited, c.werr = true, c.cmd.Wait()
	}
	return c.werr
}

// requireGone fails the test if any learned process is still alive.
func (c *child) requireGone() {
	c.tb.Helper()
	for _, fp := range c.known {
		if alive, err := fp.Alive(); alive || err != nil {
			c.tb.Errorf("pid %d still alive (err %v)", fp.PID, err)
		}
	}
}

// finish kills what is left by recorded identity, reaps the root through exec.Cmd and
// the reparented orphans by exact pid, and checks that nothing learned survived.
func (c *child) finish() {
	for _, fp := range c.known {
		if err := fp.Signal(syscall.SIGKILL); err == nil {
			c.tb.Logf("cleanup killed pid %d", fp.PID)
		}
	}
	c.wait()
	c.reapOrphans()
	c.out.Close()
	c.requireGone()
}

// reapOrphans reaps, by exact pid and never wait4(-1), the learned processes that were
// reparented to us. A grandchild only reaches us once its own parent is reaped, so it
// goes round until none is pending.
func (c *child) reapOrphans() {
	pending, _ := eventually.Within(waitFor, func() (int, bool) {
		pending := 0
		for _, fp := range c.known[1:] {
			if !reapOne(fp) {
				pending++
			}
		}
		return pending, pending == 0
	})
	if pending > 0 {
		c.tb.Errorf("%d orphans not reaped within %v", pending, waitFor)
	}
}

// reapOne reports whether fp is settled: reaped now, gone, or someone else's zombie.
func reapOne(fp Fingerprint) bool {
	p, err := ReadProc(fp.PID)
	switch {
	case errors.Is(err, ErrGone) || (err == nil && p.StartTime != fp.StartTime):
		return true
	case err != nil || !dead(p.State):
		return false
	case p.PPID != os.Getpid():
		return p.PPID == 1 // init's zombie; our ancestor chain is still being reaped otherwise
	}
	reaped, err := ReapIfZombie(fp.PID)
	return reaped || err != nil
}

// waitState polls until every learned process is in state want.
func (c *child) waitState(want byte) {
	c.tb.Helper()
	eventually.True(c.tb, waitFor, fmt.Sprintf("every learned process in state %c", want), func() bool {
		for _, fp := range c.known {
			if p, err := ReadProc(fp.PID); err != nil || p.State != want {
				return false
			}
		}
		return true
	})
}
