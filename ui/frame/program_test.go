package frame

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

type panicky struct{ v tea.View }

func (p panicky) Init() tea.Cmd                       { return nil }
func (p panicky) View() tea.View                      { return p.v }
func (p panicky) Update(tea.Msg) (tea.Model, tea.Cmd) { panic("boom") }

func testTerminal(t *testing.T) (*terminal, *fakeTerm) {
	t.Helper()
	null, err := os.Open(os.DevNull) // not a terminal: no raw mode to set
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { null.Close() })
	r, f := newTest(t)
	tt := &terminal{r: r, in: null, out: null}
	if err := tt.take(); err != nil {
		t.Fatal(err)
	}
	return tt, f
}

// A panic in Update leaves the alternate screen and resets the modes before it goes
// on to Bubble Tea, which prints it: on the terminal as it was.
func TestPanicGivesTheTerminalBack(t *testing.T) {
	tt, f := testTerminal(t)
	m := model{panicky{screen("ui")}, tt}
	m.View()
	if !strings.Contains(f.output(), ansi.SetModeAltScreenSaveCursor) {
		t.Fatalf("no first frame: %q", f.output())
	}
	f.reset()
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic did not go on")
			}
		}()
		m.Update(tea.KeyPressMsg{})
	}()
	if !strings.Contains(f.output(), ansi.ResetModeAltScreenSaveCursor) || !strings.Contains(f.output(), ansi.ResetModeBracketedPaste) {
		t.Fatalf("the terminal was not given back before the panic went on: %q", f.output())
	}
}

// ctrl+z: the modes are reset before Bubble Tea stops the process, and set again,
// with the frame redrawn, when it is resumed.
func TestSuspendAndResume(t *testing.T) {
	tt, f := testTerminal(t)
	tt.r.Submit(screen("ui"))
	f.reset()
	if tt.filter(nil, tea.SuspendMsg{}) == nil {
		t.Fatal("the suspend did not go on to Bubble Tea")
	}
	if !strings.Contains(f.output(), ansi.ResetModeAltScreenSaveCursor) {
		t.Fatalf("suspend did not give the terminal back: %q", f.output())
	}
	f.reset()
	tt.filter(nil, tea.ResumeMsg{})
	if out := f.output(); !strings.Contains(out, ansi.SetModeAltScreenSaveCursor) || !strings.Contains(out, "ui") {
		t.Fatalf("resume did not take the terminal and redraw: %q", out)
	}
}

// tea.Raw is written at once, not on Bubble Tea's ticker.
func TestRawIsWrittenAtOnce(t *testing.T) {
	tt, f := testTerminal(t)
	if tt.filter(nil, tea.RawMsg{Msg: "\x1b]52;c;eA==\a"}) != nil {
		t.Fatal("Bubble Tea would write the raw message again")
	}
	if !strings.Contains(f.output(), "\x1b]52;c;eA==\a") {
		t.Fatalf("raw not written: %q", f.output())
	}
}

// A command that panics, alone, in a batch or in a sequence (nested too), gives the
// terminal back before the panic goes on to Bubble Tea.
func TestPanickingCommandGivesTheTerminalBack(t *testing.T) {
	nop := func() tea.Msg { return nil }
	for _, how := range []string{"alone", "batch", "sequence", "sequence in a batch"} {
		tt, f := testTerminal(t)
		tt.r.Submit(screen("ui"))
		boom := func() tea.Msg { panic("boom") }
		var cmd tea.Cmd
		switch how {
		case "alone":
			cmd = tt.guard(boom)
		case "batch":
			cmd = tt.guard(tea.Batch(nop, boom))().(tea.BatchMsg)[1]
		case "sequence":
			cmd = nth(t, tt.guard(tea.Sequence(nop, boom))(), 1)
		case "sequence in a batch":
			inner := tt.guard(tea.Batch(nop, tea.Sequence(nop, boom)))().(tea.BatchMsg)[1]
			cmd = nth(t, inner(), 1)
		}
		batched := how
		f.reset()
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("the panic did not go on")
				}
			}()
			cmd()
		}()
		if !strings.Contains(f.output(), ansi.ResetModeAltScreenSaveCursor) {
			t.Fatalf("%s: the terminal was not given back: %q", batched, f.output())
		}
	}
}

// nth is the i-th command of msg, a list of commands (tea.Sequence's message is of a
// type of Bubble Tea's own).
func nth(t *testing.T, msg tea.Msg, i int) tea.Cmd {
	t.Helper()
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Len() <= i {
		t.Fatalf("%T is not a list of commands", msg)
	}
	return v.Index(i).Interface().(tea.Cmd)
}

// A stop and fg while a pager has the terminal leave it to the pager: nothing is
// written, and the UI takes it back only when the pager is done.
func TestStopWhileLentLeavesTheTerminalToThePager(t *testing.T) {
	tt, f := testTerminal(t)
	tt.r.Submit(screen("ui"))
	tt.give()
	tt.lend(true)
	f.reset()
	tt.stopped()
	tt.continued()
	if out := f.output(); out != "" {
		t.Fatalf("a stop and fg while the pager had the terminal wrote %q", out)
	}
	tt.lend(false)
	tt.stopped()
	tt.continued()
	if out := f.output(); !strings.Contains(out, ansi.SetModeAltScreenSaveCursor) || !strings.Contains(out, "ui") {
		t.Fatalf("a stop and fg without a pager did not take the terminal and redraw: %q", out)
	}
}

// stillModel's view is v; still says its last Update changed nothing on screen.
type stillModel struct {
	v     tea.View
	still bool
	views *int
}

func (s stillModel) Init() tea.Cmd                       { return nil }
func (s stillModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s stillModel) View() tea.View                      { *s.views++; return s.v }
func (s stillModel) Still() bool                         { return s.still }

// A model whose Update changed nothing on screen (Still) is not asked for its view,
// and nothing is written; one that changed is drawn at once.
func TestStillModelIsNotAskedForAView(t *testing.T) {
	tt, f := testTerminal(t)
	views := 0
	model{stillModel{v: screen("one"), views: &views}, tt}.View()
	if views != 1 || !strings.Contains(f.output(), "one") {
		t.Fatalf("the first frame: %d views, wrote %q", views, f.output())
	}
	f.reset()
	model{stillModel{v: screen("two"), still: true, views: &views}, tt}.View()
	if views != 1 || f.output() != "" {
		t.Fatalf("a still model: asked for %d views in all, wrote %q", views, f.output())
	}
	model{stillModel{v: screen("two"), views: &views}, tt}.View()
	if views != 2 || !strings.Contains(f.output(), "two") {
		t.Fatalf("after a change: %d views, wrote %q", views, f.output())
	}
}

// echoMsg is a message that carries an echo, or not.
type echoMsg bool

func (e echoMsg) FrameAtOnce() bool { return bool(e) }

// The view after a message that carries an echo (AtOncer) is drawn at once though the
// frames before it spent the budget; after one that does not, it waits for the
// interval's end.
func TestViewAfterAnEchoIsDrawnAtOnce(t *testing.T) {
	tt, f := testTerminal(t)
	views := 0
	for i := range Burst + 1 {
		model{stillModel{v: screen(fmt.Sprintf("line %d", i)), views: &views}, tt}.View()
	}
	for _, echo := range []bool{false, true} {
		model{stillModel{views: &views}, tt}.Update(echoMsg(echo))
		v := fmt.Sprintf("echo %v", echo)
		model{stillModel{v: screen(v), views: &views}, tt}.View()
		if got := strings.Contains(f.last(), v); got != echo {
			t.Fatalf("after a message with echo %v, its view written at once: %v (last write %q)", echo, got, f.last())
		}
	}
}
