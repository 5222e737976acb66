//go:build windows

package statefile

import (
	"errors"
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

func Open(path string) (*Dir, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return &Dir{path: path, f: f}, nil
}

func (d *Dir) Sub(name string) (*Dir, error) {
	if err := os.MkdirAll(d.Join(name), 0o700); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return d.Subdir(name)
}

func (d *Dir) Subdir(name string) (*Dir, error) {
	path := d.Join(name)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, symlinkDirError(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return &Dir{path: filepath.Clean(path), f: f}, nil
}

func (d *Dir) openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(d.Join(name), flag, perm)
}

func (d *Dir) Rename(name string, to *Dir, toName string) error {
	return os.Rename(d.Join(name), to.Join(toName))
}

func (d *Dir) Remove(name string) error { return os.Remove(d.Join(name)) }

func (d *Dir) Sync() error { return nil }

// fileID: Windows offers no inode through a directory handle here; a copy of a state
// dir is not told from its original there.
func (d *Dir) FileID() (dev, ino uint64, err error) { return 0, 0, nil }

// StampOf is the version of the open file f: its size and modification time.
func StampOf(f *os.File) (Stamp, error) {
	fi, err := f.Stat()
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}, nil
}

// changed is when the version st was made: its modification time (a record is
// always a new file, written once).
func (st Stamp) Changed() int64 { return st.Mtime }

// Version is not told on Windows (a directory's times say less there): every
// caller reads the directory as if it had changed.
func (d *Dir) Version() (Stamp, error) { return Stamp{}, errors.ErrUnsupported }

// Stamp is the version of the file name in d: its size and modification time.
func (d *Dir) Stamp(name string) (Stamp, error) {
	fi, err := os.Lstat(d.Join(name))
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}, nil
}
