//go:build !windows

package statefile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"corral/config"
)

const (
	oNoFollow = unix.O_NOFOLLOW
	oNonBlock = unix.O_NONBLOCK
)

// isLinkLoop: O_NOFOLLOW met a symlink as the last component.
func isLinkLoop(err error) bool { return errors.Is(err, unix.ELOOP) }

// Open opens the state dir itself, which config.EnsureStateDir has created
// and checked. It may be a link the user made and owns (config allows that); what it
// opens must still be a directory of the user's, checked on the handle itself.
func Open(path string) (*Dir, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	d := &Dir{path: path, f: f}
	if _, err := d.checkOwned(); err != nil {
		f.Close()
		return nil, err
	}
	return d, nil
}

// sub opens the directory name inside d, creating it (mode 0700) if missing, never
// through a symlink; it must be the user's own, and is tightened to 0700.
func (d *Dir) Sub(name string) (*Dir, error) {
	if err := unix.Mkdirat(int(d.f.Fd()), name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
		return nil, fmt.Errorf("state dir: mkdir %s: %w", d.Join(name), err)
	}
	s, err := d.Subdir(name)
	if err != nil {
		return nil, err
	}
	mode, err := s.checkOwned()
	if err != nil {
		s.Close()
		return nil, err
	}
	if mode&0o7777 == 0o700 {
		// Already tight: a chmod would change nothing but the directory's change
		// time, which tells a listing that runs/ changed (every corral that opened
		// the registry made the server's next ls read the directory again).
		return s, nil
	}
	if err := s.f.Chmod(0o700); err != nil {
		s.Close()
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return s, nil
}

// subdir opens the existing directory name inside d without following a symlink:
// O_NOFOLLOW|O_DIRECTORY fails with ELOOP on a link (or ENOTDIR on a link to a file,
// on some kernels), which is told as symlinkDirError.
func (d *Dir) Subdir(name string) (*Dir, error) {
	fd, err := openat(d, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err == nil {
		return &Dir{path: d.Join(name), f: os.NewFile(uintptr(fd), d.Join(name))}, nil
	}
	var st unix.Stat_t
	if unix.Fstatat(int(d.f.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return nil, symlinkDirError(d.Join(name))
	}
	return nil, fmt.Errorf("state dir: open %s: %w", d.Join(name), err)
}

// checkOwned refuses a directory another user owns: they could plant links and records
// a root Corral would act on (config.ErrForeignStateDir).
// It returns the directory's mode bits as stated.
func (d *Dir) checkOwned() (uint32, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(d.f.Fd()), &st); err != nil {
		return 0, fmt.Errorf("state dir: stat %s: %w", d.path, err)
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return 0, fmt.Errorf("%w: %s is owned by uid %d (you are uid %d)", config.ErrForeignStateDir, d.path, st.Uid, uid)
	}
	return uint32(st.Mode), nil
}

// openFile is openat(2) relative to d, close-on-exec.
func (d *Dir) openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := openat(d, name, flag, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: d.Join(name), Err: err}
	}
	return os.NewFile(uintptr(fd), d.Join(name)), nil
}

func openat(d *Dir, name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(int(d.f.Fd()), name, flag|unix.O_CLOEXEC, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// rename moves name in d to toName in to (renameat(2): neither directory is looked up
// by path again).
func (d *Dir) Rename(name string, to *Dir, toName string) error {
	if err := unix.Renameat(int(d.f.Fd()), name, int(to.f.Fd()), toName); err != nil {
		return &os.LinkError{Op: "rename", Old: d.Join(name), New: to.Join(toName), Err: err}
	}
	return nil
}

// remove unlinks the file name in d; one already gone wraps os.ErrNotExist.
func (d *Dir) Remove(name string) error {
	if err := unix.Unlinkat(int(d.f.Fd()), name, 0); err != nil {
		return &os.PathError{Op: "remove", Path: d.Join(name), Err: err}
	}
	return nil
}

// sync makes the renames into d durable.
func (d *Dir) Sync() error { return d.f.Sync() }

// fileID is the directory's device and inode: what tells the directory an identity
// file was made in from a copy of it.
func (d *Dir) FileID() (dev, ino uint64, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(d.f.Fd()), &st); err != nil {
		return 0, 0, fmt.Errorf("stat %s: %w", d.path, err)
	}
	return uint64(st.Dev), st.Ino, nil
}

// stamp is the version of the file name in d (not followed if a link).
func (d *Dir) Stamp(name string) (Stamp, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(d.f.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Stamp{}, &os.PathError{Op: "stat", Path: d.Join(name), Err: err}
	}
	return stampOfStat(&st), nil
}

// Version is the directory's own stamp: a name made, removed or renamed in it (a
// file replaced by a rename) gives the directory a new change time. A file written
// in place does not.
func (d *Dir) Version() (Stamp, error) { return StampOf(d.f) }

func stampOfStat(st *unix.Stat_t) Stamp {
	return Stamp{Ino: int64(st.Ino), Size: st.Size, Mtime: unix.TimespecToNsec(st.Mtim),
		Ctime: unix.TimespecToNsec(st.Ctim)}
}

// StampOf is the version of the open file f: the one whose bytes are read from it.
func StampOf(f *os.File) (Stamp, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return Stamp{}, &os.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	return stampOfStat(&st), nil
}

// changed is when the version st was made, as the kernel's clock said: its change
// time, which no one can set back.
func (st Stamp) Changed() int64 { return st.Ctime }
