package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/api"
	"corral/ui/common"
)

// The dialog host owns the dialogs (a one-line prompt, a y/n question, the new-run
// form) and their state. Opening one hands it the keys (the model is in modeDialog);
// when it is done it closes itself and answers with a typed message (promptAnswer,
// confirmAnswer, formAnswer) that the model routes to an action, as the root Update
// routes every other message.

// DialogKeyMap is the dialogs' keys: y/n questions, one-line prompts, the new-run form.
type DialogKeyMap struct {
	Yes, No, Accept, Dismiss, Toggle, NextField, PrevField key.Binding
}

// DefaultDialogKeyMap returns the dialogs' default keys.
func DefaultDialogKeyMap() DialogKeyMap {
	return DialogKeyMap{
		Yes: bind("yes", "y", "Y"), No: bind("no", "n", "N", "esc"),
		Accept: bind("accept", "enter"), Dismiss: bind("cancel", "esc"),
		Toggle: bind("pty/pipe/parity", "tab"), NextField: bind("next field", "down"),
		PrevField: bind("previous field", "up", "shift+tab"),
	}
}

// dialogKind is which dialog is open.
type dialogKind int

const (
	dlgPrompt dialogKind = iota
	dlgConfirm
	dlgForm
)

// confirmOp is what a y/n question decides.
type confirmOp int

const (
	confirmCancel confirmOp = iota
	confirmQuit
	confirmDetach
	confirmInterrupt
	confirmRemove
)

// question is what a y/n answer decides: an operation, on run id.
type question struct {
	op confirmOp
	id string
}

type (
	// confirmAnswer: a question was answered (yes), and whether keys came with the
	// answer that were not meant for it (stray: the guard drops the rest, guard.go).
	confirmAnswer struct {
		question
		yes, stray bool
	}
	// promptAnswer: a prompt was accepted; a send-keys prompt's text is parsed (items).
	promptAnswer struct {
		kind   promptKind
		target string
		text   string
		items  []keys.Item
	}
	// formAnswer: the new-run form was accepted.
	formAnswer struct {
		spec   runs.Spec
		parity bool
		host   string // over several hosts, the one to start it on
	}
)

// cmd is what a yes to a question about a run does: cancel, interrupt or remove it
// (quitting and detaching are the model's).
func (q question) cmd(core Core) tea.Cmd {
	switch q.op {
	case confirmInterrupt:
		return runCmd(core, api.Interrupt, q.id)
	case confirmRemove:
		return removeCmd(core, q.id)
	}
	return runCmd(core, api.Kill, q.id)
}

// cmd sends an accepted send-keys, paste or submit prompt's text to its run (a search
// is the model's).
func (a promptAnswer) cmd(core Core) tea.Cmd {
	switch a.kind {
	case promptSendKeys:
		if len(a.items) == 0 {
			return nil
		}
		return sendKeysCmd(core, a.target, a.items)
	case promptPaste:
		return pasteCmd(core, a.target, a.text)
	case promptSubmit:
		return submitCmd(core, a.target, a.text)
	}
	return nil
}

// promptOf is the prompt a key opens for a run, and its verb: send-keys, paste or
// submit.
func promptOf(km KeyMap, k tea.KeyPressMsg) (promptKind, string) {
	switch {
	case key.Matches(k, km.Paste):
		return promptPaste, "paste"
	case key.Matches(k, km.Submit):
		return promptSubmit, "submit"
	}
	return promptSendKeys, "send-keys"
}

// dialogHost is the open dialog, if any, and the mode keys return to when it closes.
type dialogHost struct {
	c       *Common
	open    bool
	kind    dialogKind
	ret     mode
	q       question
	prompt  Prompt
	confirm Confirm
	form    Form
	w, h    int
}

func newDialogHost(c *Common) dialogHost { return dialogHost{c: c} }

// show opens kind, keeping the mode to return to (from, unless a dialog replaces
// another); the model's mode is then modeDialog, which it returns.
func (d *dialogHost) show(kind dialogKind, from mode) mode {
	if !d.open && from != modeDialog {
		d.ret = from
	}
	d.open, d.kind = true, kind
	return modeDialog
}

// Ask opens a y/n question deciding q.
func (d *dialogHost) Ask(text string, q question, from mode) mode {
	d.confirm, d.q = NewConfirm(d.c, text), q
	d.confirm.SetSize(d.w, 1)
	return d.show(dlgConfirm, from)
}

// Prompt opens a one-line prompt of kind for run target.
func (d *dialogHost) Prompt(kind promptKind, label, target string, from mode) mode {
	d.prompt = NewPrompt(d.c, kind, common.Clean(label), target)
	d.prompt.SetSize(d.w, 1)
	return d.show(dlgPrompt, from)
}

// Form opens the new-run form; over several hosts it asks for one of hosts, at first
// host.
func (d *dialogHost) Form(from mode, hosts []string, host string) mode {
	d.form = NewForm(d.c)
	d.form.SetHosts(hosts, host)
	d.form.SetSize(d.w, d.h)
	return d.show(dlgForm, from)
}

// SetSize sizes the dialogs to the screen: the prompt and the question take the
// status line, the form is drawn over the panes.
func (d *dialogHost) SetSize(w, h int) {
	d.w, d.h = w, h
	d.prompt.SetSize(w, 1)
	d.confirm.SetSize(w, 1)
	d.form.SetSize(w, h)
}

// Key gives a key to the open dialog; when the dialog is done it closes, and its
// answer (nil if dismissed) is the message returned.
func (d dialogHost) Key(k tea.KeyPressMsg) (dialogHost, tea.Msg) {
	switch d.kind {
	case dlgConfirm:
		return d.confirmKey(k)
	case dlgForm:
		d.form, _ = d.form.Update(k)
		spec, ok, done := d.form.Done()
		if !done {
			return d, nil
		}
		d.open = false
		if !ok {
			return d, nil
		}
		return d, formAnswer{spec: spec, parity: d.form.Parity(), host: d.form.Host()}
	}
	return d.promptKey(k)
}

func (d dialogHost) confirmKey(k tea.KeyPressMsg) (dialogHost, tea.Msg) {
	d.confirm, _ = d.confirm.Update(k)
	yes, done := d.confirm.Done()
	if !done {
		return d, nil
	}
	d.open = false
	// Keys were coming that were not meant for it: an answer too early, or a key that
	// is no answer.
	stray := d.confirm.Early() || !yes && !key.Matches(k, d.c.Keys.DialogKeyMap.No)
	return d, confirmAnswer{question: d.q, yes: yes, stray: stray}
}

// promptKey gives a key to the prompt; a send-keys line that does not parse keeps
// the prompt open with the error.
func (d dialogHost) promptKey(k tea.KeyPressMsg) (dialogHost, tea.Msg) {
	d.prompt, _ = d.prompt.Update(k)
	text, ok, done := d.prompt.Done()
	if !done {
		return d, nil
	}
	if !ok {
		d.open = false
		return d, nil
	}
	a := promptAnswer{kind: d.prompt.kind, target: d.prompt.target, text: text}
	if a.kind == promptSendKeys {
		items, err := keys.ParseSendKeys(text)
		if err != nil {
			d.prompt.SetError(err)
			return d, nil
		}
		a.items = items
	}
	d.open = false
	return d, a
}

// Paste gives a paste to an open prompt or form (a question takes none).
func (d dialogHost) Paste(p tea.PasteMsg) dialogHost {
	switch {
	case !d.open:
	case d.kind == dlgPrompt:
		d.prompt, _ = d.prompt.Update(p)
	case d.kind == dlgForm:
		d.form, _ = d.form.Update(p)
	}
	return d
}

// StatusLine is the open prompt or question, which takes the status line; false for
// none.
func (d dialogHost) StatusLine() (string, bool) {
	switch {
	case !d.open:
		return "", false
	case d.kind == dlgPrompt:
		return d.prompt.View(), true
	case d.kind == dlgConfirm:
		return d.confirm.View(), true
	}
	return "", false
}

// Overlay draws an open form over the panes.
func (d dialogHost) Overlay(content string) string {
	if !d.open || d.kind != dlgForm {
		return content
	}
	x, y := d.form.origin()
	return overlay(content, d.form.Lines(), x, y)
}

// Cursor is the open prompt's cursor (on the status line) or the form's; nil with
// no dialog or a question.
func (d dialogHost) Cursor() *tea.Cursor {
	switch {
	case !d.open:
		return nil
	case d.kind == dlgPrompt:
		c := d.prompt.Cursor()
		c.Y = d.h - 1
		return c
	case d.kind == dlgForm:
		return d.form.Cursor()
	}
	return nil
}
