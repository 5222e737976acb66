package ptyhost

import "os"

// LineMode is not known without a PTY host.
func LineMode(*os.File) (bool, error) { return false, ErrNotSupported }
