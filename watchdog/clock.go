package watchdog

import "time"

// Clock lets tests drive time.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is the part of *time.Timer the watchdog needs.
type Timer interface{ Stop() bool }

// RealClock returns a Clock backed by the time package.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
