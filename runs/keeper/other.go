//go:build !linux

package keeper

import (
	"errors"
	"log/slog"
	"os"
	"syscall"
	"time"
)

// Without Linux's child subreaper and its wait statuses there is no keeper: a server
// started here ends its runs when it ends.

// ErrNotSupported: no keeper on this system.
var ErrNotSupported = errors.New("keeper: not supported on this system")

// ErrRunning: the state dir has a keeper already.
var ErrRunning = errors.New("keeper: the state dir has a keeper already")

// EnvFD names the variable that tells a server which descriptor is its keeper's.
const EnvFD = "CORRAL_KEEPER_FD"

// Options are the keeper process's.
type Options struct {
	StateDir string
	Exe      string
	Args     []string
	Log      *slog.Logger
	Stderr   *os.File
	Pending  func() bool
}

// Supported: this system has no keepers.
const Supported = false

// Started is always false here.
func Started() bool { return false }

// Serve is not supported here.
func Serve(Options) error { return ErrNotSupported }

// Client is never made here.
type Client struct{}

// Run is a kept run.
type Run struct {
	ID     string
	PID    int
	PTY    bool
	Files  []*os.File
	Output [2][]byte
	Exit   *Exit
}

// Exit is a kept run's exit.
type Exit struct{}

// Done is never closed here.
func (e *Exit) Done() <-chan struct{} { return nil }

// Status is never known here.
func (e *Exit) Status() (ws syscall.WaitStatus, ok bool) { return ws, false }

// FromEnv finds no keeper here.
func FromEnv() (*Client, error) { return nil, nil }

func (k *Client) Recover() ([]Run, error)                   { return nil, ErrNotSupported }
func (k *Client) Gone() <-chan struct{}                     { return nil }
func (k *Client) Keep(string, int, bool, ...*os.File) error { return ErrNotSupported }
func (k *Client) Drop(string) error                         { return ErrNotSupported }
func (k *Client) CloseInput(string) error                   { return ErrNotSupported }
func (k *Client) Handover(string) error                     { return ErrNotSupported }
func (k *Client) Fail(error) error                          { return ErrNotSupported }

// Status is what a keeper says of its servers; there is none here.
type Status struct {
	PID       int
	Failures  int
	LastError string
	Since     time.Time
}

// Find finds no keeper here.
func Find(string) (Status, bool) { return Status{}, false }

// FailLimit is how many servers in a row must fail to come up before a keeper is
// reported as unable to start one.
const FailLimit = 3
