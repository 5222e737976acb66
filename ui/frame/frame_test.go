package frame

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"corral/demo/testkit/eventually"
)

// fakeTerm is a terminal's output that counts its writes.
type fakeTerm struct {
	mu     sync.Mutex
	writes int
	all    bytes.Buffer
	lastW  string
}

func (f *fakeTerm) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	f.all.Write(p)
	f.lastW = string(p)
	return len(p), nil
}

func (f *fakeTerm) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes
}

func (f *fakeTerm) output() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.all.String()
}

func (f *fakeTerm) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastW
}

func (f *fakeTerm) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all.Reset()
}

func newTest(t *testing.T) (*Renderer, *fakeTerm) {
	t.Helper()
	f := &fakeTerm{}
	r := New(f, []string{"TERM=xterm-256color"}, 40, 10)
	t.Cleanup(r.Stop)
	return r, f
}

// drawn is the content on screen once no frame is due.
func drawn(r *Renderer) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil || r.timer != nil {
		return ""
	}
	return r.last.Content
}

// quiet makes r's frame budgets whole, as a quiet spell longer than any burst would.
func quiet(r *Renderer) {
	r.mu.Lock()
	r.spent, r.echoSpent = time.Time{}, time.Time{}
	r.mu.Unlock()
}

func screen(s string) tea.View {
	return tea.View{AltScreen: true, Content: s}
}

func TestModesSetAndRestoredAroundAHandOver(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	v := tea.View{AltScreen: true, ReportFocus: true, MouseMode: tea.MouseModeCellMotion, WindowTitle: "corral", Content: "hello"}
	v.Cursor = tea.NewCursor(2, 3)
	v.Cursor.Shape = tea.CursorBar
	r.Submit(v)
	set := []string{ansi.SetModeAltScreenSaveCursor, ansi.SetModeFocusEvent, ansi.SetModeMouseButtonEvent, ansi.SetModeMouseExtSgr,
		ansi.SetModeBracketedPaste, ansi.SetWindowTitle("corral"), ansi.PushKittyKeyboard(1), ansi.SetModifyOtherKeys2,
		ansi.SetCursorStyle(cursorStyle(v.Cursor)), ansi.SetModeTextCursorEnable, "hello"}
	for _, s := range set {
		if !strings.Contains(f.output(), s) {
			t.Errorf("first frame does not set %q: %q", s, f.output())
		}
	}
	for round := range 2 { // the second: after the terminal came back from a pager
		f.reset()
		r.Stop()
		restore := []string{ansi.ResetModeAltScreenSaveCursor, ansi.ResetModeFocusEvent, ansi.ResetModeMouseButtonEvent, ansi.ResetModeMouseAnyEvent,
			ansi.ResetModeMouseExtSgr, ansi.ResetModeBracketedPaste, ansi.SetWindowTitle(""), ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys,
			ansi.SetCursorStyle(0)}
		for _, s := range restore {
			if !strings.Contains(f.output(), s) {
				t.Errorf("round %d: stop does not reset %q: %q", round, s, f.output())
			}
		}
		r.Stop() // twice is once
		f.reset()
		r.Start()
		for _, s := range set {
			if !strings.Contains(f.output(), s) {
				t.Errorf("round %d: start does not set %q again: %q", round, s, f.output())
			}
		}
	}
}

func TestNoWriteWhileNothingChanges(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("static"))
	if f.count() == 0 {
		t.Fatal("the first frame was not written at once")
	}
	n := f.count()
	// Five seconds of idle, the view asked for again and again (an Update that
	// changed nothing): not one write.
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) {
		r.Submit(screen("static"))
		time.Sleep(10 * time.Millisecond)
	}
	if got := f.count(); got != n {
		t.Fatalf("%d writes in 5 s of idle with a static screen, want 0", got-n)
	}
}

func TestBurstIsCoalesced(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	start := time.Now()
	const updates = 10000
	for i := range updates {
		r.Submit(screen(fmt.Sprintf("line %d", i)))
	}
	want := fmt.Sprintf("line %d", updates-1)
	eventually.True(t, 2*time.Second, "the last update is drawn", func() bool { return drawn(r) == want })
	elapsed := time.Since(start)
	frames := f.count()
	// At most one frame per interval, plus the first few (written at once).
	if limit := int(elapsed/Interval) + Burst; frames > limit {
		t.Fatalf("%d updates in %v wrote %d frames, more than %d (120 a second)", updates, elapsed, frames, limit)
	}
	if frames >= updates/10 {
		t.Fatalf("%d frames for %d updates: not coalesced", frames, updates)
	}
}

func TestChangeAfterIdleIsWrittenAtOnce(t *testing.T) {
	r, f := newTest(t)
	// An interval no stall of a loaded machine between two submits comes near: the
	// burst below is back to back whatever the load.
	const interval = time.Second
	r.SetInterval(interval)
	r.Start()
	r.Submit(screen("a"))
	n := f.count()
	// The last frame is old (as after a quiet spell, its budget whole again): the next
	// change must not wait for any interval or tick.
	quiet(r)
	r.Submit(screen("ab"))
	if f.count() != n+1 {
		t.Fatalf("a change after an idle gap was not written when it was submitted (writes %d, want %d)", f.count(), n+1)
	}
	if !strings.Contains(f.last(), "b") {
		t.Fatalf("the frame written is %q, want the change", f.last())
	}
	// Past the first few frames back to back, a change within the interval waits for
	// its end, then is written unasked.
	for i := range Burst {
		r.Submit(screen(fmt.Sprintf("abc%d", i)))
	}
	if f.count() != n+Burst {
		t.Fatalf("%d frames back to back after an idle gap, want %d", f.count()-n, Burst)
	}
	r.Submit(screen("abcd"))
	if strings.Contains(f.last(), "d") {
		t.Fatal("a change past the burst was written within the interval")
	}
	eventually.True(t, 5*interval, "a change within the interval is written when it ends", func() bool { return strings.Contains(f.last(), "d") })
}

// An echo that comes in two reads (the first key of a token alone, the rest behind
// its write) is drawn as each read comes: the second does not wait out the interval
// the first began.
func TestSplitEchoIsNotHeld(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("$ "))
	for i := range 20 {
		time.Sleep(3 * Interval) // a pause between typed tokens
		n := f.count()
		tok := fmt.Sprintf("k%dq", i)
		r.Submit(screen("$ " + tok[:1]))
		r.Submit(screen("$ " + tok))
		if f.count() != n+2 || !strings.Contains(f.last(), tok[1:]) {
			t.Fatalf("token %d: the second half of a split echo was not written at once (writes %d, want %d; last %q)", i, f.count()-n, 2, f.last())
		}
	}
}

// An echo is drawn at once even when the frames before it spent the budget (the
// line before's echo and its answer, the first read of this token's echo): the view
// submitted after a message that carries an echo (SetAtOnce) goes out as it comes, and
// takes with it the change that waited for the interval's end. What follows an echo
// is paced as before.
func TestEchoIsDrawnWhateverTheBudget(t *testing.T) {
	r, f := newTest(t)
	// An interval no stall of a loaded machine comes near: what must wait for its end
	// is not written because the test's goroutine waited for a core.
	const interval = 500 * time.Millisecond
	r.SetInterval(interval)
	r.Start()
	r.Submit(screen("$ "))
	for i := range 3 {
		quiet(r)
		for j := range Burst + 1 { // the budget spent, and one change waiting
			r.Submit(screen(fmt.Sprintf("$ line %d.%d", i, j)))
		}
		n := f.count()
		tok := fmt.Sprintf("k%dq", i)
		r.SetAtOnce(true)
		r.Submit(screen("$ " + tok))
		if f.count() != n+1 || !strings.Contains(f.last(), tok) {
			t.Fatalf("round %d: an echo past the budget was not written at once (writes %d, want 1; last %q)", i, f.count()-n, f.last())
		}
		r.SetAtOnce(false)
		r.Submit(screen("$ " + tok + " more"))
		if strings.Contains(f.last(), "more") {
			t.Fatalf("round %d: a change after the echo, past the budget, was written within the interval", i)
		}
		eventually.True(t, 10*interval, "the change after the echo is written when the interval ends", func() bool { return strings.Contains(f.last(), "more") })
	}
}

// The view after a message that carries an echo is drawn at once even when the
// interval's timer draws the view before it in between (the message's Update, then
// the timer, then its View): the timer's frame does not use up the echo's turn.
func TestEchoAfterATimerFrameIsDrawnAtOnce(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("$ "))
	eventually.True(t, time.Second, "the first frame is written", func() bool { return f.count() > 0 })
	for j := range Burst { // the budget spent
		r.Submit(screen(fmt.Sprintf("$ line %d", j)))
	}
	r.Submit(screen("$ held")) // a change waiting for the timer
	r.SetAtOnce(true)          // the echo's Update
	eventually.True(t, time.Second, "the change that waited is written when the interval ends", func() bool {
		return strings.Contains(f.last(), "held")
	})
	n := f.count()
	r.Submit(screen("$ k1q")) // the echo's View
	if f.count() != n+1 || !strings.Contains(f.last(), "k1q") {
		t.Fatalf("the echo after the timer's frame was not written at once (writes %d, want 1; last %q)", f.count()-n, f.last())
	}
}

// A flood that lasts (a second of updates as fast as they come) draws at most 120
// frames a second, the burst after the quiet spell before it aside.
func TestFloodDrawsAtMost120ASecond(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("start"))
	time.Sleep(3 * Interval)
	n := f.count()
	start := time.Now()
	for i := 0; time.Since(start) < time.Second; i++ {
		r.Submit(screen(fmt.Sprintf("line %d", i)))
	}
	elapsed := time.Since(start)
	frames := f.count() - n
	if limit := int(elapsed/Interval) + Burst; frames > limit {
		t.Fatalf("a flood of %v wrote %d frames, more than %d (120 a second)", elapsed, frames, limit)
	}
	if frames < int(elapsed/Interval)/4 {
		t.Fatalf("a flood of %v wrote only %d frames: the frames lag", elapsed, frames)
	}
}

// Input written in a loop to a run that answers each write (every view an echo) is
// drawn at once only within the echoes' own budget: over a second at most
// EchoRate·T/Interval + EchoBurst frames at once, and the frames' own budget for the
// rest, not one frame per view.
func TestEchoesInALoopArePaced(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("start"))
	time.Sleep(3 * Interval)
	n := f.count()
	start := time.Now()
	for i := 0; time.Since(start) < time.Second; i++ {
		r.SetAtOnce(true)
		r.Submit(screen(fmt.Sprintf("echo %d", i)))
	}
	elapsed := time.Since(start)
	frames := f.count() - n
	if limit := (EchoRate+1)*int(elapsed/Interval) + EchoBurst + Burst; frames > limit {
		t.Fatalf("echoes in a loop for %v wrote %d frames, more than %d", elapsed, frames, limit)
	}
}

func TestResizeRedraws(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.Submit(screen("x"))
	n := f.count()
	r.Resize(50, 12)
	eventually.True(t, time.Second, "a resize redraws the frame in full", func() bool { return f.count() > n && strings.Contains(f.last(), "x") })
}

// A resize does not write the view laid out for the old size on the new one: the
// model's view for the new size, which comes straight after, is the frame drawn.
func TestResizeDrawsTheViewForTheNewSize(t *testing.T) {
	r, f := newTest(t)
	r.SetInterval(time.Second) // the view for the new size comes well within it
	r.Start()
	r.Submit(screen("laid out for 40x10"))
	f.reset()
	r.Resize(50, 12)
	r.Submit(screen("NEW SIZE VIEW"))
	eventually.True(t, 5*time.Second, "the view for the new size is drawn", func() bool { return strings.Contains(f.output(), "NEW SIZE VIEW") })
	if out := f.output(); strings.Contains(out, "laid out") {
		t.Errorf("the old size's view was written on the new size: %q", out)
	}
}

func TestColourKeepsItsForm(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	frames := []struct{ content, want string }{
		{"\x1b[30mA\x1b[m", "30"},                    // palette 0
		{"\x1b[38;2;0;0;0mA\x1b[m", "38;2;0;0;0"},    // rgb(0,0,0): the same value
		{"\x1b[38;5;16mA\x1b[m", "38;5;16"},          // 256-colour 16: the same value again
		{"\x1b[30mA\x1b[m", "30"},                    // back to palette 0
		{"\x1b[48;2;0;0;0mA\x1b[m", "48;2;0;0;0"},    // background too
		{"\x1b[40mA\x1b[48;2;0;0;0mB", "48;2;0;0;0"}, // one pen, two forms in a frame
	}
	for _, fr := range frames {
		time.Sleep(2 * Interval) // each frame written at once
		f.reset()
		r.Submit(screen(fr.content))
		if out := f.output(); !strings.Contains(out, fr.want) {
			t.Errorf("frame %q wrote %q: the colour's form %q is lost", fr.content, out, fr.want)
		}
	}
}

// The terminal's unicode core mode (2027), set when it reported the mode, is reset for
// a pager and set again after it, with the cells still measured by grapheme.
func TestUnicodeCoreAroundAHandOver(t *testing.T) {
	r, f := newTest(t)
	r.Start()
	r.SetGraphemeWidth()
	r.Submit(screen("wide 👍"))
	if !strings.Contains(f.output(), ansi.SetModeUnicodeCore) {
		t.Fatalf("unicode core not set: %q", f.output())
	}
	f.reset()
	r.Stop()
	if !strings.Contains(f.output(), ansi.ResetModeUnicodeCore) {
		t.Fatalf("unicode core not reset for the pager: %q", f.output())
	}
	f.reset()
	r.Start()
	if !strings.Contains(f.output(), ansi.SetModeUnicodeCore) || r.cells.Method != ansi.GraphemeWidth {
		t.Fatalf("unicode core not set again after the pager: %q", f.output())
	}
}

// Two palette forms of one value in one frame (basic black, 256-colour 16; and
// rgb(0,0,0) beside them) keep their forms: the second is not written with the pen the
// first left, which holds the same value.
func TestTwinColoursInOneFrameDoNotShareAPen(t *testing.T) {
	for _, c := range []struct {
		name, content string
		want          map[rune]string // glyph: its colour's form as the terminal was told it
		bg            bool
	}{
		{"fg", "\x1b[30mA\x1b[38;5;16mB\x1b[38;2;0;0;0mC\x1b[30mD\x1b[38;5;0mE", map[rune]string{'A': "30", 'B': "38;5;16", 'C': "38;2;0;0;0", 'D': "30", 'E': "38;5;0"}, false},
		{"bg", "\x1b[40mA\x1b[48;5;16mB\x1b[48;2;0;0;0mC\x1b[48;5;16mD", map[rune]string{'A': "40", 'B': "48;5;16", 'C': "48;2;0;0;0", 'D': "48;5;16"}, true},
		{"bright", "\x1b[97mA\x1b[38;5;231mB\x1b[38;5;15mC", map[rune]string{'A': "97", 'B': "38;5;231", 'C': "38;5;15"}, false},
	} {
		r, f := newTest(t)
		r.Start()
		r.Submit(screen(c.content))
		got := pens(f.output(), c.bg)
		for g, want := range c.want {
			if got[g] != want {
				t.Errorf("%s: %q was written with colour %q, want %q (output %q)", c.name, g, got[g], want, f.output())
			}
		}
	}
}

// pens follows the SGR sequences in out as a terminal would and returns, for each
// letter written, the foreground (or background) colour it was written with, as
// its parameters ("30", "38;5;16", "38;2;0;0;0"; "" for the default).
func pens(out string, bg bool) map[rune]string {
	got := map[rune]string{}
	var fg, bgc string
	for len(out) > 0 {
		if strings.HasPrefix(out, "\x1b[") {
			end := strings.IndexFunc(out[2:], func(r rune) bool { return r >= 0x40 && r <= 0x7e })
			if end < 0 {
				break
			}
			seq, final := out[2:2+end], out[2+end]
			out = out[3+end:]
			if final != 'm' || strings.HasPrefix(seq, "?") {
				continue
			}
			ps := strings.Split(seq, ";")
			for i := 0; i < len(ps); i++ {
				p := ps[i]
				switch {
				case p == "" || p == "0":
					fg, bgc = "", ""
				case p == "39":
					fg = ""
				case p == "49":
					bgc = ""
				case len(p) == 2 && (p[0] == '3' || p[0] == '9') && p[1] <= '7':
					fg = p
				case len(p) == 2 && p[0] == '4' && p[1] <= '7', len(p) == 3 && p[:2] == "10":
					bgc = p
				case (p == "38" || p == "48") && i+1 < len(ps):
					n := 3
					if ps[i+1] == "2" {
						n = 5
					}
					v := strings.Join(ps[i:min(i+n, len(ps))], ";")
					if p == "38" {
						fg = v
					} else {
						bgc = v
					}
					i += n - 1
				}
			}
			continue
		}
		if out[0] == 0x1b { // another escape: skip its introducer
			out = out[2:]
			continue
		}
		r := rune(out[0])
		if r >= 'A' && r <= 'Z' {
			if bg {
				got[r] = bgc
			} else {
				got[r] = fg
			}
		}
		out = out[1:]
	}
	return got
}

// A frame drawn from only its changed lines holds the cells a parse of its whole
// content would: styles left open across lines, resets, hyperlinks and changed
// lines anywhere, frame after frame.
func TestChangedLinesDrawnAsTheWhole(t *testing.T) {
	const w, h = 30, 8
	r := New(&fakeTerm{}, []string{"TERM=xterm-256color"}, w, h)
	r.Start()
	t.Cleanup(r.Stop)
	rng := rand.New(rand.NewPCG(36, 1))
	pieces := []string{"plain text", "\x1b[1;31mbold red\x1b[m", "\x1b[32mgreen left open", "\x1b[0m after reset",
		"\x1b[44;97m blue \x1b[0m", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "wide 中文", "\x1b[7mrev\x1b[27m", ""}
	lines := make([]string, h)
	for i := range lines {
		lines[i] = pieces[0]
	}
	for round := range 300 {
		for range 1 + rng.IntN(3) {
			lines[rng.IntN(h)] = pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))]
		}
		prev := r.lines
		content := strings.Join(lines[:h-rng.IntN(2)], "\n")
		r.mu.Lock()
		r.want, r.have = screen(content), true
		r.draw()
		got := r.cells.Lines
		want := uv.NewScreenBuffer(w, h)
		uv.NewStyledString(content).Draw(want, want.Bounds())
		for y := range h {
			for x := range w {
				g, e := got[y][x], want.Lines[y][x]
				if g.Content != e.Content || g.Width != e.Width || !g.Style.Equal(&e.Style) || !g.Link.Equal(&e.Link) {
					r.mu.Unlock()
					t.Fatalf("round %d: cell %d,%d is %q %+v, a whole parse gives %q %+v\ncontent %q\nbefore %q", round, x, y, g.Content, g.Style, e.Content, e.Style, content, prev)
				}
			}
		}
		r.mu.Unlock()
	}
}

// TestLineBelowAChangeThatLeavesAStyleOpen: a changed line that now leaves a style
// (or a hyperlink) open colours the unchanged line below it, as a whole parse does.
func TestLineBelowAChangeThatLeavesAStyleOpen(t *testing.T) {
	const w, h = 20, 4
	for _, c := range []struct{ name, before, after string }{
		{"style", "top\x1b[m\nabove\x1b[m\nbelow", "top\x1b[m\n\x1b[31mabove\nbelow"},
		{"link", "top\nabove\nbelow", "top\n\x1b]8;;http://x\x1b\\above\nbelow"},
		{"style changes", "\x1b[31mtop\nbelow", "\x1b[32mtop\nbelow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(&fakeTerm{}, []string{"TERM=xterm-256color"}, w, h)
			r.Start()
			t.Cleanup(r.Stop)
			for _, content := range []string{c.before, c.after} {
				r.mu.Lock()
				r.want, r.have = screen(content), true
				r.draw()
				want := uv.NewScreenBuffer(w, h)
				uv.NewStyledString(content).Draw(want, want.Bounds())
				for y := range h {
					for x := range w {
						g, e := r.cells.Lines[y][x], want.Lines[y][x]
						if g.Content != e.Content || !g.Style.Equal(&e.Style) || !g.Link.Equal(&e.Link) {
							r.mu.Unlock()
							t.Fatalf("cell %d,%d is %q %+v %+v, a whole parse gives %q %+v %+v\ncontent %q", x, y, g.Content, g.Style, g.Link, e.Content, e.Style, e.Link, content)
						}
					}
				}
				r.mu.Unlock()
			}
		})
	}
}
