//go:build !linux

package client

import "os/exec"

// endWithParent: only Linux can have the kernel end a child with its parent; elsewhere
// ssh ends when its input does (its parent's end of the pipe closes as it dies).
func endWithParent(*exec.Cmd) {}
