//go:build !windows && !linux

package ptyhost

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
