package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDefaultsMatchContract(t *testing.T) {
	d := Default()
	checks := []struct {
		name      string
		got, want any
	}{
		{"grace", d.Grace, 5 * time.Second},
		{"output cap", d.OutputCap, 200_000},
		{"tail", d.TailBytes, 2_000},
		{"transcript cap", d.TranscriptCap, int64(16 << 20)},
		{"scrollback lines", d.ScrollbackLines, 10_000},
		{"cols", d.Cols, uint16(120)},
		{"rows", d.Rows, uint16(40)},
		{"term", d.Term, "xterm-256color"},
		{"ttl", d.FinishedTTL, 30 * time.Minute},
		{"heartbeat", d.LeaseHeartbeat, 2 * time.Second},
		{"expiry", d.LeaseExpiry, 10 * time.Second},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestStateDirPrecedence(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(StateDirEnv, "")
	t.Setenv("XDG_STATE_HOME", "")
	cases := []struct {
		name, flag, env, xdg, want string
	}{
		{"flag wins", "/tmp/a", "/tmp/b", "/tmp/c", "/tmp/a"},
		{"env next", "", "/tmp/b", "/tmp/c", "/tmp/b"},
		{"xdg next", "", "", "/tmp/c", "/tmp/c/corral"},
		{"home last", "", "", "", filepath.Join(home, ".local/state/corral")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(StateDirEnv, c.env)
			t.Setenv("XDG_STATE_HOME", c.xdg)
			got, err := StateDir(c.flag)
			if err != nil || got != c.want {
				t.Fatalf("StateDir(%q) = %q, %v; want %q", c.flag, got, err, c.want)
			}
		})
	}
}

func TestEnsureStateDirTightensMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := EnsureStateDir(dir); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", st.Mode().Perm())
	}
}
