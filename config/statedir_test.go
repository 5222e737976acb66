//go:build !windows

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nobody is a uid that is not ours; chown to it needs root, as the CI has.
const nobody = 65534

func chownOrSkip(t *testing.T, path string) {
	t.Helper()
	if err := os.Chown(path, nobody, nobody); err != nil {
		t.Skipf("chown needs root: %v", err)
	}
}

// A state dir owned by another user is refused with its path and owner; so is one
// Corral would create inside another user's directory. One of ours
// in /tmp works.
func TestStateDirOwnership(t *testing.T) {
	if os.Getuid() == nobody {
		t.Skip("running as the uid the test uses as a stranger")
	}
	mine := filepath.Join(t.TempDir(), "state")
	if err := EnsureStateDir(mine); err != nil {
		t.Fatalf("own state dir under %s refused: %v", os.TempDir(), err)
	}

	foreign := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(foreign, 0o700); err != nil {
		t.Fatal(err)
	}
	chownOrSkip(t, foreign)
	err := EnsureStateDir(foreign)
	if !errors.Is(err, ErrForeignStateDir) || !strings.Contains(err.Error(), foreign) || !strings.Contains(err.Error(), "65534") {
		t.Fatalf("foreign state dir: %v, want ErrForeignStateDir naming %s and uid 65534", err, foreign)
	}
	inside := filepath.Join(foreign, "sub", "state")
	if err := EnsureStateDir(inside); !errors.Is(err, ErrForeignStateDir) {
		t.Fatalf("state dir created inside a foreign dir: %v, want ErrForeignStateDir", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "sub")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a directory was created inside the foreign one")
	}

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(mine, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if err := EnsureStateDir(link); !errors.Is(err, ErrForeignStateDir) {
		t.Fatalf("state dir through a stranger's symlink: %v, want ErrForeignStateDir", err)
	}
}

// A new state dir is made only in a directory no group or other user can write into
// (a sticky one, as /tmp, excepted): one they can write could have the new dir
// swapped for theirs. Nothing is created in a refused one.
func TestStateDirParentNotWritableByOthers(t *testing.T) {
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		open := filepath.Join(t.TempDir(), "open")
		if err := os.Mkdir(open, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(open, mode)
		err := EnsureStateDir(filepath.Join(open, "sub", "state"))
		if !errors.Is(err, ErrUnsafeStateDirParent) || !strings.Contains(err.Error(), "writable by others") ||
			!strings.Contains(err.Error(), open) {
			t.Errorf("mode %v: %v, want refused: %s writable by others", mode, err, open)
		}
		if names, _ := os.ReadDir(open); len(names) > 0 {
			t.Errorf("mode %v: %d entries created in the refused directory", mode, len(names))
		}
	}
	sticky := filepath.Join(t.TempDir(), "sticky")
	if err := os.Mkdir(sticky, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(sticky, 0o777|os.ModeSticky)
	if err := EnsureStateDir(filepath.Join(sticky, "state")); err != nil {
		t.Errorf("a state dir in a sticky directory, as /tmp: %v", err)
	}
}
