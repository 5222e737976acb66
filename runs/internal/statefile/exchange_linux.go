package statefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files a and b of d in one step (renameat2 RENAME_EXCHANGE):
// each name always names a whole file. Both must exist.
func (d *Dir) exchange(a, b string) error {
	fd := int(d.f.Fd())
	if err := unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE); err != nil {
		return &os.LinkError{Op: "exchange", Old: d.Join(a), New: d.Join(b), Err: err}
	}
	return nil
}
