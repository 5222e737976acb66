package parity

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit"
	"corral/runs"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// compareShell runs one shell command line both ways under a fresh supervisor.
func compareShell(t *testing.T, line string, opt Options) Result {
	return compareSpec(t, runs.Spec{Shell: line, Timeout: 20 * time.Second}, opt)
}

// compareSpec runs one spec both ways under a fresh supervisor.
func compareSpec(t *testing.T, spec runs.Spec, opt Options) Result {
	t.Helper()
	d := config.Default()
	d.Grace = 300 * time.Millisecond
	sup, err := runs.New(runs.WithDefaults(d), runs.WithLogDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Shutdown(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := Run(ctx, sup, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPlainTextIsIdentical(t *testing.T) {
	res := compareShell(t, `printf 'one\ntwo\n'`, Options{})
	if !res.Identical || res.Diff != "" {
		t.Fatalf("plain text differs:\n%s", res.Text())
	}
	if res.PTY.Kind != "pty" || res.Pipe.Kind != "pipe" || !strings.HasSuffix(res.PTY.Name, " (pty)") ||
		!strings.HasSuffix(res.Pipe.Name, " (pipe)") {
		t.Errorf("names/kinds: %q %s, %q %s", res.PTY.Name, res.PTY.Kind, res.Pipe.Name, res.Pipe.Kind)
	}
}

func TestIsattyDiffers(t *testing.T) {
	res := compareShell(t, `if test -t 1; then echo tty; else echo pipe; fi`, Options{})
	if res.Identical || !strings.Contains(res.Diff, "-tty\n+pipe\n") {
		t.Fatalf("isatty: identical=%v\n%s", res.Identical, res.Diff)
	}
	if res.Differences[len(res.Differences)-1] != "output: 2 lines differ" {
		t.Errorf("differences: %q", res.Differences)
	}
}

// A program that colours only on a terminal differs in bytes, not in text.
func TestColourOnlyOnTTY(t *testing.T) {
	line := `if test -t 1; then printf '\033[1;31mred\033[0m\n'; else echo red; fi`
	if res := compareShell(t, line, Options{}); !res.Identical {
		t.Errorf("normalized: different\n%s", res.Text())
	}
	res := compareShell(t, line, Options{Raw: true})
	if res.Identical || res.Normalized || !strings.Contains(res.Diff, `-\x1b[1;31mred\x1b[0m\x0d`) {
		t.Errorf("raw: identical=%v\n%s", res.Identical, res.Diff)
	}
}

func TestInputEchoRemoved(t *testing.T) {
	res := compareShell(t, `printf 'Name? '; read name; echo "hello $name"; cat`, Options{Input: "alice\nrest\n"})
	if !res.Identical || res.EchoRemoved != 2 {
		t.Fatalf("identical=%v echo removed %d\n%s", res.Identical, res.EchoRemoved, res.Text())
	}
}

// Without input both runs see the end of input at once: cat ends in both.
func TestNoInputEndsInput(t *testing.T) {
	res := compareShell(t, `cat; echo done`, Options{})
	if !res.Identical || res.PTY.Reason != runs.Exit || res.Pipe.Reason != runs.Exit {
		t.Fatalf("%s", res.Text())
	}
}

func TestExitCodeAndStderrDiffer(t *testing.T) {
	res := compareShell(t, `test -t 2 || echo warn >&2; test -t 0 && exit 3; exit 4`, Options{})
	if res.Identical {
		t.Fatal("identical")
	}
	if !contains(res.Differences, "exit code: 3 (pty) vs 4 (pipe)") {
		t.Errorf("differences: %q", res.Differences)
	}
	if !strings.Contains(res.Diff, "+warn   ⟨stderr⟩\n") {
		t.Errorf("stderr line not marked:\n%s", res.Diff)
	}
}

func TestJSONShape(t *testing.T) {
	res := compareShell(t, `echo hi`, Options{})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"pty", "pipe", "identical", "diff"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestMissingFinalNewlineDiffers(t *testing.T) {
	res := compareShell(t, `if test -t 1; then printf x; else printf 'x\n'; fi`, Options{})
	if res.Identical || !strings.Contains(res.Diff, "-"+noEOL+"\n") {
		t.Fatalf("identical=%v\n%s", res.Identical, res.Diff)
	}
}

// A program that waits on a terminal but not on a pipe: the PTY run ends by its
// timeout, the pipe run by exit, and the reasons are what differs.
func TestWaitsOnlyOnATTY(t *testing.T) {
	res := compareSpec(t, runs.Spec{Shell: `if test -t 0; then sleep 30; fi; echo done`, Timeout: time.Second}, Options{})
	if res.PTY.Reason != runs.OverallTimeout || res.Pipe.Reason != runs.Exit ||
		!contains(res.Differences, "reason: overall-timeout (pty) vs exit (pipe)") {
		t.Fatalf("%s", res.Text())
	}
}

// A grandchild that survives SIGHUP but not SIGTERM: the PTY run's cleanup needs a
// step more (hup+term against term), and that is reported.
func TestCleanupStepsDiffer(t *testing.T) {
	line := `sh -c 'trap "" HUP; exec sleep 30' & echo started; wait`
	res := compareSpec(t, runs.Spec{Shell: line, Timeout: time.Second}, Options{})
	if !contains(res.Differences, "cleanup: hup+term (pty) vs term (pipe)") {
		t.Fatalf("%q\n%s", res.Differences, res.Text())
	}
	if !res.PTY.Cleanup.VerifiedEmpty || !res.Pipe.Cleanup.VerifiedEmpty {
		t.Errorf("not verified empty: %+v %+v", res.PTY.Cleanup, res.Pipe.Cleanup)
	}
}
