package runs

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
)

// Roles let the test binary act as a whole Corral process, so the registry tests
// use real, separate instances: one to SIGKILL mid-run, several to race.
const roleEnv = "CORRAL_TEST_ROLE"

// roles are the processes the test binary can be; Linux-only ones add themselves.
var roles = map[string]func(dir string) error{
	"supervise": roleSupervise,
	"reconcile": roleReconcile,
	"stubborn":  roleStubborn,
	"writer":    roleWriter,
	"codex":     roleCodex,
}

// maybeRole runs the role named in the environment and exits; called from TestMain.
func maybeRole() {
	role := os.Getenv(roleEnv)
	if role == "" {
		return
	}
	err := fmt.Errorf("unknown role %q", role)
	if run, ok := roles[role]; ok {
		err = run(os.Getenv("CORRAL_TEST_STATE"))
	}
	fmt.Fprintln(os.Stderr, "role:", err)
	os.Exit(1)
}

// shortLeases are timings that make lease expiry quick to reach in tests.
func shortLeases() config.Defaults {
	d := testDefaults()
	d.LeaseHeartbeat = 100 * time.Millisecond
	d.LeaseExpiry = 700 * time.Millisecond
	return d
}

// roleSupervise starts a PTY run and a pipe run, each a tree of three (root, child,
// grandchild), prints every member's pid, then waits to be killed. The PTY tree ignores
// SIGHUP: when this process dies, its PTY master closes and the kernel hangs up the
// session, which would otherwise end that run on its own.
func roleSupervise(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithEscapeDetection(), WithCgroups(FindCgroups("")))
	if err != nil {
		return err
	}
	for _, spec := range []Spec{childSpec(true, "tree", "2", "ignore-term"), childSpec(false, "tree", "2")} {
		spec.Name = string(spec.Kind()) + "-tree"
		id, err := s.Spawn(spec)
		if err != nil {
			return err
		}
		if err := awaitOutput(s, id, "tree ready"); err != nil {
			return err
		}
		out, _ := s.Log(id)
		fmt.Printf("run %s %v\n", id, pidsAfter(out.Bytes(), "member"))
	}
	fmt.Println("ready")
	select {}
}

// roleReconcile reconciles until no record of another instance is left open, then
// prints its decisions as JSON lines.
func roleReconcile(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()))
	if err != nil {
		return err
	}
	// A role process polls the registry, as a user would.
	err, settled := eventually.Within(30*time.Second, func() (error, bool) {
		ds, err := s.Reconcile(context.Background())
		if err != nil {
			return err, true
		}
		for _, d := range ds {
			if d.Decision != VerdictLeftAlone {
				json.NewEncoder(os.Stdout).Encode(d)
			}
		}
		return nil, !slices.ContainsFunc(ds, func(d Decision) bool { return d.Decision == VerdictLeftAlone })
	})
	if err != nil || !settled {
		return cmp.Or(err, fmt.Errorf("records still open after 30s"))
	}
	s.Shutdown(context.Background())
	reg.Close()
	os.Exit(0)
	return nil
}

// roleWriter rewrites one record forever, announcing each write, to be SIGKILLed.
func roleWriter(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	rec := Record{ID: "rwriter", Name: strings.Repeat("x", 64<<10), State: Running}
	for i := 0; ; i++ {
		rec.PID = i
		if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
			return err
		}
		fmt.Println("wrote", i)
	}
}

// awaitOutput waits (bounded) until the run's log contains want.
func awaitOutput(s *Supervisor, id, want string) error {
	_, sub := s.Subscribe()
	defer sub.Close()
	if _, ok := eventually.Woken(waitLimit, 0, sub.C, func() (struct{}, bool) {
		out, _ := s.Log(id)
		return struct{}{}, strings.Contains(string(out.Bytes()), want)
	}); !ok {
		return fmt.Errorf("no %q from %s", want, id)
	}
	return nil
}

// startRole starts this test binary in a role on state dir dir.
func startRole(t *testing.T, role, dir string) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"="+role, "CORRAL_TEST_STATE="+dir, "GORACE=atexit_sleep_ms=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // like a Corral started from its own shell
	return cmd, &stderr
}
