//go:build linux

package ptyhost

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readNow reads what f holds at once, without waiting (f is non-blocking).
func readNow(t *testing.T, f *os.File) []byte {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	n := 0
	rc.Read(func(fd uintptr) bool {
		if m, err := syscall.Read(int(fd), buf); err == nil {
			n = m
		}
		return true
	})
	return buf[:n]
}

// TestWriteBusyKeepsOrder: while the writer's goroutine holds what the kernel did
// not take, later writes queue behind it, never written past it; nothing is lost.
func TestWriteBusyKeepsOrder(t *testing.T) {
	w, end := slowPipe(t, 4<<20, 512) // the pipe fills, the writer queues
	chunk := strings.Repeat("0123456789abcdef", 4096/16)
	var want bytes.Buffer
	for i := range 100 { // 400 KiB: the pipe fills, the rest waits for the goroutine
		for _, b := range [][]byte{[]byte(chunk), {'K', byte('a' + i%26)}} {
			want.Write(b)
			if err := w.write(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	if b := end(); !bytes.Equal(b, want.Bytes()) {
		i := 0
		for i < min(len(b), want.Len()) && b[i] == want.Bytes()[i] {
			i++
		}
		t.Fatalf("read %d bytes, want %d; first difference at %d", len(b), want.Len(), i)
	}
}

// slowPipe is a writer of up to limit bytes queued into a pipe read buf bytes at a time,
// slower than a test's writes come; end closes its input once written out and
// returns everything read.
func slowPipe(t *testing.T, limit, buf int) (w *writer, end func() []byte) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	w = newWriter(pw, true, limit)
	got := make(chan []byte, 1)
	go func() {
		var b []byte
		p := make([]byte, buf)
		for {
			n, err := pr.Read(p)
			b = append(b, p[:n]...)
			if err != nil {
				got <- b
				return
			}
		}
	}()
	return w, func() []byte {
		t.Helper()
		if err := w.closeInput(); err != nil { // written out, then the pipe is closed
			t.Fatal(err)
		}
		select {
		case b := <-got:
			return b
		case <-time.After(waitLimit):
			t.Fatal("the input never reached its end")
			return nil
		}
	}
}

// TestWriteIdleGoesOutOnTheCallersPath: a write that finds nothing queued is in
// the kernel when Write returns, with no goroutine started for it: a typed key
// does not wait for one to be scheduled. So on a pipe, and on a PTY master.
func TestWriteIdleGoesOutOnTheCallersPath(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	w := newWriter(pw, true, 1<<20)
	defer w.stop()
	if !w.direct {
		t.Fatal("a pipe from os.Pipe is not taken for non-blocking")
	}
	for _, key := range []string{"a", "b", "\x1b[A"} {
		if err := w.write([]byte(key)); err != nil {
			t.Fatal(err)
		}
		running, queued := w.busy()
		if got := string(readNow(t, pr)); got != key || running || queued != 0 {
			t.Fatalf("after Write(%q): read at once %q, a goroutine started %v, %d queued; want it written at once", key, got, running, queued)
		}
	}

	r := startChild(t, Options{PTY: true}, "sleep")
	r.out.waitFor(t, Stdout, `ready sleep`)
	if !r.p.in.direct {
		t.Fatal("the PTY master is not taken for non-blocking")
	}
	if err := r.p.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if running, queued := r.p.in.busy(); running || queued != 0 {
		t.Fatalf("after a key into an idle PTY: a goroutine started %v, %d queued; want it written at once", running, queued)
	}
}

// busy reports whether the writer's goroutine runs and how many chunks are queued.
func (w *writer) busy() (running bool, queued int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.running != nil, len(w.queue)
}

// TestWriteManyWritersKeepOrder: keys from several goroutines and pastes beside
// them, into a pipe read slower than they come (so some go at once, some wait for
// the goroutine, some are split between the two): every write arrives whole, never
// cut into by another, and each writer's in the order it wrote them.
func TestWriteManyWritersKeepOrder(t *testing.T) {
	w, end := slowPipe(t, 64<<20, 300)
	const keyers, keys, pastes = 4, 3000, 60
	var wg sync.WaitGroup
	for k := range keyers {
		wg.Go(func() {
			for i := range keys {
				if err := w.write(fmt.Appendf(nil, "k%d.%d\n", k, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range pastes { // 1 KiB to 6 KiB: either side of directMax
			if err := w.write(fmt.Appendf(nil, "p.%d %s\n", i, strings.Repeat("x", 1024*(1+i%6)))); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	b := end()
	next := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for n, line := range lines {
		who, rest, ok := strings.Cut(line, ".")
		i, err := strconv.Atoi(strings.Fields(rest + " ")[0])
		if !ok || err != nil || (who == "p" && rest != fmt.Sprintf("%d %s", i, strings.Repeat("x", 1024*(1+i%6)))) {
			t.Fatalf("line %d is not one whole write: %.80q", n, line)
		}
		if i != next[who] {
			t.Fatalf("line %d: %s's write %d, want %d: out of order", n, who, i, next[who])
		}
		next[who]++
	}
	if want := keyers*keys + pastes; len(lines) != want {
		t.Fatalf("%d writes arrived, want %d", len(lines), want)
	}
}

// TestKeysToChildThatNeverReads: keys typed one by one into a PTY whose child never
// reads go at once until the kernel's buffer is full, then queue; none blocks the
// caller, nor does a write to another run meanwhile, and Close ends the writer
// blocked on it.
func TestKeysToChildThatNeverReads(t *testing.T) {
	stuck := startChild(t, Options{PTY: true, WriteQueue: 1 << 20}, "sleep")
	stuck.out.waitFor(t, Stdout, `ready sleep`)
	other := startRun(t, Options{PTY: true}, []string{"cat"}, nil)
	line := []byte(strings.Repeat("y", 31) + "\n")
	within(t, 10*time.Second, "keys into a full PTY", func() {
		for i := 0; ; i++ {
			if err := stuck.p.Write(line); err != nil {
				t.Fatalf("key %d: %v", i, err)
			}
			if running, queued := stuck.p.in.busy(); running && queued > 1 {
				break // the kernel took no more: the goroutine waits on it, keys queue
			}
			if i > 1<<16 {
				t.Fatal("the PTY took 2 MiB of lines from a child that never reads")
			}
		}
	})
	within(t, 5*time.Second, "a key to another run beside the full one", func() {
		if err := other.p.Write([]byte("other\n")); err != nil {
			t.Fatal(err)
		}
	})
	other.out.waitFor(t, Stdout, `other\r?\n.*other`)
	within(t, 5*time.Second, "Close of the full PTY", func() { stuck.p.Close() })
}
