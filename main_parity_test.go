package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corral parity through the real binary: exit codes as diff(1), the JSON shape, the
// readable diff, and the input written to both runs.
func TestParityCommand(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"identical", []string{"--shell", "--", `printf 'a\nb\n'`}, 0, "identical (after normalization)"},
		{"isatty differs", []string{"--shell", "--", `test -t 1 && echo tty || echo pipe`}, 1, "-tty\n+pipe\n"},
		{"raw bytes differ", []string{"--raw", "--", "printf", `a\n`}, 1, `-a\x0d`},
		{"input to both", []string{"--input", "bob\n", "--shell", "--", `read n; echo "hi $n"`}, 0, "identical"},
		{"no command", []string{}, 2, ""},
		{"bad flag", []string{"--nope", "--", "true"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, corral(t, append([]string{"parity"}, c.args...)...))
			if r.code != c.code || !strings.Contains(r.stdout, c.out) {
				t.Fatalf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", r.code, c.code, r.stdout, r.stderr)
			}
		})
	}
}

func TestParityJSON(t *testing.T) {
	r := run(t, corral(t, "parity", "--json", "--shell", "--", `test -t 1 && exit 3; echo plain`))
	var res struct {
		PTY, Pipe struct {
			Name     string `json:"name"`
			Kind     string `json:"kind"`
			ExitCode *int   `json:"exit_code"`
		}
		Identical   bool     `json:"identical"`
		Diff        string   `json:"diff"`
		Differences []string `json:"differences"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 1 {
		t.Fatalf("exit %d, %v:\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if res.Identical || res.PTY.Kind != "pty" || res.Pipe.Kind != "pipe" || *res.PTY.ExitCode != 3 ||
		*res.Pipe.ExitCode != 0 || !strings.Contains(res.Diff, "+plain") || len(res.Differences) != 2 {
		t.Errorf("%+v", res)
	}
}

// A [[run]] with parity = true is a pair in the UI: both runs side by side, then what
// differs once both have ended.
func TestParityPairInTheUI(t *testing.T) {
	state, dir := serverState(t), t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	os.WriteFile(cfg, []byte("[[run]]\nname = \"probe\"\ncmd = \"if test -t 1; then echo tty-side; else echo pipe-side; fi\"\nparity = true\n"), 0o644)
	x := startTmux(t, 160, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --config %s", state, corralBin, cfg))
	x.waitFor(`(?s)probe \(pty\).*probe \(pipe\)`, 20*time.Second)
	x.waitFor(`Parity: 1 difference\(s\)`, 20*time.Second)
	s := x.waitFor(`-tty-side`, 10*time.Second)
	if !strings.Contains(s, "+pipe-side") {
		t.Fatalf("no diff:\n%s", s)
	}
	x.keys("v")
	x.waitUntil("the two screens", 10*time.Second, func(s string) bool {
		return !strings.Contains(s, "Parity:") && strings.Contains(s, "tty-side") && strings.Contains(s, "pipe-side")
	})
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
}
