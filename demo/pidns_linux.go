package demo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// Tests that must force pid reuse run in a PID namespace of their own:
// there /proc/sys/kernel/ns_last_pid can be set, so a chosen pid goes to a chosen
// process, and nothing outside can take it first. PIDNamespace builds the command:
// `unshare -pf --mount-proc` runs this binary as the namespace's init, which starts the
// test itself (pid 2) in a session of its own and records every signal it gets. A
// test whose forged record reaches pid 1 then fails by that alone. When
// init exits, the kernel kills whatever is left in the namespace.

// pidnsEnv selects the role of this binary inside the namespace: "init" or "test".
const pidnsEnv = "CORRAL_TEST_PIDNS"

func init() { nsInit = maybeNSInit }

// ErrNoPIDNamespace says why a PID namespace test cannot run here.
var ErrNoPIDNamespace = errors.New("no PID namespace: needs root and unshare(1)")

// PIDNamespace returns the command that runs this test binary's test named run inside
// a new PID namespace, or ErrNoPIDNamespace (the caller skips with it).
func PIDNamespace(run string) (*exec.Cmd, error) {
	unshare, err := exec.LookPath("unshare")
	if os.Geteuid() != 0 || err != nil {
		return nil, ErrNoPIDNamespace
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(unshare, "-pf", "--mount-proc", "--", exe, "-test.run=^"+run+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), pidnsEnv+"=init", "GORACE=atexit_sleep_ms=0")
	return cmd, nil
}

// InPIDNamespace reports whether this process is the test running inside one.
func InPIDNamespace() bool { return os.Getenv(pidnsEnv) == "test" }

// TB is what RerunInPIDNamespace needs of a test: testing.TB's methods (demo, part
// of the corral binary, does not import testing).
type TB interface {
	Helper()
	Name() string
	Skip(args ...any)
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// RerunInPIDNamespace runs the calling test again inside a PID namespace of its own
// and reports false outside (the caller returns: the outer run only checks that the
// inner one passed), true inside. It skips where the namespace cannot be made (not
// root, no unshare, or root without CAP_SYS_ADMIN in a container).
func RerunInPIDNamespace(t TB) bool {
	t.Helper()
	if InPIDNamespace() {
		return true
	}
	cmd, err := PIDNamespace(t.Name())
	if err != nil {
		t.Skip(err)
	}
	out, err := cmd.CombinedOutput()
	if strings.HasPrefix(string(out), "unshare:") {
		t.Skipf("no PID namespace here: %s", strings.TrimSpace(string(out)))
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("inside a PID namespace: %v\n%s", err, out)
	}
	return false
}

// SetLastPID writes ns_last_pid, so the next process created in this namespace gets
// pid+1 (unless a thread is created first; callers retry).
func SetLastPID(pid int) error {
	return os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(pid)), 0)
}

// maybeNSInit is the namespace's init: a session of its own, the test in another,
// and a note of every signal that reaches it. It exits with the test's status, or 3
// when it was signalled.
func maybeNSInit() {
	if os.Getenv(pidnsEnv) != "init" {
		return
	}
	syscall.Setsid()
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGCONT, syscall.SIGHUP, syscall.SIGINT, syscall.SIGUSR1)
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), pidnsEnv+"=test")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "pidns init:", err)
		os.Exit(2)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	signalled := false
	for {
		select {
		case s := <-sigs:
			fmt.Fprintf(os.Stderr, "pidns init (pid 1) got %v: a forged record reached init\n", s)
			signalled = true
		case err := <-done:
			code := 0
			if err != nil {
				code = 1
			}
			if signalled {
				code = 3
			}
			os.Exit(code)
		}
	}
}
