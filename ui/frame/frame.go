// Package frame draws the UI's frames on the terminal when something on screen
// changed, instead of on Bubble Tea's fixed ticker.
//
// What it replaces, and why: Bubble Tea v2.1.1 writes a frame only on a 60 Hz
// ticker (tea.go's startRenderer; its only other flush is at stop). That adds half a
// tick, 8.3 ms on average, to every key's echo, and the ticker keeps an attached UI
// awake 60 times a second with nothing happening (0.9 % of a core, where a tmux
// client costs about nothing); tea.WithFPS(120) halves the wait and doubles the idle
// cost. So Bubble Tea runs here without its renderer (tea.WithoutRenderer): it still
// runs the Model, Update, commands and input, and this package owns the output side
// on the same ultraviolet renderer Bubble Tea uses: the modes (alternate screen,
// mouse, focus, bracketed paste, kitty keyboard, cursor, window title, synchronized
// output where the terminal has it) set and restored as Bubble Tea does them, raw
// mode, resize, a stop from the shell (SIGTSTP) and fg, handing the terminal to a
// pager and back, and giving it back before a panic is printed.
//
// When a frame is drawn: at once after an Update that changed the view if the last
// frame is at least Interval (1/120 s) old, or is one of the first Burst (3) after a
// quiet spell (an echo that came in two reads is not held for an interval); else at
// the end of that interval with whatever the view is then (a flood still draws at most
// 120 frames a second), and never while nothing changed: there is no ticker. The view
// after a message that carries the echo of what was typed (AtOncer, SetAtOnce) is drawn
// at once whatever the frames' budget, within a budget of echoes of its own (EchoRate,
// EchoBurst): echoes come as fast as input, not as output. Only the
// lines of the view that changed are parsed again (lines.go): the rest of the cells,
// and ultraviolet's diff of them, are the frame before's.
//
// A colour keeps its form: ultraviolet compares colours by their RGB value, so a cell
// that changes from palette black to rgb(0,0,0) (or to 256-colour 16) would not be
// re-sent, and a pen already set to one form would be reused for the other. RGB
// colours are given an alpha one short of opaque (which nothing writes) so that they
// never compare equal to a palette colour, and a frame in which a palette colour
// changed form but not value is drawn in full. Two palette colours of one value in
// one frame (basic black and 256-colour 16) would share ultraviolet's one pen, the
// second written in the first's form: in such a frame each cell of either sets its
// colour itself, in front of its glyph.
//
// Measured side by side with Bubble Tea's renderer (2 cores, shared; BENCHMARKS.md,
// "Frames on demand"): server + attached UI over 50 idle PTY shells 1.07 → 0.18 % of a
// core (the UI alone 1.00 → 0.12 %); typed echo in an outer tmux, 200 keys, p50 with
// the run in the UI's process (--local) 17.9 → 12.3 ms, attached 20.0 → 19.3 ms, against
// a bare tmux pane's 6.4 ms. With the burst and the changed lines ("the echo path and the
// clock"): from the UI's read of a key to its echo's frame written, attached 13.1 → 3.1
// ms and --local 4.7 → 1.9 ms (p50, timestamped hops).
//
// Bubble Tea runs a ticker of its own even without its renderer, once a second at
// least, with nothing to do here: it is stopped (ticker.go).
//
// When Bubble Tea ships a renderer that draws on demand, drop this package: NewProgram
// becomes tea.NewProgram again and ExecProcess tea.ExecProcess. CORRAL_RENDERER=bubbletea
// selects Bubble Tea's renderer today, should a terminal misbehave with this one.
package frame

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"runtime"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/lucasb-eyer/go-colorful"

	"corral/ptyhost/hoptrace"
)

// Interval is the shortest time between two frames under load: 1/120 s.
const Interval = time.Second / 120

// Burst is how many frames may be drawn back to back after a quiet spell: a typed
// key's echo often comes in two or three reads a millisecond or two apart (the first
// key of a token alone, the rest queued behind its write; a shell that echoes, then
// redraws), and the second must not wait out an interval. Over any span T at most
// T/Interval + Burst frames are drawn, so a flood still draws 120 a second.
const Burst = 3

// Views drawn at once whatever the budget (SetAtOnce) have a budget of their own:
// EchoRate times the frames' pace, EchoBurst back to back. Typing, even key repeat,
// stays within it; input written in a loop to a run that answers each write is drawn
// as any change past it, so over a span T at most EchoRate·T/Interval + EchoBurst
// frames are drawn at once.
const (
	EchoRate  = 4
	EchoBurst = 10
)

// Renderer draws tea.Views on a terminal's output on demand. Its methods are safe
// for concurrent use.
type Renderer struct {
	mu       sync.Mutex
	out      io.Writer
	env      []string
	interval time.Duration

	buf   bytes.Buffer // what the ultraviolet renderer queued for this frame
	scr   *uv.TerminalRenderer
	cells uv.ScreenBuffer
	forms []uint32 // each drawn cell's palette colour forms (see form)
	// rowForms is each row's palette colours (fg and bg), a bit per form (keepForms).
	rowForms [][512 / 64]uint64
	width    int
	height   int
	profile  colorprofile.Profile
	syncd    bool // the terminal has synchronized output (mode 2026)

	want tea.View  // the latest view
	have bool      // want was submitted
	last *tea.View // the view on screen; nil before the first frame after Start
	// spent is when the frames written so far would have paid for themselves at one
	// interval each (a token bucket kept as one time): a frame may be drawn at once
	// while spent is less than Burst intervals ahead of now.
	spent    time.Time
	timer    *time.Timer
	timerGen int  // which arming of timer is current
	erase    bool // a full redraw is due (resize)
	// lines is the content of the frame on screen, by line, and clean which of them
	// begin with no style or link open (see drawLines).
	lines []string
	clean []bool
	// infos is what each of lines holds (lineInfo); infoSpare the slice before, reused.
	infos, infoSpare []lineInfo
	// drawn is which rows of r.cells the frame being drawn wrote (nil: all of them);
	// onScreen is the set of r.lines, for movedLines.
	drawn    []bool
	onScreen map[string]struct{}
	// penPrefixed: the frame's cells were given their colours in front of their glyphs
	// (penPerCell); prefixed: the frame on screen's were, so the next is parsed whole.
	penPrefixed, prefixed bool
	// scrolling: the last frame let ultraviolet scroll rows to move lines (a line
	// moved: movedLines).
	scrolling bool
	running   bool
	// atOnce: the view submitted next answers input (an echo: SetAtOnce) and is drawn
	// at once, whatever the budget.
	atOnce bool
	// echoSpent is spent for views drawn at once: their own budget (EchoRate).
	echoSpent time.Time
}

// scrollOptim: rows may be scrolled on the terminal to move lines (as Bubble Tea: not
// on Windows, where some terminals scroll wrong).
const scrollOptim = runtime.GOOS != "windows"

// New is a renderer writing to out, for a terminal of width×height whose
// environment is env (TERM decides the cursor movements it uses).
func New(out io.Writer, env []string, width, height int) *Renderer {
	r := &Renderer{out: out, env: env, interval: Interval, width: width, height: height, profile: colorprofile.TrueColor}
	r.cells = uv.NewScreenBuffer(width, height)
	r.reset()
	return r
}

// reset starts a new ultraviolet renderer: it knows nothing of what is on screen.
func (r *Renderer) reset() {
	r.buf.Reset()
	scr := uv.NewTerminalRenderer(&r.buf, r.env)
	scr.SetColorProfile(r.profile)
	scr.SetRelativeCursor(true)
	scr.SetFullscreen(false)
	scr.SetTabStops(-1)
	scr.SetScrollOptim(scrollOptim)
	scr.Resize(r.width, r.height)
	r.scr = scr
	r.forms = r.forms[:0]
}

// SetInterval sets the shortest time between two frames.
func (r *Renderer) SetInterval(d time.Duration) {
	r.mu.Lock()
	r.interval = d
	r.mu.Unlock()
}

// SetColorProfile sets the colours the terminal has.
func (r *Renderer) SetColorProfile(p colorprofile.Profile) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p == r.profile {
		return
	}
	r.profile = p
	r.scr.SetColorProfile(p)
	r.scr.Erase() // what is on screen was drawn in the colours of the profile before
	r.erase = true
	r.schedule()
}

// SetSynchronized says whether the terminal has synchronized output: a frame is then
// written between its begin and end marks, shown at once.
func (r *Renderer) SetSynchronized(on bool) {
	r.mu.Lock()
	r.syncd = on
	r.mu.Unlock()
}

// SetGraphemeWidth turns the terminal's unicode core mode (2027) on and measures
// cells by grapheme, as Bubble Tea does when the terminal reports the mode.
func (r *Renderer) SetGraphemeWidth() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cells.Method == ansi.GraphemeWidth {
		return
	}
	r.cells.Method = ansi.GraphemeWidth
	r.write(ansi.SetModeUnicodeCore)
}

// Write writes s to the terminal at once, between frames (an OSC 52 copy, a
// notification): Bubble Tea's tea.Raw.
func (r *Renderer) Write(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.write(s)
}

func (r *Renderer) write(s string) {
	_, _ = io.WriteString(r.out, s)
}

// Resize says the terminal is now width×height: the next frame is drawn in full,
// an interval later at the latest (the model's view for the new size comes meanwhile).
func (r *Renderer) Resize(width, height int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if width == r.width && height == r.height {
		return
	}
	r.width, r.height = width, height
	r.scr.Erase()
	r.scr.Resize(width, height)
	r.erase = true
	// The view wanted is the model's for the old size; its view for the new one comes
	// with the size's message, straight after: wait an interval for it rather than
	// write the old layout, in full, on the new size first.
	if r.running && r.timer == nil {
		r.arm(r.interval)
	}
}

// Submit gives the renderer the view after an Update. It is drawn at once if it
// differs from the view on screen and the frames before it left room (the last is at
// least an interval old, or fewer than Burst came back to back after a quiet spell),
// else when the interval ends; an unchanged view is never drawn.
func (r *Renderer) Submit(v tea.View) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v.Cursor != nil { // drawn later, maybe on the timer's goroutine: its own copy
		c := *v.Cursor
		v.Cursor = &c
	}
	r.want, r.have = v, true
	r.schedule()
	// Its turn is this view's, drawn or not: not a frame the timer drew between the
	// echo's Update and this view, which was the view before it.
	r.atOnce = false
}

// schedule draws now, arms the timer for the end of the interval, or does nothing
// when the screen already shows the view.
func (r *Renderer) schedule() {
	// A resize waits for the view of its size; echoes past their budget are paced.
	atOnce := r.atOnce && !r.erase && !time.Now().Before(r.echoSpent.Add(-(EchoBurst-1)*(r.interval/EchoRate)))
	if !r.running || !r.have || r.timer != nil && !atOnce || r.unchanged() {
		if hoptrace.On() {
			hoptrace.Mark("fr.skip", fmt.Sprintf("running=%v timer=%v", r.running, r.timer != nil))
		}
		return
	}
	if wait := time.Until(r.spent.Add(-(Burst - 1) * r.interval)); wait > 0 && !atOnce {
		if hoptrace.On() {
			hoptrace.Mark("fr.held", wait.String())
		}
		r.arm(wait)
		return
	}
	if atOnce {
		r.echoSpent = later(r.echoSpent, time.Now()).Add(r.interval / EchoRate)
	}
	if r.timer != nil { // an echo: what the timer waited to draw goes with it
		r.timer.Stop()
		r.timer = nil
		r.timerGen++
	}
	r.draw()
}

// SetAtOnce says whether the view submitted next answers input, an echo of what was
// typed: it is drawn at once, whatever the budget (its frame still spends an interval
// of it, so what follows is paced). Echoes are bounded by the input (a few reads per
// write to the run) and by a budget of their own (EchoRate, EchoBurst), not by the
// frames'; a flood's frames are not echoes. Without it
// an echo in a few reads, after the frames of the line before (its Enter's echo and
// the app's answer), waited out the budget.
func (r *Renderer) SetAtOnce(on bool) {
	r.mu.Lock()
	r.atOnce = on
	r.mu.Unlock()
}

// arm sets the timer to draw what is wanted then, if it differs from the screen.
func (r *Renderer) arm(wait time.Duration) {
	r.timerGen++
	gen := r.timerGen
	r.timer = time.AfterFunc(wait, func() { r.onTimer(gen) })
}

// onTimer draws at the end of the interval, unless the timer it was armed by was
// stopped meanwhile (Stop, while it waited for the lock).
func (r *Renderer) onTimer(gen int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if gen != r.timerGen {
		return
	}
	r.timer = nil
	hoptrace.Mark("fr.timer", "")
	if r.running && r.have && !r.unchanged() {
		r.draw()
	}
}

// unchanged reports whether the screen shows the view wanted.
func (r *Renderer) unchanged() bool {
	return r.last != nil && !r.erase && viewEqual(r.last, &r.want)
}

// Start takes the terminal's output: the next frame sets every mode the view asks
// for and draws in full.
func (r *Renderer) Start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return
	}
	r.running = true
	if r.cells.Method == ansi.GraphemeWidth {
		r.write(ansi.SetModeUnicodeCore) // Stop reset it
	}
	r.schedule()
}

// Stop gives the terminal's output back as it was before Start: it leaves the
// alternate screen and resets every mode the last frame set. A later Start takes it
// again (a pager, ctrl+z).
func (r *Renderer) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
		r.timerGen++
	}
	if !r.running {
		return
	}
	r.running = false
	lv := r.last
	if lv == nil {
		return
	}
	r.buf.Reset()
	var b bytes.Buffer
	b.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	r.scr.MoveTo(0, r.cells.Height()-1)
	_ = r.scr.Flush()
	b.Write(r.buf.Bytes())
	if lv.AltScreen {
		b.WriteString(ansi.ResetModeAltScreenSaveCursor)
	} else {
		b.WriteString(ansi.EraseScreenBelow)
	}
	if lv.Cursor == nil {
		b.WriteString(ansi.SetModeTextCursorEnable)
	}
	if !lv.DisableBracketedPasteMode {
		b.WriteString(ansi.ResetModeBracketedPaste)
	}
	if lv.ReportFocus {
		b.WriteString(ansi.ResetModeFocusEvent)
	}
	if lv.MouseMode != tea.MouseModeNone {
		b.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if lv.WindowTitle != "" {
		b.WriteString(ansi.SetWindowTitle(""))
	}
	if c := lv.Cursor; c != nil {
		if s := cursorStyle(c); s != 0 && s != 1 {
			b.WriteString(ansi.SetCursorStyle(0))
		}
		if c.Color != nil {
			b.WriteString(ansi.ResetCursorColor)
		}
	}
	if lv.BackgroundColor != nil {
		b.WriteString(ansi.ResetBackgroundColor)
	}
	if lv.ForegroundColor != nil {
		b.WriteString(ansi.ResetForegroundColor)
	}
	if r.cells.Method == ansi.GraphemeWidth {
		b.WriteString(ansi.ResetModeUnicodeCore)
	}
	_, _ = r.out.Write(b.Bytes())
	r.last = nil
	r.spent = time.Time{} // the next Start draws at once
	r.reset()
}

// draw writes the frame that takes the screen from r.last to r.want.
func (r *Renderer) draw() {
	v := r.want
	lv := r.last
	first := lv == nil
	area := uv.Rect(0, 0, r.width, r.height)
	content := uv.NewStyledString(v.Content)
	if v.Content == "" {
		area.Max.Y = 0
	}
	if !v.AltScreen {
		area.Max.Y = content.Height() // inline: as tall as the content
	}
	full := r.erase || area != r.cells.Bounds() || !v.AltScreen || first || r.prefixed
	if r.erase || area != r.cells.Bounds() {
		r.scr.Erase()
		r.cells.Touched = nil
		r.cells.Resize(area.Dx(), area.Dy())
	}
	r.erase = false
	// Scrolling rows is tried only when a line moved (it cannot help otherwise, and
	// finding out costs a hash of every row); uv rehashes every row each frame it
	// tries, so skipping it for a frame leaves nothing stale behind.
	r.scrolling = r.drawLines(v.Content, full) && scrollOptim
	r.scr.SetScrollOptim(r.scrolling)
	if h := area.Dy(); h > r.height {
		r.cells.Lines = r.cells.Lines[h-r.height:]
		r.drawn = nil // its rows moved
	}
	if r.keepForms() {
		r.scr.Erase()
	}
	r.prefixed = r.penPrefixed

	altChange := first && v.AltScreen || !first && lv.AltScreen != v.AltScreen
	if altChange {
		if v.AltScreen {
			r.scr.SaveCursor()
			r.scr.SetFullscreen(true)
			r.scr.SetRelativeCursor(false)
			r.scr.Erase()
		} else {
			r.scr.Erase()
			r.scr.SetRelativeCursor(true)
			r.scr.SetFullscreen(false)
			r.scr.RestoreCursor()
		}
	}
	r.modes(lv, &v)
	r.scr.Render(r.cells.RenderBuffer)
	if c := v.Cursor; c != nil {
		r.scr.MoveTo(c.X, c.Y)
	} else if !v.AltScreen {
		if x, y := r.scr.Position(); x >= r.width-1 {
			r.scr.MoveTo(0, y) // no dangling cursor that could wrap the line
		}
	}
	_ = r.scr.Flush()

	updates := r.buf.Len() > 0
	wasShown := !first && lv.Cursor != nil
	show := v.Cursor != nil
	visChange := first || wasShown != show || altChange
	var b bytes.Buffer
	if altChange {
		// The kitty keyboard stack is kept per screen: reset before switching.
		b.WriteString(ansi.ResetModifyOtherKeys)
		if !first {
			b.WriteString(ansi.PopKittyKeyboard(1))
		}
		if v.AltScreen {
			b.WriteString(ansi.SetModeAltScreenSaveCursor)
		} else {
			b.WriteString(ansi.ResetModeAltScreenSaveCursor)
		}
	}
	if r.syncd {
		if updates {
			b.WriteString(ansi.SetModeSynchronizedOutput)
		}
		if visChange && !show {
			b.WriteString(ansi.ResetModeTextCursorEnable)
		}
	} else if visChange && !show || updates && show && wasShown {
		b.WriteString(ansi.ResetModeTextCursorEnable)
	}
	b.Write(r.buf.Bytes())
	if r.syncd {
		if visChange && show {
			b.WriteString(ansi.SetModeTextCursorEnable)
		}
		if updates {
			b.WriteString(ansi.ResetModeSynchronizedOutput)
		}
	} else if visChange && show || updates && show && wasShown {
		b.WriteString(ansi.SetModeTextCursorEnable)
	}
	r.buf.Reset()
	if b.Len() > 0 {
		_, _ = r.out.Write(b.Bytes())
	}
	hoptrace.MarkBytes("fr.draw", b.Bytes())
	r.last = &v
	r.spent = later(r.spent, time.Now()).Add(r.interval)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// modes queues the mode changes from lv (nil: none set yet) to v.
func (r *Renderer) modes(lv, v *tea.View) {
	first := lv == nil
	w := func(s string) { _, _ = r.scr.WriteString(s) }
	if first || v.DisableBracketedPasteMode != lv.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			w(ansi.SetModeBracketedPaste)
		} else if !first {
			w(ansi.ResetModeBracketedPaste)
		}
	}
	if first || v.ReportFocus != lv.ReportFocus {
		if v.ReportFocus {
			w(ansi.SetModeFocusEvent)
		} else if !first {
			w(ansi.ResetModeFocusEvent)
		}
	}
	if first || v.MouseMode != lv.MouseMode {
		was := tea.MouseModeNone
		if !first {
			was = lv.MouseMode
		}
		switch v.MouseMode {
		case tea.MouseModeNone:
			if was != tea.MouseModeNone {
				w(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
			}
		case tea.MouseModeCellMotion:
			if was == tea.MouseModeAllMotion {
				w(ansi.ResetModeMouseAnyEvent)
			}
			w(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			if was == tea.MouseModeCellMotion {
				w(ansi.ResetModeMouseButtonEvent)
			}
			w(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if first && v.WindowTitle != "" || !first && v.WindowTitle != lv.WindowTitle {
		w(ansi.SetWindowTitle(v.WindowTitle))
	}
	if first || v.KeyboardEnhancements != lv.KeyboardEnhancements || v.AltScreen != lv.AltScreen {
		w(ansi.SetModifyOtherKeys2)
		flags := kittyFlags(v.KeyboardEnhancements)
		if first || v.AltScreen != lv.AltScreen {
			w(ansi.PushKittyKeyboard(flags)) // a new entry for this screen
		} else {
			w(ansi.KittyKeyboard(flags, 1)) // same screen: change the entry in place
		}
		w(ansi.RequestKittyKeyboard)
	}
	var lcc, lfg, lbg, cc color.Color
	if v.Cursor != nil {
		cc = v.Cursor.Color
	}
	if !first {
		if lv.Cursor != nil {
			lcc = lv.Cursor.Color
		}
		lfg, lbg = lv.ForegroundColor, lv.BackgroundColor
	}
	for _, c := range []struct {
		now, was color.Color
		reset    string
		set      func(string) string
	}{
		{cc, lcc, ansi.ResetCursorColor, ansi.SetCursorColor},
		{v.ForegroundColor, lfg, ansi.ResetForegroundColor, ansi.SetForegroundColor},
		{v.BackgroundColor, lbg, ansi.ResetBackgroundColor, ansi.SetBackgroundColor},
	} {
		if c.now == c.was {
			continue
		}
		if c.now == nil {
			w(c.reset)
		} else if col, ok := colorful.MakeColor(c.now); ok {
			w(c.set(col.Hex()))
		}
	}
	var was int
	if !first && lv.Cursor != nil {
		was = cursorStyle(lv.Cursor)
	}
	var now int
	if v.Cursor != nil {
		now = cursorStyle(v.Cursor)
	}
	if now != was {
		w(ansi.SetCursorStyle(now))
	}
}

// cursorStyle is the DECSCUSR number for c's shape and blinking.
func cursorStyle(c *tea.Cursor) int {
	s := int(c.Shape)*2 + 1
	if !c.Blink {
		s++
	}
	return s
}

func kittyFlags(ke tea.KeyboardEnhancements) int {
	f := ansi.KittyDisambiguateEscapeCodes
	if ke.ReportEventTypes {
		f |= ansi.KittyReportEventTypes
	}
	if ke.ReportAlternateKeys {
		f |= ansi.KittyReportAlternateKeys
	}
	if ke.ReportAllKeysAsEscapeCodes {
		f |= ansi.KittyReportAllKeysAsEscapeCodes
	}
	if ke.ReportAssociatedText {
		f |= ansi.KittyReportAssociatedKeys
	}
	return f
}

// viewEqual reports whether a and b put the same on screen and set the same modes.
func viewEqual(a, b *tea.View) bool {
	if a.Content != b.Content || a.AltScreen != b.AltScreen || a.DisableBracketedPasteMode != b.DisableBracketedPasteMode ||
		a.ReportFocus != b.ReportFocus || a.MouseMode != b.MouseMode || a.WindowTitle != b.WindowTitle ||
		a.ForegroundColor != b.ForegroundColor || a.BackgroundColor != b.BackgroundColor ||
		a.KeyboardEnhancements != b.KeyboardEnhancements {
		return false
	}
	if (a.Cursor == nil) != (b.Cursor == nil) {
		return false
	}
	return a.Cursor == nil || *a.Cursor == *b.Cursor
}
