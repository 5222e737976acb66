package ui

import (
	"corral/ui/runlist"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Configured runs not started yet (corral.toml [[run]]s with autostart = false) are a
// UI matter, not a supervisor state: the supervisor has never heard of them. Each is a
// row of the run list after the runs, in config order, with its spec in the details
// pane. The start key (the restart action) spawns its spec the way a restart does; the
// run that spawn makes replaces the row when it appears, and from then on it is a run
// like any other (R restarts it once it has ended). Its row is the run list's
// (runlist.Pending).

// notForPending are the actions that need a process; on a pending run they only say so.
var notForPending = []string{"focus", "send_keys", "paste", "submit", "search", "scrollback",
	"cancel", "interrupt", "pause", "remove"}

// pendingNotice says why a key that needs a process does nothing on a pending run;
// false for the other keys.
func (k KeyMap) pendingNotice(msg tea.KeyPressMsg, p runlist.Pending) (string, bool) {
	for _, a := range k.actions() {
		if key.Matches(msg, *a.b) && slices.Contains(notForPending, a.name) {
			return fmt.Sprintf("%s: %s has not started; %s starts it", strings.ReplaceAll(a.name, "_", "-"),
				p.Spec.Name, k.Restart.Help().Key), true
		}
	}
	return "", false
}
