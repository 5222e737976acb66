//go:build !linux

package runs

import "corral/reaper"

// Elsewhere no /proc tells the foreground program: the command alone decides.
const fgSupported = false

func fgMembers(*reaper.Cgroup, int, int) []fgProc { return nil }
func fgAlive(int, uint64) bool                    { return false }
func fgProcs(*reaper.Cgroup) string               { return "" }
func fgNames([]int) string                        { return "" }
