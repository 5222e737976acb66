//go:build !linux

package runs

import "corral/reaper"

// Elsewhere no /proc tells the foreground program: the command alone decides.
const fgSupported = false

func fgMembers(*reaper.Cgroup, int, int) []fgProc { return nil }
func fgAlive(int, uint64) bool                    { return false }
func fgLastPID() int                              { return 0 }
func fgNames([]int) string                        { return "" }
