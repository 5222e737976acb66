package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/dialog"
)

// Keys that must not act by accident. Outside focus single keys
// are commands: a sentence typed into the wrong pane, or an unbracketed paste
// (`xyq d`), cancelled a run, answered its question and quit. So:
//   - every destructive key asks (cancel, interrupt, remove, quit with live or unseen
//     ended runs), and a question takes only an answer typed after it could be read
//     (Confirm, dialog.AnswerGrace); a key that is no answer closes it as a no;
//   - once a question saw keys not meant for it, the keys that follow close behind
//     (each within dialog.AnswerGrace of the last) are dropped too, with a notice: the rest
//     of the paste or the sentence;
//   - when the focused run ends, focus stays on its last screen and keys go nowhere
//     until the leave chord: "press Ctrl-C again to exit" and the run's exit must not
//     turn the next Ctrl-C into Corral's quit;
//   - quitting while ended runs were never looked at asks first.
// Only arrival times decide, read from the model's clock; a UI that stalls can make
// a person's keys look close together, which is why nothing is dropped until keys
// have already gone astray.

// strayGuard drops the keys that follow close behind keys that went astray (a
// question saw keys not meant for it).
type strayGuard struct {
	on      bool
	lastKey time.Time // when the last key outside focus came, while on
	dropped int       // keys dropped since
}

// quarantine starts dropping the keys that follow close behind.
func (g *strayGuard) quarantine(now time.Time) {
	g.on, g.lastKey, g.dropped = true, now, 0
}

// drop reports whether a key outside focus, come at now, is the tail of keys that
// went astray, and how many were dropped so far.
func (g *strayGuard) drop(now time.Time) (int, bool) {
	if !g.on {
		return 0, false
	}
	gap := now.Sub(g.lastKey)
	g.lastKey = now
	if gap > 0 && gap < dialog.AnswerGrace {
		g.dropped++
		return g.dropped, true
	}
	g.on = false
	return 0, false
}

// askAbout is the question a destructive key asks about a run (cancel, interrupt,
// remove), or why it does not apply (refusal); configured says the run was started
// from the config, so removing it lists it as not started again.
func askAbout(km KeyMap, k tea.KeyPressMsg, sel runs.Info, configured bool) (text string, q dialog.Question, refusal string) {
	switch {
	case key.Matches(k, km.Interrupt) && sel.Ended():
		return "", q, fmt.Sprintf("interrupt: %s has ended", sel.Name)
	case key.Matches(k, km.Interrupt):
		return fmt.Sprintf("Interrupt %s (Ctrl-C)?", sel.Name), dialog.Question{Op: dialog.Interrupt, ID: sel.ID}, ""
	case key.Matches(k, km.Remove) && !sel.Ended():
		return "", q, fmt.Sprintf("remove: %s is still %s", sel.Name, sel.State)
	case key.Matches(k, km.Remove) && sel.Worktree != nil && (sel.Finished == nil || !sel.Finished.Removed):
		// Forgetting the run leaves its worktree where no run knows it: said first.
		return fmt.Sprintf("Remove %s? Its worktree stays, unfinished (%s finishes it).",
			sel.Name, km.Finish.Help().Key), dialog.Question{Op: dialog.Remove, ID: sel.ID}, ""
	case key.Matches(k, km.Remove) && configured:
		return fmt.Sprintf("Remove %s's run and screen? It is listed as not started again (%s starts it).",
			sel.Name, km.Restart.Help().Key), dialog.Question{Op: dialog.Remove, ID: sel.ID}, ""
	case key.Matches(k, km.Remove):
		return fmt.Sprintf("Remove %s and its screen from the list?", sel.Name), dialog.Question{Op: dialog.Remove, ID: sel.ID}, ""
	case sel.Ended():
		return "", q, fmt.Sprintf("cancel: %s has ended", sel.Name)
	}
	return fmt.Sprintf("Cancel %s (%s)?", sel.Name, sel.ID), dialog.Question{Op: dialog.Cancel, ID: sel.ID}, ""
}

// noTerminalIO says why a run takes no keys, paste or submit ("" if it does).
func noTerminalIO(sel runs.Info) string {
	switch {
	case sel.Ended():
		return sel.Name + " has ended"
	case sel.Adopted:
		return sel.Name + " is adopted: no terminal I/O"
	}
	return ""
}

// restartRefusal says why a run cannot be spawned again ("" if it can): an ended
// run can.
func restartRefusal(sel runs.Info) string {
	switch {
	case !sel.Ended():
		return fmt.Sprintf("restart: %s is still %s", sel.Name, sel.State)
	case sel.Adopted:
		return fmt.Sprintf("restart: %s was adopted; its spec belongs to another instance", sel.Name)
	}
	return ""
}

// liveService: R restarts the selected run in place (its next attempt, same id), as
// corral restart does, rather than spawning its spec again once it has ended.
func liveService(sel runs.Info) bool {
	return sel.Service != nil && !sel.Ended() && !sel.Adopted
}

// restartSpec is what a restart of the ended run sel spawns: its spec, in its own
// worktree while that is there (restarting must not leave the work behind in a
// worktree no run knows, for a fresh one); once finished, on its kept branch in a new
// worktree of the same repository.
func restartSpec(sel runs.Info) runs.Spec {
	spec := sel.Spec
	spec.Stdout, spec.Stderr = nil, nil
	wt := sel.Worktree
	if spec.Worktree == nil || wt == nil {
		return spec
	}
	ws := *spec.Worktree
	spec.Worktree = &ws
	f := sel.Finished
	switch {
	case f == nil || !f.Removed:
		use := *wt
		ws.Use = &use
	default: // the worktree is gone: from the repository, where the run was in it
		spec.Dir = wt.Repo
		if rel, err := filepath.Rel(wt.Path, wt.Dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			spec.Dir = filepath.Join(wt.Repo, rel)
		}
		if !f.BranchDeleted {
			ws.Branch = wt.Branch
		}
	}
	return spec
}

// pauseVerb is what the pause key does to a run: pause it, or resume it.
func pauseVerb(sel runs.Info) string {
	if sel.Paused {
		return "resume"
	}
	return "pause"
}
