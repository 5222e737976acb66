//go:build !linux

package reaper

import (
	"context"
	"time"
)

// Cgroups are Linux's; elsewhere runs are owned by their sessions (and, on Windows,
// will be by Job Objects).

// Cgroup is one run's control group (Linux only).
type Cgroup struct{ Path string }

// CgroupBase is where runs' cgroups are made: nowhere here.
type CgroupBase struct{ Dir, Reason string }

// CgroupOff is the configured root that turns the cgroup backend off.
const CgroupOff = "off"

// FindCgroupBase finds none: cgroups are Linux's.
func FindCgroupBase(string) CgroupBase {
	return CgroupBase{Reason: "sessions: cgroups are Linux's"}
}

func NewCgroup(base, name string) (*Cgroup, error)        { return nil, ErrNotSupported }
func SweepCgroups(string, time.Duration) int              { return 0 }
func OpenCgroup(base, name, path string) (*Cgroup, error) { return nil, ErrNotSupported }
func CgroupOf(pid int) (string, error)                    { return "", ErrNotSupported }
func (c *Cgroup) FD() (int, error)                        { return -1, ErrNotSupported }
func (c *Cgroup) Procs() ([]int, error)                   { return nil, ErrNotSupported }
func (c *Cgroup) CPU() (time.Duration, error)             { return 0, ErrNotSupported }
func (c *Cgroup) Close()                                  {}
func (c *Cgroup) Contains(string) bool                    { return false }
func (c *Cgroup) Gone() bool                              { return false }
func IsGone(error) bool                                   { return false }
func (c *Cgroup) Populated() (bool, error)                { return false, ErrNotSupported }
func (c *Cgroup) Frozen() (bool, error)                   { return false, ErrNotSupported }
func (c *Cgroup) Kill() error                             { return ErrNotSupported }
func (c *Cgroup) Take(int) error                          { return ErrNotSupported }
func (c *Cgroup) Owner() (int, error)                     { return -1, ErrNotSupported }
func (c *Cgroup) SetFrozen(bool, time.Duration) error     { return ErrNotSupported }
func (c *Cgroup) Remove() error                           { return ErrNotSupported }
func (c *Cgroup) AwaitEmpty(context.Context, time.Time) bool {
	return false
}
func (c *Cgroup) Usage() (time.Duration, int64, error) { return 0, -1, ErrNotSupported }

// UsageKept is Usage.
func (c *Cgroup) UsageKept() (time.Duration, int64, error) { return c.Usage() }
