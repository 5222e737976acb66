package runs

import "fmt"

// recordCap bounds a record read from disk. A record is a few KiB; a file much
// larger is not one, and reading it whole would let a planted runs/x.json ->
// /dev/zero grow Corral without bound (3 GB in 6 s).
const recordCap = 1 << 20

// checkID accepts the ids Corral makes ("r"/"i" and hex) and any other short name of
// letters, digits, '-' and '_': nothing that can name another directory.
func checkID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("%w: %q", ErrBadID, id)
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("%w: %q", ErrBadID, id)
		}
	}
	return nil
}
