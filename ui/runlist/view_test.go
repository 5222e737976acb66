package runlist

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/internal/uitest"
	"corral/watchdog"
)

var (
	t0                = uitest.T0
	liveRun, endedRun = uitest.LiveRun, uitest.EndedRun
	goldenView        = uitest.GoldenView
)

// filterKeys are the dialogs' accept and dismiss, as the root's defaults bind them.
var filterKeys = struct{ accept, dismiss key.Binding }{common.Bind("accept", "enter"), common.Bind("cancel", "esc")}

// newList is a list of rs with the default keys, on the tests' clock.
func newList(rs []runs.Info) List {
	keys := DefaultKeyMap()
	c := common.New(func() time.Time { return t0 })
	return New(c, &keys, FilterKeys{Accept: &filterKeys.accept, Dismiss: &filterKeys.dismiss}, rs)
}

// listRuns covers every kind of row: live with a countdown, paused, warning, cancelled,
// clean exit, escapes and adoption, and a name with control characters.
func listRuns() []runs.Info {
	paused := liveRun("r2", "paused-agent", true)
	paused.Paused, paused.Watchdog.Frozen = true, true
	paused.Watchdog.NoOutput = watchdog.Deadline{Armed: true, Span: 5 * time.Minute, Left: 3 * time.Minute}
	warn := liveRun("r3", "quiet", false)
	warn.Watchdog.NoOutput.At = t0.Add(20 * time.Second)
	done := endedRun("r5", "done")
	done.Reason, done.Signal, done.ExitCode = runs.Exit, 0, new(int)
	esc := liveRun("r6", "escapist", true)
	esc.Escapees, esc.Adopted = 2, true
	evil := liveRun("r7", "evil\x1b]0;pwned\x07name", true)
	return []runs.Info{liveRun("r1", "claude", true), paused, warn, endedRun("r4", "cancelled"), done, esc, evil}
}

func TestRunListGolden(t *testing.T) {
	l := newList(listRuns())
	l.SetNow(t0)
	l.SetSize(72, 10)
	l.SetAttention("r4", true)
	l.SetAttention("r1", true) // selected: never marked
	goldenView(t, "runlist", l.View(), 72)
	l.SetSize(40, 6)
	l.Select("r5")
	goldenView(t, "runlist_narrow", l.View(), 40)
}

func TestRunListCountdownTicks(t *testing.T) {
	l := newList([]runs.Info{liveRun("r1", "a", true)})
	l.SetSize(72, 4)
	l.SetNow(t0)
	if v := ansi.Strip(l.View()); !strings.Contains(v, "⏱ 0:50") {
		t.Fatalf("want the no-output countdown 0:50:\n%s", v)
	}
	l.SetNow(t0.Add(11 * time.Second))
	if v := ansi.Strip(l.View()); !strings.Contains(v, "⏱ 0:39") {
		t.Fatalf("the countdown did not tick:\n%s", v)
	}
}

func TestRunListAgentsGolden(t *testing.T) {
	l := newList(uitest.SixAgents())
	l.SetNow(t0)
	l.SetSize(72, 9)
	l.SetAttention("r4", true)
	goldenView(t, "runlist_agents", l.View(), 72)
}

func TestPendingRunListGolden(t *testing.T) {
	l := newList([]runs.Info{liveRun("r1", "claude", true), endedRun("r2", "tests")})
	l.SetNotStarted(uitest.PendingSpecs())
	l.SetNow(t0)
	l.SetSize(72, 6)
	l.SetStarting("pending/1", true)
	l.Select("pending/0")
	goldenView(t, "runlist_pending", l.View(), 72)
	l.SetSize(40, 6)
	goldenView(t, "runlist_pending_narrow", l.View(), 40)
}
