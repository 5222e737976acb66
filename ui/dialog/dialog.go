// Package dialog is the dialogs and their host: a one-line prompt and a y/n
// question in the status line, the new-run form over the panes. Opening one hands
// it the keys (the root routes them to Update while one is open); when it is done
// it closes itself and answers with a typed message (PromptAnswer, ConfirmAnswer,
// FormAnswer), which the root routes to an action as it routes every other message.
package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/ptyhost/keys"
	"corral/runs"
	"corral/ui/common"
)

// KeyMap is the dialogs' keys: y/n questions, one-line prompts, the new-run form.
type KeyMap struct {
	Yes, No, Accept, Dismiss, Toggle, NextField, PrevField key.Binding
}

// DefaultKeyMap returns the dialogs' default keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Yes: common.Bind("yes", "y", "Y"), No: common.Bind("no", "n", "N", "esc"),
		Accept: common.Bind("accept", "enter"), Dismiss: common.Bind("cancel", "esc"),
		Toggle: common.Bind("pty/pipe/parity", "tab"), NextField: common.Bind("next field", "down"),
		PrevField: common.Bind("previous field", "up", "shift+tab"),
	}
}

// kind is which dialog is open.
type kind int

const (
	kindPrompt kind = iota
	kindConfirm
	kindForm
	kindFinish
)

// Op is what a y/n question decides.
type Op int

const (
	Cancel Op = iota
	Quit
	Detach
	Interrupt
	Remove
	Finish
	Restore // the lost runs of a reboot, started again (Question.IDs)
)

// Question is what a y/n answer decides: an operation, on run ID.
type Question struct {
	Op  Op
	ID  string
	IDs []string // Restore's runs
}

type (
	// ConfirmAnswer: a question was answered (Yes), and whether keys came with the
	// answer that were not meant for it (Stray: the root's guard drops the rest).
	ConfirmAnswer struct {
		Question
		Yes, Stray bool
	}
	// PromptAnswer: a prompt was accepted; a send-keys prompt's text is parsed (Items).
	PromptAnswer struct {
		Kind   PromptKind
		Target string
		Text   string
		Items  []keys.Item
	}
	// FormAnswer: the new-run form was accepted.
	FormAnswer struct {
		Spec   runs.Spec
		Parity bool
		Host   string // over several hosts, the one to start it on
	}
)

// Host is the open dialog, if any.
type Host struct {
	c       *common.Common
	keys    *KeyMap
	open    bool
	kind    kind
	q       Question
	prompt  Prompt
	confirm Confirm
	form    Form
	finish  FinishForm
	w, h    int
}

// New returns a host with no dialog open.
func New(c *common.Common, keys *KeyMap) Host { return Host{c: c, keys: keys} }

// Open reports whether a dialog is open.
func (d Host) Open() bool { return d.open }

// Asking reports whether the open dialog is a y/n question.
func (d Host) Asking() bool { return d.open && d.kind == kindConfirm }

// Ask opens a y/n question deciding q.
func (d *Host) Ask(text string, q Question) {
	d.confirm, d.q = NewConfirm(d.c, d.keys, text), q
	d.confirm.SetSize(d.w, 1)
	d.open, d.kind = true, kindConfirm
}

// Prompt opens a one-line prompt of kind for run target.
func (d *Host) Prompt(kind PromptKind, label, target string) {
	d.prompt = NewPrompt(d.c, d.keys, kind, common.Clean(label), target)
	d.prompt.SetSize(d.w, 1)
	d.open, d.kind = true, kindPrompt
}

// Form opens the new-run form; over several hosts it asks for one of hosts, at first
// host.
func (d *Host) Form(hosts []string, host string) {
	d.form = NewForm(d.c, d.keys)
	d.form.SetHosts(hosts, host)
	d.form.SetSize(d.w, d.h)
	d.open, d.kind = true, kindForm
}

// Finish opens the finish dialog of run, a run with a worktree.
func (d *Host) Finish(run runs.Info) {
	d.finish = NewFinishForm(d.c, d.keys, run)
	d.finish.SetSize(d.w, d.h)
	d.open, d.kind = true, kindFinish
}

// FormRefused opens the new-run form again, with the fields it was accepted with and
// why its run was not started; false (nothing opened) when another dialog is open.
func (d *Host) FormRefused(reason string) bool {
	if d.open {
		return false
	}
	d.form.Refused(reason)
	d.form.SetSize(d.w, d.h)
	d.open, d.kind = true, kindForm
	return true
}

// FinishRefused opens the finish dialog of run id again, with the choices it was
// accepted with and why the finish was refused; false (nothing opened) when another
// dialog is open or the last finish dialog was another run's.
func (d *Host) FinishRefused(id, reason string) bool {
	if d.open || d.finish.ID() != id {
		return false
	}
	d.finish.Refused(reason)
	d.finish.SetSize(d.w, d.h)
	d.open, d.kind = true, kindFinish
	return true
}

// SetSize sizes the dialogs to the screen: the prompt and the question take the
// status line, the form is drawn over the panes.
func (d *Host) SetSize(w, h int) {
	d.w, d.h = w, h
	d.prompt.SetSize(w, 1)
	d.confirm.SetSize(w, 1)
	d.form.SetSize(w, h)
	d.finish.SetSize(w, h)
}

// Update gives a key or a paste to the open dialog (a question takes no paste). When
// the dialog is done it closes, and the command returned answers (none if it was
// dismissed): the answer is a value, so the root may route it at once, before the
// next key.
func (d Host) Update(msg tea.Msg) (Host, tea.Cmd) {
	if !d.open {
		return d, nil
	}
	var answer tea.Msg
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		d, answer = d.key(m)
	case tea.PasteMsg:
		switch d.kind {
		case kindPrompt:
			d.prompt, _ = d.prompt.Update(m)
		case kindForm:
			d.form, _ = d.form.Update(m)
		case kindFinish:
			d.finish, _ = d.finish.Update(m)
		}
	}
	if answer == nil {
		return d, nil
	}
	return d, func() tea.Msg { return answer }
}

// key gives a key to the open dialog; its answer, if it is done, is the message
// returned.
func (d Host) key(k tea.KeyPressMsg) (Host, tea.Msg) {
	switch d.kind {
	case kindConfirm:
		return d.confirmKey(k)
	case kindForm:
		d.form, _ = d.form.Update(k)
		spec, ok, done := d.form.Done()
		if !done {
			return d, nil
		}
		d.open = false
		if !ok {
			return d, nil
		}
		return d, FormAnswer{Spec: spec, Parity: d.form.Parity(), Host: d.form.Host()}
	case kindFinish:
		d.finish, _ = d.finish.Update(k)
		a, ok, done := d.finish.Done()
		if !done {
			return d, nil
		}
		d.open = false
		if !ok {
			return d, nil
		}
		return d, a
	}
	return d.promptKey(k)
}

func (d Host) confirmKey(k tea.KeyPressMsg) (Host, tea.Msg) {
	d.confirm, _ = d.confirm.Update(k)
	yes, done := d.confirm.Done()
	if !done {
		return d, nil
	}
	d.open = false
	// Keys were coming that were not meant for it: an answer too early, or a key that
	// is no answer.
	stray := d.confirm.Early() || !yes && !key.Matches(k, d.keys.No)
	return d, ConfirmAnswer{Question: d.q, Yes: yes, Stray: stray}
}

// promptKey gives a key to the prompt; a send-keys line that does not parse keeps
// the prompt open with the error.
func (d Host) promptKey(k tea.KeyPressMsg) (Host, tea.Msg) {
	d.prompt, _ = d.prompt.Update(k)
	text, ok, done := d.prompt.Done()
	if !done {
		return d, nil
	}
	if !ok {
		d.open = false
		return d, nil
	}
	a := PromptAnswer{Kind: d.prompt.kind, Target: d.prompt.target, Text: text}
	if a.Kind == SendKeys {
		items, err := keys.ParseSendKeys(text)
		if err != nil {
			d.prompt.SetError(err)
			return d, nil
		}
		a.Items = items
	}
	d.open = false
	return d, a
}

// StatusLine is the open prompt or question, which takes the status line; false for
// none.
func (d Host) StatusLine() (string, bool) {
	switch {
	case !d.open:
		return "", false
	case d.kind == kindPrompt:
		return d.prompt.View(), true
	case d.kind == kindConfirm:
		return d.confirm.View(), true
	}
	return "", false
}

// View is the open form's box (see Overlay); "" for none.
func (d Host) View() string {
	switch {
	case d.open && d.kind == kindForm:
		return d.form.View()
	case d.open && d.kind == kindFinish:
		return d.finish.View()
	}
	return ""
}

// Overlay draws an open form over the panes.
func (d Host) Overlay(content string) string {
	switch {
	case d.open && d.kind == kindForm:
		x, y := d.form.origin()
		return overlay(content, d.form.Lines(), x, y)
	case d.open && d.kind == kindFinish:
		x, y := d.finish.origin()
		return overlay(content, d.finish.Lines(), x, y)
	}
	return content
}

// Cursor is the open prompt's cursor (on the status line) or the form's; nil with
// no dialog or a question.
func (d Host) Cursor() *tea.Cursor {
	switch {
	case !d.open:
		return nil
	case d.kind == kindPrompt:
		c := d.prompt.Cursor()
		c.Y = d.h - 1
		return c
	case d.kind == kindForm:
		return d.form.Cursor()
	case d.kind == kindFinish:
		return d.finish.Cursor()
	}
	return nil
}

// overlay draws box lines over content at column x, line y.
func overlay(content string, box []string, x, y int) string {
	lines := strings.Split(content, "\n")
	for i, b := range box {
		if y+i >= len(lines) {
			break
		}
		l := lines[y+i]
		w := common.WidthOf(b)
		lines[y+i] = ansi.Truncate(l, x, "") + "\x1b[0m" + b + ansi.TruncateLeft(l, x+w, "")
	}
	return common.JoinLines(lines)
}
