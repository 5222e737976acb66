//go:build !windows

package config

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

func owner(fi os.FileInfo) int { return int(fi.Sys().(*syscall.Stat_t).Uid) }

// checkCreateInto refuses to create dir inside a directory others control: the
// nearest existing ancestor must be ours or root's, and writable by no group or other
// user unless its sticky bit is set (root's /tmp: the bit keeps others from renaming
// or replacing what we create there). Whoever can write into it could swap the new
// state dir for a link or a directory of their own between its creation and its use.
func checkCreateInto(dir string) error {
	uid := os.Getuid()
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err == nil {
			if p == dir {
				return nil // it exists: checkOwned judges it
			}
			if o := owner(fi); o != uid && o != 0 {
				return fmt.Errorf("%w: %s would be created in %s, owned by uid %d (you are uid %d)",
					ErrForeignStateDir, dir, p, o, uid)
			}
			if m := fi.Mode(); m.Perm()&0o022 != 0 && m&os.ModeSticky == 0 {
				return fmt.Errorf("%w: %s would be created in %s (mode %v): chmod go-w %s, or choose "+
					"another --state-dir", ErrUnsafeStateDirParent, dir, p, m.Perm(), p)
			}
			return nil
		}
		if !os.IsNotExist(err) || filepath.Dir(p) == p {
			return nil // MkdirAll reports it
		}
	}
}

// checkOwned refuses a state dir that is not a directory owned by the current uid,
// or is reached through a symlink someone else owns.
func checkOwned(dir string) error {
	uid := os.Getuid()
	lfi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	if lfi.Mode()&os.ModeSymlink != 0 && owner(lfi) != uid {
		return fmt.Errorf("%w: %s is a symlink owned by uid %d (you are uid %d)", ErrForeignStateDir, dir, owner(lfi), uid)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("state dir %s: not a directory", dir)
	}
	if o := owner(fi); o != uid {
		return fmt.Errorf("%w: %s is owned by uid %d (you are uid %d)", ErrForeignStateDir, dir, o, uid)
	}
	return nil
}
