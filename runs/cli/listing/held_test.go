//go:build !windows

package listing

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/runs"
)

// corral ls from what a server holds (Held) is corral ls from the files (List), the
// same bytes, with runs of its own live and ended, a dead owner's ended record, and
// another live owner's runs, which that owner ends and removes meanwhile (a record
// of another owner is read again when its file changed, and one removed is gone).
func TestHeldListsAsFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	d := config.Default()
	open := func() (*runs.Registry, *runs.Supervisor) {
		reg, err := runs.OpenRegistry(dir, d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := runs.New(runs.WithRegistry(reg), runs.WithDefaults(d), runs.WithLogDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s.Shutdown(ctx)
			reg.Close()
		})
		return reg, s
	}
	spawn := func(s *runs.Supervisor, spec runs.Spec) string {
		id, err := s.Spawn(spec)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	ended := func(s *runs.Supervisor, id string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := s.Wait(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	// A dead owner's ended run.
	deadReg, dead := open()
	ended(dead, spawn(dead, runs.Spec{Name: "gone", Argv: []string{"sh", "-c", "exit 3"}}))
	dead.Shutdown(context.Background())
	deadReg.Close()

	reg, s := open()
	spawn(s, runs.Spec{Name: "pipe", Argv: []string{"sleep", "1000"}})
	spawn(s, runs.Spec{Name: "pty", Argv: []string{"sh", "-c", "sleep 1000"}, PTY: true, Cols: 80, Rows: 24})
	ended(s, spawn(s, runs.Spec{Name: "failed", Argv: []string{"sh", "-c", "exit 7"}}))
	_, other := open()
	theirs := spawn(other, runs.Spec{Name: "theirs", Argv: []string{"sleep", "1000"}})
	alsoTheirs := spawn(other, runs.Spec{Name: "also-theirs", Argv: []string{"sleep", "1000"}})

	same := func(when string) {
		t.Helper()
		for _, all := range []bool{false, true} {
			files, err := List(reg, all, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			held, err := Held(reg, reg.ListCached, all, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			WriteJSON(&a, files, reg.Totals())
			WriteJSON(&b, held, reg.Totals())
			if a.String() != b.String() {
				t.Fatalf("%s (all %v): held\n%s\nfiles\n%s", when, all, b.String(), a.String())
			}
			if len(files) < 3 {
				t.Fatalf("%s: %d runs listed", when, len(files))
			}
		}
	}
	same("at first")
	same("again, from what was read") // the other owner's records now as kept
	// The other owner ends one of its runs and removes the other: its files change.
	if err := other.Cancel(theirs); err != nil {
		t.Fatal(err)
	}
	ended(other, theirs)
	if err := other.Cancel(alsoTheirs); err != nil {
		t.Fatal(err)
	}
	ended(other, alsoTheirs)
	eventually.True(t, 10*time.Second, "the removed run gone", func() bool { return other.Remove(alsoTheirs) == nil })
	same("after the other owner changed its records")
	held, _ := Held(reg, reg.ListCached, true, time.Hour)
	for _, r := range held {
		if r.ID == alsoTheirs {
			t.Errorf("a removed record still listed: %+v", r)
		}
		if r.ID == theirs && r.State != runs.Exited {
			t.Errorf("another owner's ended run listed as %s", r.State)
		}
	}
}
