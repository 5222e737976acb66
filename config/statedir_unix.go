//go:build !windows

package config

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

func owner(fi os.FileInfo) int { return int(fi.Sys().(*syscall.Stat_t).Uid) }

// checkCreateInto refuses to create dir inside a directory another user owns: the
// nearest existing ancestor must be ours or root's (root owns /tmp, whose sticky bit
// keeps others from replacing what we create there).
func checkCreateInto(dir string) error {
	uid := os.Getuid()
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err == nil {
			if o := owner(fi); p != dir && o != uid && o != 0 {
				return fmt.Errorf("%w: %s would be created in %s, owned by uid %d (you are uid %d)",
					ErrForeignStateDir, dir, p, o, uid)
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
