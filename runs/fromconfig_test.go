package runs

import (
	"slices"
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
