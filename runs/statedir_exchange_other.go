//go:build !linux

package runs

import "errors"

// exchange has no single step here: swap renames instead.
func (d *stateDir) exchange(a, b string) error {
	return errors.New("exchange: not on this system")
}
