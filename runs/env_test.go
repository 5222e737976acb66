package runs

import (
	"slices"
	"testing"

	"corral/config"
)

// TestRunEnv: a run sees Corral's terminal, not the host's.
func TestRunEnv(t *testing.T) {
	host := []string{"HOME=/h", "TERM=tmux-256color", "TMUX=/tmp/tmux-0/default,1,0", "TMUX_PANE=%3",
		"TERM_PROGRAM=tmux", "TERM_PROGRAM_VERSION=3.3a", "STY=1.pts", "KITTY_WINDOW_ID=2",
		"WEZTERM_PANE=4", "ZELLIJ_SESSION_NAME=z", "COLORTERM=24bit", "PATH=/bin"}
	t.Setenv("TMUX", "/tmp/tmux-0/default,1,0")
	t.Setenv("TERM_PROGRAM", "tmux")
	d := config.Defaults{Term: "xterm-256color"}
	for _, c := range []struct {
		name string
		pty  bool
		want []string
	}{
		{"pty", true, []string{"HOME=/h", "PATH=/bin", "TERM=xterm-256color", "COLORTERM=truecolor", "TERM_PROGRAM=corral"}},
		{"pipe", false, []string{"HOME=/h", "TERM=tmux-256color", "PATH=/bin"}},
	} {
		if got := runEnv(host, c.pty, d.Term); !slices.Equal(got, c.want) {
			t.Errorf("%s: env = %q, want %q", c.name, got, c.want)
		}
		env := Spec{Argv: []string{"true"}, PTY: c.pty}.command(d, "r1").Env
		for _, kv := range env {
			if kv == "TMUX=/tmp/tmux-0/default,1,0" || kv == "TERM_PROGRAM=tmux" {
				t.Errorf("%s: command env keeps the host's %s", c.name, kv)
			}
		}
		if c.pty && !slices.Contains(env, "TERM_PROGRAM=corral") {
			t.Errorf("pty: command env %q lacks TERM_PROGRAM=corral", env)
		}
	}
}

// A run's directory may be relative to the home directory of the machine it runs on
// (a spawn from another host names no directory of this one): ~ is the HOME of the
// run's environment.
func TestHomeRelativeDir(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{"~", "/home/u"}, {"~/src/app", "/home/u/src/app"}, {"/abs", "/abs"}, {"", ""}, {"~x", "~x"},
	} {
		s := Spec{Argv: []string{"true"}, Dir: c.dir, BaseEnv: []string{"HOME=/home/u", "PATH=/bin"}}
		if got := s.command(config.Default(), "r1").Dir; got != c.want {
			t.Errorf("Dir %q ran in %q, want %q", c.dir, got, c.want)
		}
	}
}
