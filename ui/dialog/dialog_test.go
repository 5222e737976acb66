package dialog

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
)

// The dialogs' tests build them as the root does: the default keys, a settable clock.

var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTestHost(now func() time.Time) Host {
	keys := DefaultKeyMap()
	return New(common.New(now), &keys)
}

func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// answer gives d a key and returns the answer it sent, if any.
func answer(d Host, k tea.KeyPressMsg) (Host, tea.Msg) {
	d, cmd := d.Update(k)
	if cmd == nil {
		return d, nil
	}
	return d, cmd()
}

// The dialog host answers with typed messages: a question's answer carries what it
// decides and whether keys came that were not meant for it; a prompt's carries its
// text (a send-keys line parsed, one that does not parse keeps the prompt open); the
// form's carries the spec. Each dialog closes itself when done.
func TestDialogHostAnswers(t *testing.T) {
	clk := &clock{t: t0}
	d := newTestHost(clk.now)
	d.SetSize(100, 30)

	if d.Ask("Cancel r1?", Question{Op: Cancel, ID: "r1"}); !d.Open() || !d.Asking() {
		t.Fatalf("Ask: open %v asking %v", d.Open(), d.Asking())
	}
	clk.t = clk.t.Add(time.Second) // read, then answered
	d, msg := answer(d, keyMsg("y"))
	if a, ok := msg.(ConfirmAnswer); !ok || !a.Yes || a.Stray || a.Op != Cancel || a.ID != "r1" || d.Open() {
		t.Fatalf("y: answer %#v, open %v", msg, d.Open())
	}

	d.Ask("Remove r2?", Question{Op: Remove, ID: "r2"})
	clk.t = clk.t.Add(time.Second)
	d, msg = answer(d, keyMsg("a")) // typing, not answering
	if a, ok := msg.(ConfirmAnswer); !ok || a.Yes || !a.Stray || d.Open() {
		t.Fatalf("a stray key: answer %#v, open %v", msg, d.Open())
	}

	d.Prompt(SendKeys, "send-keys to r1", "r1")
	for _, r := range "C-Foo" {
		d, _ = answer(d, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d, msg = answer(d, keyMsg("enter"))
	if line, in := d.StatusLine(); msg != nil || !d.Open() || d.Asking() || !in || !strings.Contains(ansi.Strip(line), "bad key") {
		t.Fatalf("a bad send-keys line: answer %#v, open %v, line %q", msg, d.Open(), line)
	}
	for range "C-Foo" {
		d, _ = answer(d, keyMsg("backspace"))
	}
	for _, r := range "C-c" {
		d, _ = answer(d, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	d, msg = answer(d, keyMsg("enter"))
	a, ok := msg.(PromptAnswer)
	if !ok || a.Target != "r1" || len(a.Items) != 1 || a.Items[0].IsText || a.Items[0].Key.Rune != 'c' || d.Open() {
		t.Fatalf("C-c: answer %#v, open %v", msg, d.Open())
	}

	d.Form(nil, "")
	d, _ = d.Update(tea.PasteMsg{Content: "echo hi"})
	d, msg = answer(d, keyMsg("enter"))
	if f, ok := msg.(FormAnswer); !ok || f.Spec.Shell != "echo hi" || f.Parity || d.Open() {
		t.Fatalf("form: answer %#v, open %v", msg, d.Open())
	}

	d.Prompt(Paste, "paste to r1", "r1")
	if d, msg = answer(d, keyMsg("esc")); msg != nil || d.Open() {
		t.Fatalf("esc: answer %#v, open %v", msg, d.Open())
	}
}

// A question longer than the status line keeps its answer keys: the question is cut.
func TestLongQuestionKeepsItsKeys(t *testing.T) {
	keys := DefaultKeyMap()
	q := NewConfirm(common.New(func() time.Time { return t0 }), &keys,
		"Remove integration-tests-linux's run and screen? It is listed as not started again (R starts it).")
	q.SetSize(80, 1)
	v := ansi.Strip(q.View())
	if common.WidthOf(v) != 80 || !strings.HasSuffix(strings.TrimRight(v, " "), "n/N/esc no") || !strings.Contains(v, "Remove") {
		t.Fatalf("%q", v)
	}
}

// A paste or submit prompt keeps a pasted text's lines and tabs whole (shown ⏎ and →)
// and sends them as they were; a one-line prompt (search, send-keys) and the form's
// fields turn a newline into a space. (The reason the prompts are not on bubbles'
// textinput, which turns every newline and tab into a space.)
func TestPastePromptKeepsLines(t *testing.T) {
	d := newTestHost(func() time.Time { return t0 })
	d.SetSize(100, 30)
	d.Prompt(Paste, "paste to r1", "r1")
	d, _ = d.Update(tea.PasteMsg{Content: "a\r\nb\tc"})
	if line, _ := d.StatusLine(); !strings.Contains(ansi.Strip(line), "a⏎b→c") {
		t.Errorf("paste prompt shows %q", ansi.Strip(line))
	}
	d, msg := answer(d, keyMsg("enter"))
	if a, ok := msg.(PromptAnswer); !ok || a.Kind != Paste || a.Text != "a\nb\tc" {
		t.Fatalf("paste prompt answered %#v", msg)
	}

	d.Prompt(Search, "search r1", "r1")
	d, _ = d.Update(tea.PasteMsg{Content: "a\r\nb"})
	if d, msg = answer(d, keyMsg("enter")); msg == nil || msg.(PromptAnswer).Text != "a b" {
		t.Fatalf("search prompt answered %#v", msg)
	}
	d.Form(nil, "")
	d, _ = d.Update(tea.PasteMsg{Content: "echo a\nb"})
	if _, msg = answer(d, keyMsg("enter")); msg == nil || msg.(FormAnswer).Spec.Shell != "echo a b" {
		t.Fatalf("form answered %#v", msg)
	}
}
