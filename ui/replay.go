package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/demo/castplay"
	"corral/ui/common"
)

// Under corral replay each run is a player of a recording (demo's cast-play, reading
// castplay's keys). Its keys work outside focus: each replay binding writes the bytes
// of its command to the selected run (they worked only in focus, with no hint). The player shows its progress as its terminal's title, which the pane's
// title carries; the status line lists these keys.

// ReplayKeyMap is corral replay's player keys: the selected recording's, outside
// focus too.
type ReplayKeyMap struct {
	ReplayPause, ReplayFaster, ReplaySlower, ReplayBack, ReplayForward, ReplayStart, ReplayEnd key.Binding
}

// DefaultReplayKeyMap returns the player's default keys.
func DefaultReplayKeyMap() ReplayKeyMap {
	return ReplayKeyMap{
		ReplayPause: common.Bind("pause/resume", "space"), ReplayFaster: common.Bind("faster", "+", "="),
		ReplaySlower: common.Bind("slower", "-"), ReplayBack: common.Bind("back 10 s", "left"),
		ReplayForward: common.Bind("on 10 s", "right"), ReplayStart: common.Bind("restart", "home"),
		ReplayEnd: common.Bind("to the end", "end"),
	}
}

// replayBinding pairs a binding with the player's command.
type replayBinding struct {
	b   *key.Binding
	cmd castplay.Cmd
}

func (k *KeyMap) replayBindings() []replayBinding {
	return []replayBinding{
		{&k.ReplayPause, castplay.CmdPause}, {&k.ReplayBack, castplay.CmdBack},
		{&k.ReplayForward, castplay.CmdForward}, {&k.ReplayStart, castplay.CmdStart},
		{&k.ReplayEnd, castplay.CmdEnd}, {&k.ReplayFaster, castplay.CmdFaster},
		{&k.ReplaySlower, castplay.CmdSlower},
	}
}

func (k *KeyMap) replayActions() []action {
	names := []string{"replay_pause", "replay_back", "replay_forward", "replay_start", "replay_end",
		"replay_faster", "replay_slower"}
	var out []action
	for i, rb := range k.replayBindings() {
		out = append(out, action{names[i], rb.b, []string{groupReplay}})
	}
	return out
}

// disableReplay turns the replay keys off, outside corral replay: they neither act nor
// show in help.
func (k *KeyMap) disableReplay() {
	for _, rb := range k.replayBindings() {
		rb.b.SetEnabled(false)
	}
}

// ReplayHelp is the status line's help under corral replay: help and quit first, so a
// narrow status line still shows how to leave (at 120 columns quit was cut: review).
func (k KeyMap) ReplayHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.ReplayPause, k.ReplayBack, k.ReplayForward, k.ReplayStart,
		k.ReplayEnd, k.ReplayFaster, k.ReplaySlower, k.Focus}
}

// replayInput is the player command bound to k, as the bytes the player reads (under
// corral replay, sent to the selected run while it plays).
func (k KeyMap) replayInput(msg tea.KeyPressMsg) ([]byte, bool) {
	for _, rb := range k.replayBindings() {
		if key.Matches(msg, *rb.b) {
			return []byte(castplay.Input[rb.cmd]), true
		}
	}
	return nil, false
}
