package dialog

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
	"corral/ui/lineinput"
)

// PromptKind is what a prompt's text is for.
type PromptKind int

const (
	SendKeys PromptKind = iota
	Paste
	Submit
	Search
)

// Prompt is a one-line prompt in the status line: send-keys, paste, submit, search.
// Accept and Dismiss end it; the root reads the result with Done.
type Prompt struct {
	c      *common.Common
	keys   *KeyMap
	kind   PromptKind
	label  string
	target string // the run it acts on
	in     lineinput.Model
	err    string
	w      int
	done   bool
	ok     bool
}

// NewPrompt returns an open prompt.
func NewPrompt(c *common.Common, keys *KeyMap, kind PromptKind, label, target string) Prompt {
	return Prompt{c: c, keys: keys, kind: kind, label: label, target: target,
		in: lineinput.New(kind == Paste || kind == Submit)}
}

// SetSize sets the width of the status line.
func (p *Prompt) SetSize(w, _ int) { p.w = w }

// SetError shows an error inline and keeps the prompt open.
func (p *Prompt) SetError(err error) { p.err, p.done, p.ok = err.Error(), false, false }

// Done reports whether the prompt ended, and if it was accepted, with what text.
func (p Prompt) Done() (text string, accepted, done bool) { return p.in.Value(), p.ok, p.done }

// Update edits the text, accepts or dismisses.
func (p Prompt) Update(msg tea.Msg) (Prompt, tea.Cmd) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(m, p.keys.Accept):
			p.done, p.ok = true, true
		case key.Matches(m, p.keys.Dismiss):
			p.done = true
		case p.in.Key(m):
			p.err = ""
		}
	case tea.PasteMsg:
		p.in.Insert(m.Content)
		p.err = ""
	}
	return p, nil
}

// View is the prompt line, and the column of its cursor.
func (p Prompt) View() string { s, _ := p.view(); return s }

func (p Prompt) view() (string, int) {
	st := p.c.Styles
	head := st.Dialog.Render(" "+p.label) + " › "
	hw := common.WidthOf(" "+p.label) + 3
	tail := ""
	if p.err != "" {
		tail = "  " + st.Danger.Render(common.Trunc(p.err, max(p.w/2, 10)))
	}
	room := max(p.w-hw-common.WidthOf(tail)-1, 4)
	text, col := p.in.View(room)
	return common.Fit(head+text+tail, p.w), hw + col
}

// Cursor is the real cursor in the prompt line (relative to the line).
func (p Prompt) Cursor() *tea.Cursor {
	_, col := p.view()
	c := tea.NewCursor(col, 0)
	c.Shape, c.Blink = tea.CursorBar, true
	return c
}

// Confirm is a y/n question in the status line. It is answered by a person who read
// it: a y or n that comes before AnswerGrace has passed since it opened
// was typed before the question was there (a paste, a sentence typed into the wrong
// place) and is ignored; any other key means the keys were not meant for it, and
// closes it as a no.
type Confirm struct {
	c        *common.Common
	keys     *KeyMap
	question string
	w        int
	done     bool
	yes      bool
	opened   time.Time
	early    bool // an answer came too early and was ignored
}

// AnswerGrace is less than anyone takes to read a question and press y, and more
// than separates the keys of a paste or of fast typing.
const AnswerGrace = 120 * time.Millisecond

// NewConfirm asks a question.
func NewConfirm(c *common.Common, keys *KeyMap, question string) Confirm {
	return Confirm{c: c, keys: keys, question: question, opened: c.Now()}
}

// Early reports whether an answer was ignored for coming before the question could
// be read.
func (f Confirm) Early() bool { return f.early }

// SetSize sets the width of the status line.
func (f *Confirm) SetSize(w, _ int) { f.w = w }

// Done reports whether it was answered and how.
func (f Confirm) Done() (yes, done bool) { return f.yes, f.done }

// Update answers on Yes or No, read as above.
func (f Confirm) Update(msg tea.Msg) (Confirm, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	answer := key.Matches(k, f.keys.Yes, f.keys.No)
	// A clock that did not move at all is a test's fixed clock, never a person.
	if gap := f.c.Now().Sub(f.opened); answer && gap > 0 && gap < AnswerGrace {
		f.early = true
		return f, nil
	}
	switch {
	case key.Matches(k, f.keys.Yes):
		f.done, f.yes = true, true
	case key.Matches(k, f.keys.No):
		f.done = true
	case k.Text != "": // typing, not answering: the question goes
		f.done = true
	}
	return f, nil
}

// View is the question line. When it does not fit, the question is cut and the
// answer keys stay: a question whose keys are cut off cannot be answered.
func (f Confirm) View() string {
	st := f.c.Styles
	keys := " " + st.Key.Render(f.keys.Yes.Help().Key) + st.Desc.Render(" yes  ") +
		st.Key.Render(f.keys.No.Help().Key) + st.Desc.Render(" no")
	q := st.Warn.Render(" " + common.Clean(f.question))
	if room := f.w - common.WidthOf(keys); common.WidthOf(q) > room {
		q = ansi.Truncate(q, max(room, 0), "…") + "\x1b[0m"
	}
	return common.Fit(q+keys, f.w)
}
