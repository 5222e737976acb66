package runs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// stateDir is one directory of the state dir, held open while the registry (or a
// supervisor's log dir) is: every file in it is opened, renamed and removed relative to
// that handle, and every subdirectory is opened from it without following a symlink.
// A path, looked up again at each use, could be redirected by a link planted later:
// logs/, metrics/ and instances/ symlinked elsewhere received Corral's files, though
// each file was opened with O_NOFOLLOW (issue 23.3: O_NOFOLLOW guards only the last
// component of a path).
type stateDir struct {
	path string   // for messages, and for the paths shown to people (log files)
	f    *os.File // the directory itself
}

// join is name's path in d, for messages.
func (d *stateDir) join(name string) string { return filepath.Join(d.path, name) }

func (d *stateDir) close() error {
	if d == nil {
		return nil
	}
	return d.f.Close()
}

// open opens name in d: never through a symlink (a state dir someone else could write
// into must not redirect Corral's writes, issue 15 item 3), never blocking (a FIFO
// planted in runs/ hung `corral ls` forever while it held registry.lock, item 4), and
// only a regular file.
func (d *stateDir) open(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := d.openFile(name, flag|oNoFollow|oNonBlock, perm)
	if err != nil {
		if isLinkLoop(err) {
			return nil, fmt.Errorf("%w: %s is a symbolic link; refusing to follow it", ErrNotRegular, d.join(name))
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w: %s is %s", ErrNotRegular, d.join(name), kindOf(st.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// replace writes b as name in d atomically: to the temp file tmp first (whatever is in
// its place removed, then created with O_EXCL, so a planted file or link is replaced,
// never written through), synced when durable, then renamed over name. A failure
// leaves name as it was and no temp file.
func (d *stateDir) replace(name, tmp string, b []byte, durable bool) error {
	d.remove(tmp)
	f, err := d.open(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(b); err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.rename(tmp, d, name)
	}
	if err != nil {
		d.remove(tmp)
	}
	return err
}

// swap writes b as name in d, as replace does — a reader of name finds the old bytes
// or the new, whole, and a failure leaves name as it was — without making a new file
// each time: b is written into spare, which then trades places with name in one rename
// (exchange), so name's old file is the next write's spare. For a small file rewritten
// every few seconds (the instance's lease): creating its temp file, a new inode each
// time, was a fifth of an idle server's CPU on ext4. Where there is no exchange (not
// Linux, a file system without it) or no name yet, spare is renamed over name. b is
// written over spare's bytes, not after truncating it: freeing its block (which a
// file system mounted with discard trims, waiting for the disk) and allocating one
// again cost more than the write; spare is cut to len(b) only when it was longer
// (the caller keeps b one length: the lease is padded).
func (d *stateDir) swap(name, spare string, b []byte) error {
	f, err := d.open(spare, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return d.replace(name, spare, b, false) // whatever is in spare's place goes
	}
	_, err = f.Write(b)
	if st, serr := f.Stat(); err == nil && (serr != nil || st.Size() > int64(len(b))) {
		err = f.Truncate(int64(len(b)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && d.exchange(spare, name) != nil {
		err = d.rename(spare, d, name)
	}
	if err != nil {
		d.remove(spare)
	}
	return err
}

// read reads the regular file name in d whole, refusing one larger than limit
// (ErrTooLarge) rather than reading it.
func (d *stateDir) read(name string, limit int64) ([]byte, error) {
	f, err := d.open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, d.join(name), limit)
	}
	return b, nil
}

// readStamped is read, with the version of the file the bytes were read from: both
// from one open file, so they always belong together.
func (d *stateDir) readStamped(name string, limit int64) ([]byte, fileStamp, error) {
	f, err := d.open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, fileStamp{}, err
	}
	defer f.Close()
	st, err := stampOf(f)
	if err != nil {
		return nil, fileStamp{}, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fileStamp{}, err
	}
	if int64(len(b)) > limit {
		return nil, fileStamp{}, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, d.join(name), limit)
	}
	return b, st, nil
}

// names lists the entries of d, sorted.
func (d *stateDir) names() ([]string, error) {
	dup, err := d.subdir(".")
	if err != nil {
		return nil, err
	}
	defer dup.close()
	names, err := dup.f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.path, err)
	}
	slices.Sort(names)
	return names, nil
}

// symlinkDirError is the one error a linked directory of the state dir gets: at
// once, naming it (issue 23.3: corral run spent 11 s before "spawn-error").
func symlinkDirError(path string) error {
	return fmt.Errorf("%w: %s (Corral follows no link inside its state dir: remove the link, "+
		"or point --state-dir at the directory it names)", ErrSymlinkDir, path)
}
