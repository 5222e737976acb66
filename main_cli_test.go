package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
)

// CORRAL_CHILD=1 in a user's environment (it marks the test binary's child programs)
// does not break corral run.
func TestChildMarkerInUserEnvironment(t *testing.T) {
	cmd := corral(t, "run", "--", "echo", "hi")
	cmd.Env = append(cmd.Env, "CORRAL_CHILD=1")
	if r := run(t, cmd); r.code != 0 || r.stdout != "hi\n" {
		t.Fatalf("%+v", r)
	}
}

// A bad [keys] binding is reported at its line, by corral check and at start.
func TestKeysErrorNamesItsLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte("[keys]\ncancel = \"x\"\nfrobnicate = \"f\"\n"), 0o644)
	r := run(t, corral(t, "check", cfg))
	if r.code != 2 || !strings.Contains(r.stderr, "corral.toml:3: [keys] frobnicate: unknown action") {
		t.Fatalf("%+v", r)
	}
}

// A program run with corral run --pty at a terminal cannot set the terminal's title
// (nor write its clipboard, nor send DCS): what draws passes, what acts on the host
// does not. A name with control characters is refused.
func TestRunPTYDoesNotReachTheHost(t *testing.T) {
	state := t.TempDir()
	x := startTmux(t, 100, 20, "env CORRAL_STATE_DIR="+state+" "+corralBin+
		` run --pty --shell -- 'printf "\033]0;PWNED\007\033]52;c;aGk=\007\033[1mvisible\033[0m\n"'`)
	x.waitFor(`visible`, 20*time.Second)
	x.waitFor(`CORRAL-EXIT=0`, 20*time.Second)
	if title := strings.TrimSpace(x.run("display", "-p", "-t", "t", "#{pane_title}")); strings.Contains(title, "PWNED") {
		t.Fatalf("the run set the host's title: %q", title)
	}
	r := run(t, corral(t, "run", "--name", "a\x1b]0;x\x07b", "--", "true"))
	if r.code != 2 || !strings.Contains(r.stderr, `control characters (a\x1b]0;x\x07b)`) {
		t.Fatalf("a name with control characters: %+v", r)
	}
}

// corral check warns, with the run's line, of a cwd that is not there and a program
// not on PATH; the file is still valid.
func TestCheckWarnsOfMissingCwdAndProgram(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte("[[run]]\nname = \"a\"\ncmd = \"no-such-program-xyz --flag\"\ncwd = \"nowhere\"\n"), 0o644)
	r := run(t, corral(t, "check", cfg))
	if r.code != 0 || !strings.Contains(r.stderr, "corral.toml:1: run \"a\": cwd") ||
		!strings.Contains(r.stderr, "no-such-program-xyz is not on PATH") {
		t.Fatalf("%+v", r)
	}
}

// corral replay RUN plays the recording every PTY run writes, found by the run's name
// (or id) in the registry.
func TestReplayByRunName(t *testing.T) {
	state := t.TempDir()
	if r := run(t, corral(t, "run", "--state-dir", state, "--pty", "--name", "rec", "--shell", "--", "echo recorded-$((40+2))")); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s replay rec", state, corralBin))
	x.waitFor(`recorded-42`, 20*time.Second)
	x.keys("q")
	if r := run(t, corral(t, "replay", "--state-dir", state, "nosuch")); r.code != 2 || !strings.Contains(r.stderr, "neither a file nor a run") {
		t.Errorf("%+v", r)
	}
}

// corral run --pty at a terminal: Ctrl-] . ends a program that traps Ctrl-C.
func TestRunPTYEscapeChord(t *testing.T) {
	state := t.TempDir()
	x := startTmux(t, 100, 20, fmt.Sprintf(`env CORRAL_STATE_DIR=%s %s run --pty --shell -- 'trap "" INT; echo trapped; sleep 300'`,
		state, corralBin))
	x.waitFor(`trapped`, 20*time.Second)
	x.keys("C-c")
	x.keys("C-]")
	x.keys(".")
	s := x.waitFor(`CORRAL-EXIT=\d+`, 20*time.Second)
	if !strings.Contains(s, "CORRAL-EXIT=130") || !strings.Contains(s, "ended: manual-cancel") {
		t.Fatalf("the chord did not cancel the run:\n%s", s)
	}
}

// corral check prints a run's env, but not the value of a variable whose name says it
// is a secret: ANTHROPIC_API_KEY=sk-… reads <masked>, as in an assignment of its argv.
func TestCheckMasksSecrets(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte("[[run]]\nname = \"a\"\nargv = [\"env\", \"GH_TOKEN=ghp-argv-secret\", \"true\"]\n"+
		"env = { ANTHROPIC_API_KEY = \"sk-ant-env-secret\", HOME = \"/srv/agent-home\" }\n"), 0o644)
	r := run(t, corral(t, "check", cfg))
	if r.code != 0 || strings.Contains(r.stdout, "secret") || !strings.Contains(r.stdout, `ANTHROPIC_API_KEY = "<masked>"`) ||
		!strings.Contains(r.stdout, `"GH_TOKEN=<masked>"`) || !strings.Contains(r.stdout, `HOME = "/srv/agent-home"`) {
		t.Fatalf("%+v", r)
	}
}

// Corral's flags go before the command: after its first word they are the command's.
// corral spawn sleep 100 --name t2 runs sleep with --name t2, as before, but says so
// on stderr; -- before the command silences it; corral run parses the same way.
func TestFlagAfterCommandWarns(t *testing.T) {
	const warning = "warning: --name after the command is passed to it; put Corral's flags before the command, or -- before the command to silence this"
	r := run(t, corral(t, "run", "echo", "hi", "--name", "t2"))
	if r.code != 0 || r.stdout != "hi --name t2\n" || !strings.Contains(r.stderr, "corral run: "+warning) {
		t.Errorf("run with --name after the command: %+v", r)
	}
	if r := run(t, corral(t, "run", "--", "echo", "hi", "--name", "t2")); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Errorf("run -- with --name after the command: %+v", r)
	}
	state := t.TempDir()
	sp := serverCorral(t, state, "spawn", "echo", "spawned", "--name", "t2")
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	if !strings.Contains(sp.stderr, "corral spawn: "+warning) {
		t.Errorf("spawn with --name after the command: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	if w := serverCorral(t, state, "wait", id, "--timeout", "20s"); w.code != 0 {
		t.Fatalf("wait: %+v", w)
	}
	if l := serverCorral(t, state, "log", id); !strings.Contains(l.stdout, "spawned --name t2") {
		t.Errorf("the run's output: %+v", l)
	}
}
