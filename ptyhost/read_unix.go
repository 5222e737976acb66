//go:build !windows

package ptyhost

import (
	"io"
	"os"
	"syscall"
)

// readChunk reads once from f and hands what it read to use. The wait for output
// is the netpoller's and holds no buffer: one is taken from readBufs once f is
// readable and given back after use, so a thousand idle runs hold none instead of
// 32 KiB each. It returns the read's end: io.EOF on a pipe, EIO on a Linux PTY
// master once the slave is gone, or the deadline or close that forced it.
func readChunk(f *os.File, use func([]byte)) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var (
		n    int
		rerr error
		bp   *[]byte
	)
	err = rc.Read(func(fd uintptr) bool {
		bp = readBufs.Get().(*[]byte)
		for {
			n, rerr = syscall.Read(int(fd), *bp)
			if rerr != syscall.EINTR {
				break
			}
		}
		if rerr == syscall.EAGAIN {
			readBufs.Put(bp)
			bp = nil
			return false // not readable yet: wait in the netpoller
		}
		return true
	})
	if bp != nil {
		defer readBufs.Put(bp)
	}
	switch {
	case err != nil:
		return err
	case rerr != nil:
		return rerr
	case n <= 0:
		return io.EOF
	}
	use((*bp)[:n])
	return nil
}
