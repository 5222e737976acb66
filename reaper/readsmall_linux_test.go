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

// A cgroup's events are read into a buffer on the stack: reading them allocates no
// more than the read of the file does (its path), not the buffer too.
func TestCgroupEventsBufferOnStack(t *testing.T) {
	cg := testCgroup(t)
	path := cg.file("cgroup.events")
	read := testing.AllocsPerRun(200, func() {
		var buf [64]byte
		readSmall(path, buf[:])
	})
	events := testing.AllocsPerRun(200, func() {
		if _, _, err := cg.events(); err != nil {
			t.Fatal(err)
		}
	})
	// cg.file's path is one allocation more than the read of a path made once.
	if events > read+1 {
		t.Errorf("events: %v allocations, the read of the file %v and its path 1: the buffer moved to the heap", events, read)
	}
}
