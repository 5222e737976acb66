//go:build windows

package ptyhost

import (
	"os"
	"os/exec"
)

// Windows needs ConPTY for PTY runs and a Job Object per run for ownership (start
// suspended, assign, resume; CTRL_BREAK, then TerminateJobObject); until then both hosts refuse clearly.

func startPTY(*exec.Cmd, Options) (*Proc, error)  { return nil, ErrNotSupported }
func startPipe(*exec.Cmd, Options) (*Proc, error) { return nil, ErrNotSupported }
func setWinsize(*os.File, uint16, uint16) error   { return ErrNotSupported }
func getWinsize(*os.File) (uint16, uint16, error) { return 0, 0, ErrNotSupported }
func getPgrp(*os.File) (int, error)               { return 0, ErrNotSupported }

// hold: there is no host here, so nothing is ever held.
type hold struct{}

// Release has nothing to release without a host.
func (p *Proc) Release() error { return nil }

func (p *Proc) abortHold() {}
