package ptyhost

import "golang.org/x/sys/unix"

const ioctlSetTermios = unix.TCSETS
