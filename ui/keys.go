package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"

	"corral/ui/common"
	"corral/ui/dialog"
	"corral/ui/diffview"
	"corral/ui/events"
	"corral/ui/help"
	"corral/ui/runlist"
	"corral/ui/terminal"
)

// KeyMap is every key of the UI as data. Each binding has a stable action name (see
// actions) by which Options.Keys overrides it; help is generated from it.
//
// The components with keys of their own have their own KeyMap, embedded here so that
// every binding has one action name and one place to override it: the run list
// (ListKeyMap), the terminal pane's scroll and copy modes (ScrollKeyMap), the events
// pane (EventsKeyMap), the dialogs (DialogKeyMap), corral replay's player
// (ReplayKeyMap) and the diff view (DiffKeyMap).
type KeyMap struct {
	ListKeyMap
	ScrollKeyMap
	EventsKeyMap
	DialogKeyMap
	ReplayKeyMap
	DiffKeyMap

	// Browsing the runs.
	Focus, SendKeys, Paste, Submit, Cancel, Interrupt, Pause              key.Binding
	Reconcile, New, Restart, Remove, Zoom, Layout, Scrollback, Help, Quit key.Binding
	// Scroll mode: search the transcript (browsing, its key filters the run list).
	Search key.Binding
	// The mouse on or off.
	Mouse key.Binding
	// Who needs you: the next run whose agent waits (oldest first), the next unseen.
	NextWaiting, NextUnseen key.Binding
	// Attached to a server (corral attach) only: leave the runs running, or end them.
	Detach, Shutdown key.Binding
	// A parity pair: focused keys to both runs or the selected one; diff or screens.
	PairKeys, PairDiff key.Binding
	// Focus: every other key goes to the run.
	Leave key.Binding
	// A worktree run: the finish dialog (commit, merge, remove its worktree).
	Finish key.Binding
	// A worktree run's diff, full screen (its keys: DiffKeyMap).
	Diff key.Binding
	// A recorded run's (or, under corral replay, the played) recording as a GIF.
	Export key.Binding
}

// Key groups: a key may be bound once per group, and every group is one mode.
const (
	groupBrowse  = "browsing"
	groupFocus   = "focus"
	groupScroll  = "scroll"
	groupConfirm = "confirm"
	groupPrompt  = "prompt"
	groupForm    = "form"
	groupFilter  = "filter" // the run list's filter being typed
	groupReplay  = "replay" // before browsing's keys, under corral replay only
	groupDiff    = "diff"   // the diff view open
)

// EventsKeyMap is the events pane's keys (events.KeyMap), named so that it embeds
// beside the other components' key maps.
type EventsKeyMap = events.KeyMap

// action names a binding for overrides and conflict checks.
type action struct {
	name   string
	b      *key.Binding
	groups []string
}

func (k *KeyMap) actions() []action {
	b, f, s := []string{groupBrowse}, []string{groupFocus}, []string{groupScroll}
	return append([]action{
		{"up", &k.Up, b}, {"down", &k.Down, b}, {"focus", &k.Focus, b},
		{"send_keys", &k.SendKeys, b}, {"paste", &k.Paste, b}, {"submit", &k.Submit, b},
		{"cancel", &k.Cancel, b}, {"interrupt", &k.Interrupt, b}, {"pause", &k.Pause, b},
		{"reconcile", &k.Reconcile, b}, {"new", &k.New, b}, {"restart", &k.Restart, b},
		{"remove", &k.Remove, b}, {"zoom", &k.Zoom, []string{groupBrowse, groupScroll}}, {"layout", &k.Layout, b},
		{"search", &k.Search, s}, // scroll mode's: browsing, its key filters the run list
		{"first", &k.First, b}, {"last", &k.Last, b}, {"page_up_runs", &k.PrevPage, b},
		{"page_down_runs", &k.NextPage, b}, {"filter", &k.Filter, b}, {"clear_filter", &k.ClearFilter, b},
		{"scrollback", &k.Scrollback, b}, {"help", &k.Help, b}, {"quit", &k.Quit, b},
		{"detach", &k.Detach, b}, {"shutdown", &k.Shutdown, b},
		{"pair_keys", &k.PairKeys, b}, {"pair_diff", &k.PairDiff, b}, {"finish", &k.Finish, b},
		{"export", &k.Export, b},
		{"leave", &k.Leave, f},
		{"scroll_up", &k.ScrollUp, s}, {"scroll_down", &k.ScrollDown, s},
		{"page_up", &k.PageUp, s}, {"page_down", &k.PageDown, s}, {"top", &k.Top, s},
		{"bottom", &k.Bottom, s}, {"next_match", &k.NextMatch, s},
		{"prev_match", &k.PrevMatch, s}, {"live", &k.Live, s},
		{"mouse", &k.Mouse, b}, {"events_up", &k.EventsUp, b}, {"events_down", &k.EventsDown, b},
		{"next_waiting", &k.NextWaiting, b}, {"next_unseen", &k.NextUnseen, b},
		{"copy_mode", &k.CopyMode, []string{groupBrowse, groupScroll}}, {"mark", &k.Mark, s}, {"yank", &k.Yank, s},
		{"pager", &k.Pager, s}, {"save", &k.Save, s},
		{"yes", &k.Yes, []string{groupConfirm}}, {"no", &k.No, []string{groupConfirm}},
		{"accept", &k.Accept, []string{groupPrompt, groupForm, groupFilter}},
		{"dismiss", &k.Dismiss, []string{groupPrompt, groupForm, groupFilter}},
		{"toggle", &k.Toggle, []string{groupForm}},
		{"next_field", &k.NextField, []string{groupForm}},
		{"prev_field", &k.PrevField, []string{groupForm}},
	}, append(k.diffActions(), k.replayActions()...)...)
}

// diffActions are the diff view's key and its keys once open.
func (k *KeyMap) diffActions() []action {
	d := []string{groupDiff}
	return []action{{"diff", &k.Diff, []string{groupBrowse}},
		{"diff_up", &k.DiffUp, d}, {"diff_down", &k.DiffDown, d}, {"diff_half_up", &k.DiffHalfUp, d},
		{"diff_half_down", &k.DiffHalfDown, d}, {"diff_page_up", &k.DiffPageUp, d}, {"diff_page_down", &k.DiffPageDown, d},
		{"diff_top", &k.DiffTop, d}, {"diff_bottom", &k.DiffBottom, d}, {"diff_left", &k.DiffLeft, d},
		{"diff_right", &k.DiffRight, d}, {"diff_next_file", &k.DiffNextFile, d}, {"diff_prev_file", &k.DiffPrevFile, d},
		{"diff_next_hunk", &k.DiffNextHunk, d}, {"diff_prev_hunk", &k.DiffPrevHunk, d}, {"diff_search", &k.DiffSearch, d},
		{"diff_next_match", &k.DiffNextMatch, d}, {"diff_prev_match", &k.DiffPrevMatch, d},
		{"diff_refresh", &k.DiffRefresh, d}, {"diff_close", &k.DiffClose, d},
	}
}

// ScrollKeyMap is the terminal pane's keys (package terminal), embedded in KeyMap
// under this name so that its action names and accesses stay.
type ScrollKeyMap = terminal.KeyMap

// ListKeyMap is the run list's keys (package runlist), embedded in KeyMap under this
// name so that its action names and accesses stay.
type ListKeyMap = runlist.KeyMap

// DefaultKeyMap returns the default keys, which the config overrides by action name.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		ListKeyMap: runlist.DefaultKeyMap(), ScrollKeyMap: terminal.DefaultKeyMap(), EventsKeyMap: events.DefaultKeyMap(),
		DialogKeyMap: dialog.DefaultKeyMap(), ReplayKeyMap: DefaultReplayKeyMap(), DiffKeyMap: diffview.DefaultKeyMap(),
		Focus:    common.Bind("focus (keys go to the run)", "enter"),
		SendKeys: common.Bind("send keys", "s"), Paste: common.Bind("paste text", "p"),
		Submit: common.Bind("submit (paste+enter)", "S"), Cancel: common.Bind("cancel", "x"),
		Interrupt: common.Bind("interrupt (ctrl+c)", "i"), Pause: common.Bind("pause/resume", "space"),
		Reconcile: common.Bind("reconcile now", "r"), New: common.Bind("new run", "n"),
		Restart: common.Bind("start/restart run", "R"), Remove: common.Bind("remove ended run", "d"),
		Zoom: common.Bind("zoom", "z"), Layout: common.Bind("side panes: all/run list only", "l"),
		Search:     common.Bind("search", "/"),
		Scrollback: common.Bind("scroll back", "pgup"), Help: common.Bind("help", "?"),
		Quit:        common.Bind("quit", "q", "ctrl+c"),
		Detach:      common.Bind("detach (runs keep running)", "D"),
		Shutdown:    common.Bind("end every run and the server", "Q"),
		PairKeys:    common.Bind("parity pair: keys to both/one", "b"),
		PairDiff:    common.Bind("parity pair: diff/screens", "v"),
		Leave:       common.Bind("leave focus", "ctrl+]"),
		Mouse:       common.Bind("mouse on/off", "M"),
		NextWaiting: common.Bind("next waiting run", "w"),
		NextUnseen:  common.Bind("next unseen run", "u"),
		Finish:      common.Bind("finish worktree (commit, merge, remove)", "F"),
		Diff:        common.Bind("diff of its worktree", "="),
		Export:      common.Bind("export recording (GIF)", "E"),
	}
}

// KeyError is a bad key override: the action it concerns, so a config file can name
// the line.
type KeyError struct {
	Action, Msg string
}

func (e *KeyError) Error() string { return "keys: " + e.Action + ": " + e.Msg }

// CheckKeys checks key overrides by action name without building a UI.
func CheckKeys(over map[string][]string) error {
	_, err := DefaultKeyMap().withOverrides(over)
	return err
}

// withOverrides applies user keys by action name and checks that no key is bound to
// two actions of one mode.
func (k KeyMap) withOverrides(over map[string][]string) (KeyMap, error) {
	acts := k.actions()
	for name, keys := range over {
		i := slices.IndexFunc(acts, func(a action) bool { return a.name == name })
		if i < 0 {
			return k, &KeyError{Action: name, Msg: "unknown action"}
		}
		if len(keys) == 0 || slices.Contains(keys, "") {
			return k, &KeyError{Action: name, Msg: "empty key"}
		}
		acts[i].b.SetKeys(keys...)
		acts[i].b.SetHelp(common.HelpKeys(keys), acts[i].b.Help().Desc)
	}
	return k, k.check()
}

// check finds a key bound to two actions of the same group.
func (k *KeyMap) check() error {
	owner := map[[2]string]string{} // group, key → action
	for _, a := range k.actions() {
		for _, g := range a.groups {
			for _, ks := range a.b.Keys() {
				if prev, ok := owner[[2]string{g, ks}]; ok && prev != a.name {
					return &KeyError{Action: a.name, Msg: fmt.Sprintf("%q is bound to both %s and %s (%s)", ks, prev, a.name, g)}
				}
				owner[[2]string{g, ks}] = a.name
			}
		}
	}
	return nil
}

// ShortHelp is the status line's help while browsing.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Focus, k.Diff, k.Restart, k.New, k.SendKeys, k.Cancel, k.Pause, k.Zoom, k.Filter}
}

// FullHelp is the help page's bindings, one group per column (help.KeyMap).
func (k KeyMap) FullHelp() [][]key.Binding {
	groups := k.helpGroups()
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.Keys
	}
	return out
}

// helpGroups is the help page's groups of keys, titled. Export is not among them: the
// help at 80×24 stays two pages; the README's keys list it.
func (k KeyMap) helpGroups() []help.Group {
	return []help.Group{
		{Title: "Runs", Keys: []key.Binding{k.Up, k.Down, k.First, k.Last, k.PrevPage, k.NextPage, k.Filter, k.ClearFilter,
			k.NextWaiting, k.NextUnseen, k.New, k.Restart, k.Remove, k.Reconcile, k.Zoom, k.Layout, k.Help, k.Quit,
			k.Detach, k.Shutdown, k.Mouse, k.EventsUp, k.EventsDown}},
		{Title: "The selected run", Keys: []key.Binding{k.Focus, k.SendKeys, k.Paste, k.Submit, k.Interrupt, k.Cancel, k.Pause,
			k.PairKeys, k.PairDiff, k.Diff, k.Finish}},
		{Title: "Focus", Keys: []key.Binding{k.Leave}},
		{Title: "Transcript", Keys: []key.Binding{k.Search, k.Scrollback, k.ScrollUp, k.ScrollDown, k.PageUp, k.PageDown,
			k.Top, k.Bottom, k.NextMatch, k.PrevMatch, k.Live, k.CopyMode, k.Mark, k.Yank, k.Pager, k.Save}},
		{Title: "Dialogs", Keys: []key.Binding{k.Accept, k.Dismiss, k.Yes, k.No, k.Toggle, k.NextField, k.PrevField}},
		{Title: "Replay (corral replay)", Keys: []key.Binding{k.ReplayPause, k.ReplayBack, k.ReplayForward, k.ReplayStart,
			k.ReplayEnd, k.ReplayFaster, k.ReplaySlower}},
		{Title: "Diff view", Keys: k.diffHelp()},
	}
}

// diffHelp is the diff view's keys for the help page, each pair of opposite moves on
// one line by their first keys, so the help keeps its pages (README lists them all).
func (k KeyMap) diffHelp() []key.Binding {
	both := func(a, b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(common.HelpKeys([]string{common.FirstKey(a), common.FirstKey(b)}), desc))
	}
	return []key.Binding{both(k.DiffDown, k.DiffUp, "line down/up"), both(k.DiffHalfDown, k.DiffHalfUp, "half page down/up"),
		both(k.DiffPageDown, k.DiffPageUp, "page down/up"), both(k.DiffTop, k.DiffBottom, "first/last line"),
		both(k.DiffRight, k.DiffLeft, "scroll right/left"), both(k.DiffNextFile, k.DiffPrevFile, "next/previous file"),
		both(k.DiffNextHunk, k.DiffPrevHunk, "next/previous hunk"), k.DiffSearch,
		both(k.DiffNextMatch, k.DiffPrevMatch, "next/previous match"), k.DiffRefresh, k.DiffClose}
}

// forRow is the keymap with the bindings that do nothing for the selected row
// disabled, so help shows what can be done now.
func (k KeyMap) forRow(r runlist.Row, replay bool) KeyMap {
	sel, ok := r.Run, r.Kind == runlist.RowRun
	live := ok && !sel.Ended()
	terminal := live && !sel.Adopted
	for _, b := range []*key.Binding{&k.Focus, &k.SendKeys, &k.Paste, &k.Submit} {
		b.SetEnabled(terminal)
	}
	for _, b := range []*key.Binding{&k.Cancel, &k.Interrupt, &k.Pause} {
		b.SetEnabled(live)
	}
	for _, b := range []*key.Binding{&k.Restart, &k.Remove} {
		b.SetEnabled(ok && sel.Ended())
	}
	k.Restart.SetEnabled(ok && (sel.Ended() || liveService(sel) || sel.Waiting()))
	if r.Kind == runlist.RowPending {
		k.Restart.SetEnabled(true)
		k.Restart.SetHelp(k.Restart.Help().Key, "start")
	} else {
		k.Restart.SetHelp(k.Restart.Help().Key, "restart")
	}
	k.Scrollback.SetEnabled(ok)
	k.Finish.SetEnabled(ok && finishRefusal(sel) == "")
	k.Diff.SetEnabled(ok && sel.Worktree != nil)
	k.Export.SetEnabled(ok && recordingOf(sel, replay) != "")
	if sel.Paused {
		k.Pause.SetHelp(k.Pause.Help().Key, "resume")
	}
	for _, rb := range k.replayBindings() {
		rb.b.SetEnabled(replay && live)
	}
	return k
}
