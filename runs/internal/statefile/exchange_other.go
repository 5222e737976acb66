//go:build !linux

package statefile

import "errors"

// exchange has no single step here: swap renames instead.
func (d *Dir) exchange(a, b string) error {
	return errors.New("exchange: not on this system")
}
