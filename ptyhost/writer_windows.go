package ptyhost

import "os"

// nonblocking: a write on the caller's path is not tried on Windows; the writer's
// goroutine writes everything.
func nonblocking(*os.File) bool { return false }

// tryWrite is never called on Windows (nonblocking is false).
func tryWrite(*os.File, []byte) int { return 0 }
