// Package statefile is the file side of Corral's state dir, below the supervisor: a
// directory held open (Dir) whose files are opened, replaced, renamed and locked
// relative to that handle and never through a symbolic link; the bounded files a run
// writes there (its transcript and its asciicast recording); and the rotating append
// log the event log is written to. Nothing here knows a run, a supervisor or a
// registry: it knows files.
package statefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

var (
	// ErrNotRegular: a state-dir file that is a FIFO, device, directory, …; never read.
	ErrNotRegular = errors.New("not a regular file")
	// ErrSymlinkDir: a directory of the state dir (runs/, logs/, …) is a symbolic
	// link; Corral follows none inside its state dir (a link planted there would
	// receive its files).
	ErrSymlinkDir = errors.New("a directory of the state dir is a symbolic link")
	// ErrTooLarge: a state-dir file over its size cap; never read whole.
	ErrTooLarge = errors.New("file too large")
)

// Dir is one directory of the state dir, held open while the registry (or a
// supervisor's log dir) is: every file in it is opened, renamed and removed relative to
// that handle, and every subdirectory is opened from it without following a symlink.
// A path, looked up again at each use, could be redirected by a link planted later:
// logs/, metrics/ and instances/ symlinked elsewhere received Corral's files, though
// each file was opened with O_NOFOLLOW (which guards only the last component of a
// path).
type Dir struct {
	path string   // for messages, and for the paths shown to people (log files)
	f    *os.File // the directory itself
}

// join is name's path in d, for messages.
func (d *Dir) Join(name string) string { return filepath.Join(d.path, name) }

// Path is the directory's path, as it was opened: for messages, and for the paths
// shown to people (log files).
func (d *Dir) Path() string { return d.path }

func (d *Dir) Close() error {
	if d == nil {
		return nil
	}
	return d.f.Close()
}

// open opens name in d: never through a symlink (a state dir someone else could write
// into must not redirect Corral's writes), never blocking (a FIFO planted in runs/
// hung `corral ls` forever while it held registry.lock), and only a regular file.
func (d *Dir) Open(name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := d.openFile(name, flag|oNoFollow|oNonBlock, perm)
	if err != nil {
		if isLinkLoop(err) {
			return nil, fmt.Errorf("%w: %s is a symbolic link; refusing to follow it", ErrNotRegular, d.Join(name))
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%w: %s is %s", ErrNotRegular, d.Join(name), kindOf(st.Mode()))
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
func (d *Dir) Replace(name, tmp string, b []byte, durable bool) error {
	d.Remove(tmp)
	f, err := d.Open(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
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
		err = d.Rename(tmp, d, name)
	}
	if err != nil {
		d.Remove(tmp)
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
func (d *Dir) Swap(name, spare string, b []byte) error {
	f, err := d.Open(spare, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return d.Replace(name, spare, b, false) // whatever is in spare's place goes
	}
	_, err = f.Write(b)
	if st, serr := f.Stat(); err == nil && (serr != nil || st.Size() > int64(len(b))) {
		err = f.Truncate(int64(len(b)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && d.exchange(spare, name) != nil {
		err = d.Rename(spare, d, name)
	}
	if err != nil {
		d.Remove(spare)
	}
	return err
}

// read reads the regular file name in d whole, refusing one larger than limit
// (ErrTooLarge) rather than reading it.
func (d *Dir) Read(name string, limit int64) ([]byte, error) {
	f, err := d.Open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, d.Join(name), limit)
	}
	return b, nil
}

// readStamped is read, with the version of the file the bytes were read from: both
// from one open file, so they always belong together.
func (d *Dir) ReadStamped(name string, limit int64) ([]byte, Stamp, error) {
	f, err := d.Open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, Stamp{}, err
	}
	defer f.Close()
	st, err := StampOf(f)
	if err != nil {
		return nil, Stamp{}, err
	}
	// Read into a buffer of the size the stamp says (and room to see it grew): a
	// shutdown reads a thousand records, and io.ReadAll's doublings were most of
	// what their reads allocated.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(st.Size, 0), limit)+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, Stamp{}, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, Stamp{}, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, d.Join(name), limit)
	}
	return b, st, nil
}

// names lists the entries of d, sorted.
func (d *Dir) Names() ([]string, error) {
	dup, err := d.Subdir(".")
	if err != nil {
		return nil, err
	}
	defer dup.Close()
	names, err := dup.f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.path, err)
	}
	slices.Sort(names)
	return names, nil
}

// symlinkDirError is the one error a linked directory of the state dir gets: at
// once, naming it (corral run spent 11 s in retries before "spawn-error" when the
// error came only at the first record).
func symlinkDirError(path string) error {
	return fmt.Errorf("%w: %s (Corral follows no link inside its state dir: remove the link, "+
		"or point --state-dir at the directory it names)", ErrSymlinkDir, path)
}

// Stamp tells one version of a file from another: a rewrite is a new inode, a new
// change time, or both. Mtime and Ctime are in nanoseconds.
type Stamp struct {
	Ino, Size    int64
	Mtime, Ctime int64
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
