//go:build !windows

package demo

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A recording that is not a regular file, or whose header never ends, is refused
// without blocking or reading it whole (replay /dev/zero grew to 4.9 GB).
func TestCastSizeRefusesNonRecordings(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.cast")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	endless := filepath.Join(dir, "endless.cast")
	if err := os.WriteFile(endless, []byte(strings.Repeat("x", 2*castHeaderCap)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo, endless} {
		done := make(chan error, 1)
		go func() { _, _, err := CastSize(path); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: accepted as a recording", path)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: CastSize did not return", path)
		}
	}
}
