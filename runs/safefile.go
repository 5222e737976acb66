package runs

import (
	"fmt"
	"io"
	"os"
)

// recordCap bounds a record read from disk. A record is a few KiB; a file much
// larger is not one, and reading it whole would let a planted runs/x.json ->
// /dev/zero grow Corral without bound (issue 15 item 4: 3 GB in 6 s).
const recordCap = 1 << 20

// openState opens a file in the state directory: never through a symlink (a state
// dir someone else can write into must not redirect Corral's writes, issue 15 item
// 3), never blocking (a FIFO planted in runs/ hung `corral ls` forever while it held
// registry.lock, item 4), and only a regular file.
func openState(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|oNoFollow|oNonBlock, perm)
	if err != nil {
		if isLinkLoop(err) {
			return nil, fmt.Errorf("%w: %s is a symbolic link; refusing to follow it", ErrNotRegular, path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w: %s is %s", ErrNotRegular, path, kindOf(st.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readState reads a regular file of the state directory whole, refusing one larger
// than limit (ErrTooLarge) rather than reading it.
func readState(path string, limit int64) ([]byte, error) {
	f, err := openState(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, path, limit)
	}
	return b, nil
}

// checkID accepts the ids Corral makes ("r"/"i" and hex) and any other short name of
// letters, digits, '-' and '_': nothing that can name another directory.
func checkID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("%w: %q", ErrBadID, id)
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("%w: %q", ErrBadID, id)
		}
	}
	return nil
}

// kindOf names a file type for an error message.
func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file (" + m.Type().String() + ")"
}
