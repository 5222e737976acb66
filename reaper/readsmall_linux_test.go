package reaper

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// readSmall reads a file whole whatever its length against its buffer's.
func TestReadSmallWhole(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 10, 1024, 5000} {
		want := bytes.Repeat([]byte("x"), n)
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		var buf [1024]byte
		got, err := readSmall(path, buf[:])
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: read %d, %v", n, len(got), err)
		}
	}
	if _, err := readSmall(filepath.Join(dir, "none"), nil); !os.IsNotExist(err) {
		t.Fatalf("a missing file: %v", err)
	}
}
