package filetail

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The last n bytes come from the current file and, when it was begun lately, from the
// end of the one before it; cut at a line only when asked.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.log")
	write(t, path+Rotated, "old one\nold two\n")
	write(t, path, "new\n")
	for _, c := range []struct {
		n      int64
		atLine bool
		want   string
	}{
		{4, false, "new\n"},
		{2, false, "w\n"},
		{2, true, ""}, // "w\n": the cut line is dropped
		{8, false, "two\nnew\n"},
		{14, false, "e\nold two\nnew\n"},
		{14, true, "old two\nnew\n"},
		{100, true, "old one\nold two\nnew\n"},
	} {
		got, err := Read(os.Open, path, c.n, c.atLine)
		if err != nil || string(got) != c.want {
			t.Errorf("Read(%d, %v) = %q, %v; want %q", c.n, c.atLine, got, err, c.want)
		}
	}
}

// A current file that fills n is read alone: the one before it ends where the current
// one's first bytes begin, which a cut at a line dropped, and joining it would leave
// a gap.
func TestReadFullCurrentAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	write(t, path+Rotated, "old one\nold two\n")
	write(t, path, strings.Repeat("a", 20)+"\nb\n")
	got, err := Read(os.Open, path, 22, true)
	if err != nil || string(got) != "b\n" {
		t.Errorf("%q %v", got, err)
	}
}

// A read within a file without a newline keeps its bytes: there is no line to cut.
func TestReadNoLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	write(t, path, "abcdef")
	if got, err := Read(os.Open, path, 3, true); err != nil || string(got) != "def" {
		t.Errorf("%q %v", got, err)
	}
}

// A missing current file is its error, after the one before it was read.
func TestReadMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	if got, err := Read(os.Open, path, 10, false); !errors.Is(err, fs.ErrNotExist) || len(got) != 0 {
		t.Errorf("no files: %q %v", got, err)
	}
	write(t, path+Rotated, "old\n")
	if got, err := Read(os.Open, path, 10, false); !errors.Is(err, fs.ErrNotExist) || string(got) != "old\n" {
		t.Errorf("only the one before: %q %v", got, err)
	}
}
