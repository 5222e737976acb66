//go:build unix

package export

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A theme or font "file" that is a FIFO (or a device) is refused at once, not read
// until something writes to it, or, for /dev/zero, until memory runs out.
func TestUserFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name, out, want string
		opts            func(*Options)
	}{
		{"theme", "a.svg", "theme file " + fifo + ": not a regular file", func(o *Options) { o.Theme = fifo }},
		{"font", "a.gif", "font " + fifo + ": not a regular file", func(o *Options) { o.Font = fifo }},
	} {
		o := defaults()
		c.opts(&o)
		done := make(chan error, 1)
		go func() {
			_, err := File(writeCast(t, shortCast), filepath.Join(dir, c.out), o)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s a FIFO: %v, want %q", c.name, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s a FIFO: still reading it after 10 s", c.name)
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // lets the read end
				w.Close()
			}
			<-done
		}
	}
}
