// Package testkit is what every package's tests share: the TestMain they run (the
// test binary as the child program, the default signals, a subreaper where asked, and
// no process left behind) and Pin, a process the test knows named by its fingerprint.
//
// It sits under demo/, beside the child programs the tests re-execute, and imports
// demo and reaper: a package's own (internal) tests may import it unless testkit
// imports that package, so reaper's TestMain is in an external test file
// (package reaper_test).
package testkit

import (
	"fmt"
	"os"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// leftGrace is how long a child the tests ended may take to go after the last test:
// one signalled in a test's cleanup may still be exiting when m.Run returns.
const leftGrace = 10 * time.Second

// Option adds to what Main does.
type Option func(*options)

type options struct {
	subreaper bool
	before    []func()
	after     []func()
}

// Subreaper makes the test binary the subreaper of its children's orphans (the lower
// levels of a tree once their parent is reaped, the escapee of a double fork), so
// that they reparent to it, not to PID 1, and are counted as left behind unless the
// tests reap them.
func Subreaper() Option { return func(o *options) { o.subreaper = true } }

// Before runs f after the shared setup (the child dispatched, the signals, the
// subreaper) and before the tests: a package's own re-executions of the test binary
// (roles) that need that setup. f exits the process when it is one.
func Before(f func()) Option { return func(o *options) { o.before = append(o.before, f) } }

// After runs f after the tests, before the check for processes left behind: what a
// Before function made (a built binary) removed.
func After(f func()) Option { return func(o *options) { o.after = append(o.after, f) } }

// Main is a package's TestMain. Run as one of demo's child programs (demo.ChildEnv and
// a behaviour's name), the binary is that child and exits. Otherwise it runs the tests
// with the signals a child needs at their defaults, then fails if a process whose
// parent is this binary is still alive after leftGrace: by parent pid only, never by
// name. It does not return.
func Main(m *testing.M, opts ...Option) {
	demo.MaybeChild()
	demo.DefaultSignalsForChildren()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.subreaper {
		if err := reaper.SetSubreaper(); err != nil {
			fmt.Fprintln(os.Stderr, "testkit: set subreaper:", err)
			os.Exit(2)
		}
	}
	for _, f := range o.before {
		f()
	}
	code := m.Run()
	for _, f := range o.after {
		f()
	}
	if left := LeftBehind(leftGrace); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes left behind by the tests: %+v\n", left)
		code = 1
	}
	os.Exit(code)
}

// LeftBehind returns the live (not zombie) processes whose parent is this process,
// once none is left or after grace, whichever is first. Where processes cannot be
// listed (not Linux) it returns none.
func LeftBehind(grace time.Duration) []reaper.Proc {
	left, _ := eventually.Within(grace, func() ([]reaper.Proc, bool) {
		c := children()
		return c, len(c) == 0
	})
	return left
}

func children() []reaper.Proc {
	all, err := reaper.ListAll()
	if err != nil {
		return nil
	}
	var out []reaper.Proc
	for _, p := range all {
		if p.PPID == os.Getpid() && p.State != 'Z' && p.State != 'X' {
			out = append(out, p)
		}
	}
	return out
}

// Pin fingerprints pid, a process the test knows is alive and its own now, so that
// what the test later signals is that process and not another that took its number
// (numbers wrap within minutes on a busy machine). It fails the test if pid is gone.
func Pin(tb testing.TB, pid int) reaper.Fingerprint {
	tb.Helper()
	fp, err := reaper.Identify(pid)
	if err != nil {
		tb.Fatalf("pid %d: %v", pid, err)
	}
	return fp
}
