package runs

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/config"
)

func TestSpecFromEntry(t *testing.T) {
	d := config.Default()
	d.Timeout, d.EscapePolicy = time.Hour, config.EscapeWarn
	e := config.RunEntry{Name: "api", Cmd: "serve", PTY: true, Env: map[string]string{"B": "2", "A": "1"},
		NoOutputSet: true, StopSignal: "INT", Cols: 100, Rows: 30}
	s, err := SpecFromEntry(e, d)
	if err != nil {
		t.Fatal(err)
	}
	if s.Shell != "serve" || !s.PTY || s.Timeout != time.Hour || s.NoOutputTimeout != -1 ||
		s.StopSignal != syscall.SIGINT || s.Escape != EscapeWarn || !slices.Equal(s.Env, []string{"A=1", "B=2"}) ||
		s.Cols != 100 {
		t.Fatalf("spec %+v", s)
	}
	e.TimeoutSet, e.Timeout = true, 0
	if s, _ := SpecFromEntry(e, d); s.Timeout != 0 {
		t.Errorf("timeout = 0 in the entry must turn the default off, got %v", s.Timeout)
	}
	if _, err := SpecFromEntry(config.RunEntry{Name: "x", Cmd: "y", StopSignal: "NOPE"}, d); err == nil {
		t.Error("bad stop signal accepted")
	}
}

// An unknown signal name is reported at its own line, not the [[run]]'s.
func TestUnknownStopSignalLine(t *testing.T) {
	f, err := config.Parse("corral.toml", []byte("[[run]]\nname = \"a\"\ncmd = \"x\"\nstop_signal = \"FOO\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = SpecFromEntry(f.Runs[0], config.Default())
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("error %v, want it at line 4", err)
	}
}
