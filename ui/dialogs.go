package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
	"corral/ui/dialog"
)

// The dialogs (a one-line prompt, a y/n question, the new-run form) are package
// dialog's: the root opens one (modeDialog) and routes keys and pastes to it; when it
// is done it closes itself and answers with a typed message (dialog.PromptAnswer,
// ConfirmAnswer, FormAnswer) that the root routes to an action (answered).

// DialogKeyMap is the dialogs' keys (package dialog), embedded in KeyMap under this
// name so that its action names and accesses stay.
type DialogKeyMap = dialog.KeyMap

// dialogs is the dialog host and the mode keys return to when its dialog closes.
type dialogs struct {
	dialog.Host
	ret mode
}

func newDialogs(c *Common) dialogs { return dialogs{Host: dialog.New(c.Common, &c.Keys.DialogKeyMap)} }

// from keeps the mode to return to (from, unless a dialog replaces another) for a
// dialog about to open; the model's mode is then modeDialog, which it returns.
func (d *dialogs) from(from mode) mode {
	if !d.Open() && from != modeDialog {
		d.ret = from
	}
	return modeDialog
}

// ask opens a y/n question deciding q, from mode from.
func (d *dialogs) ask(text string, q dialog.Question, from mode) mode {
	m := d.from(from)
	d.Ask(text, q)
	return m
}

// prompt opens a one-line prompt of kind for run target, from mode from.
func (d *dialogs) prompt(kind dialog.PromptKind, label, target string, from mode) mode {
	m := d.from(from)
	d.Prompt(kind, label, target)
	return m
}

// form opens the new-run form from mode from; over several hosts it asks for one of
// hosts, at first host.
func (d *dialogs) form(from mode, hosts []string, host string) mode {
	m := d.from(from)
	d.Form(hosts, host)
	return m
}

// finish opens the finish dialog of run sel from mode from.
func (d *dialogs) finish(sel runs.Info, from mode) mode {
	m := d.from(from)
	d.Finish(sel)
	return m
}

// formRefused opens the new-run form again with why its run was not started, from
// mode from; ok false when it could not (another dialog is open).
func (d *dialogs) formRefused(reason string, from mode) (mode, bool) {
	if d.Open() || !d.FormRefused(reason) {
		return from, false
	}
	d.ret = from
	return modeDialog, true
}

// finishRefused opens the finish dialog of run id again with why its finish was
// refused, from mode from; ok false when it could not (another dialog is open).
func (d *dialogs) finishRefused(id, reason string, from mode) (mode, bool) {
	if d.Open() || !d.FinishRefused(id, reason) {
		return from, false
	}
	d.ret = from
	return modeDialog, true
}

// questionCmd is what a yes to a question about a run does: cancel, interrupt or
// remove it (quitting, detaching and finishing are the model's).
func questionCmd(engine Engine, q dialog.Question) tea.Cmd {
	switch q.Op {
	case dialog.Interrupt:
		return runCmd(engine, api.Interrupt, q.ID)
	case dialog.Remove:
		return removeCmd(engine, q.ID)
	}
	return runCmd(engine, api.Kill, q.ID)
}

// promptCmd sends an accepted send-keys, paste or submit prompt's text to its run (a
// search is the model's).
func promptCmd(engine Engine, a dialog.PromptAnswer) tea.Cmd {
	switch a.Kind {
	case dialog.SendKeys:
		if len(a.Items) == 0 {
			return nil
		}
		return sendKeysCmd(engine, a.Target, a.Items)
	case dialog.Paste:
		return pasteCmd(engine, a.Target, a.Text)
	case dialog.Submit:
		return submitCmd(engine, a.Target, a.Text)
	}
	return nil
}

// promptOf is the prompt a key opens for a run, and its verb: send-keys, paste or
// submit.
func promptOf(km KeyMap, k tea.KeyPressMsg) (dialog.PromptKind, string) {
	switch {
	case key.Matches(k, km.Paste):
		return dialog.Paste, "paste"
	case key.Matches(k, km.Submit):
		return dialog.Submit, "submit"
	}
	return dialog.SendKeys, "send-keys"
}
