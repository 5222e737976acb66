//go:build windows

package runs

import (
	"fmt"
	"os"
	"path/filepath"
)

// Windows has neither flag, nor the *at calls: the state dir lives in the user's
// profile there, and its directories are reached by path.
const (
	oNoFollow = 0
	oNonBlock = 0
)

func isLinkLoop(error) bool { return false }

func openStateRoot(path string) (*stateDir, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return &stateDir{path: path, f: f}, nil
}

func (d *stateDir) sub(name string) (*stateDir, error) {
	if err := os.MkdirAll(d.join(name), 0o700); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return d.subdir(name)
}

func (d *stateDir) subdir(name string) (*stateDir, error) {
	path := d.join(name)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, symlinkDirError(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return &stateDir{path: filepath.Clean(path), f: f}, nil
}

func (d *stateDir) openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(d.join(name), flag, perm)
}

func (d *stateDir) rename(name string, to *stateDir, toName string) error {
	return os.Rename(d.join(name), to.join(toName))
}

func (d *stateDir) remove(name string) error { return os.Remove(d.join(name)) }

func (d *stateDir) sync() error { return nil }

// fileID: Windows offers no inode through a directory handle here; a copy of a state
// dir is not told from its original there.
func (d *stateDir) fileID() (dev, ino uint64, err error) { return 0, 0, nil }

// stampOf is the version of the open file f: its size and modification time.
func stampOf(f *os.File) (fileStamp, error) {
	fi, err := f.Stat()
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}, nil
}

// changed is when the version st was made: its modification time (a record is
// always a new file, written once).
func (st fileStamp) changed() int64 { return st.mtime }

// stamp is the version of the file name in d: its size and modification time.
func (d *stateDir) stamp(name string) (fileStamp, error) {
	fi, err := os.Lstat(d.join(name))
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}, nil
}
