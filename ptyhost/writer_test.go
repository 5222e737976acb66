//go:build linux

package ptyhost

import (
	"bytes"
	"os"
	"strings"
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
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	w := newWriter(pw, true, 4<<20)
	got := make(chan []byte, 1)
	go func() { // read slower than the writes come: the pipe fills, the writer queues
		var b []byte
		buf := make([]byte, 512)
		for {
			n, err := pr.Read(buf)
			b = append(b, buf[:n]...)
			if err != nil {
				got <- b
				return
			}
		}
	}()
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
	if err := w.closeInput(); err != nil { // written out, then the pipe is closed
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want.Bytes()) {
			i := 0
			for i < min(len(b), want.Len()) && b[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("read %d bytes, want %d; first difference at %d", len(b), want.Len(), i)
		}
	case <-time.After(waitLimit):
		t.Fatal("the input never reached its end")
	}
}
