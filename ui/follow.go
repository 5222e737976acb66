package ui

import (
	"time"

	"corral/runs"
)

// The selection follows a new run. A run this UI started (the new-run form, a start,
// a restart, the run of corral -- CMD) is selected when it is listed
// (requests.arrived), whatever the user does meanwhile: they asked for it. A run
// spawned elsewhere (corral spawn from a script or an agent, another UI) is selected
// only when that takes nothing from the user:
//   - keys go to the run list (browsing): never in focus, where the keys typed next
//     would go to the new run, nor in scroll mode, a dialog, the filter being typed or
//     help;
//   - the filter shows it;
//   - nobody pressed a key, pasted or used the mouse for followQuiet, and no other
//     spawned run was followed for as long: a script that spawns fifty runs moves the
//     selection once, to the first, and a run the user just picked stays picked.

// followQuiet is how long the user must have left the UI alone, and how long after a
// follow, before a run spawned elsewhere takes the selection.
const followQuiet = 10 * time.Second

// follower remembers when the user last touched the UI and when the selection last
// followed a spawned run.
type follower struct {
	input, followed time.Time
}

// touched notes the user's key, paste or mouse event at now.
func (f *follower) touched(now time.Time) { f.input = now }

// quiet reports whether, at now, a spawned run may take the selection.
func (f follower) quiet(now time.Time) bool {
	return now.Sub(f.input) >= followQuiet && now.Sub(f.followed) >= followQuiet
}

// followSpawn selects a run spawned elsewhere that has just been listed, when the
// rules above allow it, and reports whether it did.
func (m *Model) followSpawn(ev runs.Event) bool {
	if ev.Type != runs.EventSpawn || ev.Run.Adopted || m.mode != modeBrowse ||
		!m.list.Matches(ev.Run.ID) || !m.follow.quiet(m.now) {
		return false
	}
	m.list.Select(ev.Run.ID)
	m.follow.followed = m.now
	return true
}
