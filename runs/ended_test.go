package runs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A server started after another lists the runs that ended under it again, from
// their records: state, reason, exit code, cleanup, the end of their output and a PTY
// run's last screen, every run in the order it was created. Records of a live
// instance (another Corral lists its own) and records past the finished-run TTL are
// not taken; an ended run taken is removed as any other (record and all).
func TestTakeEndedListsRunsOfAServerBefore(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	open := func() (*Supervisor, *Registry) {
		reg, err := OpenRegistry(dir, shortLeases())
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(WithDefaults(shortLeases()), WithRegistry(reg), WithLogDir(logs), WithScreens())
		if err != nil {
			t.Fatal(err)
		}
		return s, reg
	}
	shutdown := func(s *Supervisor, reg *Registry) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		reg.Close()
	}
	sh := func(name, script string, pty bool) Spec {
		return Spec{Name: name, Argv: []string{"/bin/sh", "-c", script}, PTY: pty, Cols: 40, Rows: 10}
	}

	old, oldReg := open()
	var ids []string
	for _, spec := range []Spec{sh("bad", "echo bad output; exit 3", false), sh("stop", "exec sleep 1000", false),
		sh("tty", "printf 'on the screen\\n'", true), sh("stale", "true", false)} {
		id := spawn(t, old, spec)
		ids = append(ids, id)
		if spec.Name == "stop" {
			waitState(t, old, id, Running)
			old.Cancel(id)
		}
		waitEnd(t, old, id)
	}
	shutdown(old, oldReg) // its instance is gone, as a killed server's is

	// An hour since the stale record was written: past the TTL.
	path := filepath.Join(dir, "runs", ids[3]+".json")
	b, err := os.ReadFile(path)
	var rec map[string]any
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	if err != nil {
		t.Fatal(err)
	}
	rec["updated_at"] = time.Now().Add(-time.Hour).Format(time.RFC3339Nano)
	if b, err = json.Marshal(rec); err != nil || os.WriteFile(path, b, 0o600) != nil {
		t.Fatal(err)
	}

	other, otherReg := open() // a live Corral: its ended run is its own to list
	t.Cleanup(func() { shutdown(other, otherReg) })
	mine := spawn(t, other, sh("mine", "true", false))
	waitEnd(t, other, mine)

	s, reg := open()
	t.Cleanup(func() { shutdown(s, reg) })
	live := spawn(t, s, sh("live", "exec sleep 1000", false)) // created last, listed first until sorted
	if n := s.TakeEnded(); n != 3 {
		t.Errorf("took %d ended runs, want 3", n)
	}
	snap := s.Snapshot()
	var got []string
	for _, i := range snap {
		got = append(got, i.Name)
	}
	if want := "bad stop tty live"; strings.Join(got, " ") != want {
		t.Fatalf("listed %q, want %q", got, want)
	}
	bad, stop, tty := snap[0], snap[1], snap[2]
	if bad.State != Exited || bad.Reason != Exit || bad.ExitCode == nil || *bad.ExitCode != 3 ||
		!bad.Cleanup.VerifiedEmpty || bad.CreatedAt.IsZero() || bad.EndedAt.Before(bad.CreatedAt) || bad.PID == 0 {
		t.Errorf("bad: %+v", bad)
	}
	if stop.State != Exited || stop.Reason != ManualCancel {
		t.Errorf("stop: %+v", stop)
	}
	if tail, _ := s.Tail(bad.ID); !strings.Contains(string(tail), "bad output") {
		t.Errorf("bad's tail %q", tail)
	}
	if scr, err := s.Screen(tty.ID); err != nil || !strings.Contains(scr.Text(), "on the screen") {
		t.Errorf("tty's screen: %v", err)
	}
	if info, err := s.Wait(context.Background(), bad.ID); err != nil || info.ExitCode == nil || *info.ExitCode != 3 {
		t.Errorf("wait bad: %+v %v", info, err)
	}
	if err := s.Write(bad.ID, []byte("x")); !errors.Is(err, ErrNotRunning) {
		t.Errorf("write to an ended run: %v", err)
	}
	if err := s.Remove(bad.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", bad.ID+".json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the removed run's record: %v", err)
	}
	s.Cancel(live)
}
