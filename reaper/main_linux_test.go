package reaper_test

import (
	"testing"

	"corral/demo/testkit"
)

// TestMain is testkit's, with this binary the subreaper: orphans of the tests'
// children (a tree's lower levels once their parent is reaped, the escapee of a double
// fork) reparent to it, not to PID 1, which reaps slowly here; the tests reap them by
// exact pid and leave nothing behind. It is in an external test package because
// testkit imports reaper (reaper's internal tests cannot import testkit).
func TestMain(m *testing.M) { testkit.Main(m, testkit.Subreaper()) }
