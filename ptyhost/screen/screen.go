package screen

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"corral/ptyhost/keys"

	"github.com/hinshun/vt10x"
)

// Screen is the terminal screen of one PTY run. It is vt10x behind a wrapper that
// works around the emulator's defects, which the package doc lists with the
// inputs that show them:
//
//   - Write normalises the byte stream before vt10x sees it (screen_scan.go,
//     screen_csi.go): whole UTF-8 sequences only, sequences vt10x mis-executes
//     rewritten or dropped, strings (DCS, APC, OSC 52, …) dropped, and the modes,
//     title, bells and notifications vt10x ignores tracked here.
//   - A panic inside vt10x is recovered; the emulator restarts blank at the same
//     size and State().Err says why.
//   - Cells vt10x cannot hold (wide characters, combining marks, dim, hidden,
//     strikethrough, overline, underline styles and colours) are fed as stand-in
//     runes that vt10x stores and moves like any other (screen_cells.go,
//     screen_text.go), and Render turns them back (screen_render.go).
//   - The lines that scroll off the main screen are kept as tmux keeps them
//     (screen_history.go), and Scrollback returns them with the screen.
//
// vt10x never leaves these files, so a width-aware emulator could replace it here
// alone. Write is meant for the run's reader goroutine and everything else for
// the UI; all methods are safe for concurrent use.
type Screen struct {
	// wmu serialises Write and owns replies, the answers to the run's queries in
	// stream order; they are written to the reply writer after mu is released,
	// so a slow writer never holds up Render.
	wmu     sync.Mutex
	replies []byte

	mu         sync.Mutex
	term       *lazyTerm // vt10x, brought up by the first write (screen_blank.go)
	cols, rows int
	reply      io.Writer
	scan       vtScanner // stream normaliser state (screen_scan.go)
	csi        vtCSI     // the control sequence being rewritten (screen_csi.go)
	region     vtRegion  // vt10x's scroll region (screen_scroll.go)
	tabs       tabStops  // vt10x's tab stops (screen_tabs.go)
	hist       vtHistory // the lines that left the main screen (screen_history.go)
	// out holds normalised bytes not yet fed to vt10x; between Writes it keeps
	// only a pending run of text, colours and line erasures, fed when the screen
	// is next read (screen_lazy.go), which may end in the start of a UTF-8
	// sequence split across reads.
	out   []byte
	lazy  vtLazy
	track vtTracked
	// pen is the extras (screen_cells.go) text is written with now, saved the
	// pen DECSC saved; cells interns the runes that stand for extras and marks.
	pen, saved vtExtra
	cells      vtCells
	focus      vtFocus  // what the app was last told of its focus (screen_focus.go)
	buf        []byte   // Render's and Text's output, reused
	drawn      rendered // where the last Render's lines are in buf (screen_render.go)
	padded     []byte   // the feeder's text with the pads of wide characters (screen_wide.go)
	scratch    []byte   // the feeder's own sequences (screen_erase.go)
	// feedHook, set by tests only, runs before each feed to vt10x and may panic.
	feedHook func([]byte)

	version atomic.Uint64
}

// vtTracked is what the wrapper follows itself because vt10x ignores it.
type vtTracked struct {
	paste     bool   // ?2004 bracketed paste
	sync      bool   // ?2026 synchronized output
	shape     int    // DECSCUSR Ps
	title     string // OSC 0/2, cleaned
	attention uint64 // bells + notifications
	activity  activity
	notice    string // last notification text, "" after a bare bell
	err       string // last recovered emulator panic
	focus     bool   // ?1004 focus reporting
}

// ScreenState is what the UI needs besides the rendered text.
type ScreenState struct {
	Modes       keys.Modes `json:"modes"`        // AppCursor (from vt10x), BracketedPaste (tracked here)
	SyncOutput  bool       `json:"sync_output"`  // ?2026 set: the app is mid-frame; a renderer may hold the previous frame
	FocusEvents bool       `json:"focus_events"` // ?1004
	MouseMode   int        `json:"mouse_mode"`   // 0 off, else the xterm mode last enabled: 9, 1000, 1002 or 1003
	MouseSGR    bool       `json:"mouse_sgr"`    // ?1006
	AltScreen   bool       `json:"alt_screen"`
	// CursorX is a display column of Render's output, CursorY a line.
	CursorX       int    `json:"cursor_x"`
	CursorY       int    `json:"cursor_y"`
	CursorVisible bool   `json:"cursor_visible"`
	CursorShape   int    `json:"cursor_shape"` // DECSCUSR Ps (0 default)
	Title         string `json:"title"`        // OSC 0/2 without control characters; for display only
	Attention     uint64 `json:"attention"`    // count of bells + notifications so far
	LastNotice    string `json:"last_notice"`  // text of the last OSC 9/777 notification ("" for a bare bell)
	Err           string `json:"err"`          // last recovered emulator panic, "" if none
}

// MaxCols and MaxRows bound a screen's size, what a terminal can be: vt10x allocates
// two cell arrays of cols×rows (at 1000×500 about 16 MB, at 65535×65535 it would be
// terabytes).
const (
	MaxCols = 1000
	MaxRows = 500
)

// maxScreenDim is the bound of the columns (MaxCols).
const maxScreenDim = MaxCols

// NewScreen returns a blank screen; its size is clamped to 1…MaxCols × 1…MaxRows.
func NewScreen(cols, rows int) *Screen {
	s := &Screen{}
	s.cols, s.rows = clampDim(cols), clampRows(rows)
	s.term = s.newTerm()
	return s
}

func clampDim(n int) int  { return min(max(n, 1), maxScreenDim) }
func clampRows(n int) int { return min(max(n, 1), MaxRows) }

// shrinkKeep is the capacity of a reused buffer kept when the screen shrinks; a
// larger one (Render's output of a big screen) is dropped with the cells it showed.
const shrinkKeep = 64 << 10

// newTerm makes a blank emulator of the current size, whose scroll region is the
// whole screen. Its answers (DSR 5, CPR) join ours in replies, in stream order.
func (s *Screen) newTerm() *lazyTerm {
	s.region, s.tabs = vtRegion{top: 0, bottom: s.rows - 1}, nil
	return newLazyTerm(s.cols, s.rows, vtReplySink{s})
}

// vtReplySink appends vt10x's answers to replies. vt10x writes only while it
// parses, that is inside Write, where wmu is held.
type vtReplySink struct{ s *Screen }

func (r vtReplySink) Write(p []byte) (int, error) {
	r.s.replies = append(r.s.replies, p...)
	return len(p), nil
}

// Write feeds output bytes of the run. It always consumes all of p and never
// fails or panics. Answers to the run's queries go to the reply writer.
func (s *Screen) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if s.process(p) {
		s.version.Add(1)
	}
	w := s.reply
	s.mu.Unlock()
	if len(s.replies) > 0 && w != nil {
		_, _ = w.Write(s.replies) // the run may be gone; its input is best effort
	}
	s.replies = s.replies[:0]
	return len(p), nil
}

// process scans p and feeds the result to vt10x; it reports whether anything
// changed. A panic in the wrapper's own code is recovered like one in vt10x:
// a screen must not take down the run's reader.
func (s *Screen) process(p []byte) (changed bool) {
	before := s.track
	defer func() {
		if r := recover(); r != nil {
			s.restart(fmt.Sprintf("screen: %v", r))
			changed = true
		}
	}()
	s.resetChanges()
	s.beginWrite()
	s.scanBytes(p)
	// Pending text is not in vt10x yet but will be by the next look: it counts.
	grew := s.settle()
	return s.track != before || s.emuChanged() || grew
}

// restart replaces a broken emulator with a blank one of the same size and
// forgets any half-read sequence.
func (s *Screen) restart(why string) {
	s.track.err = why
	s.term = s.newTerm()
	s.scan.reset()
	s.out = s.out[:0]
	s.lazy.reset()
	s.lazy.tape = nil
	s.hist.dropTapes()                                        // their keys are gone with the table
	s.pen, s.saved, s.cells = vtExtra{}, vtExtra{}, vtCells{} // no cell holds a key any more
}

// vtChanges is vt10x's change flag, set by everything that touches the screen
// or the cursor and cleared by the public Unlock.
type vtChanges interface{ Changed(vt10x.ChangeFlag) bool }

func (s *Screen) resetChanges() {
	s.term.Lock()
	s.term.Unlock()
}

func (s *Screen) emuChanged() bool {
	return s.term.Changed(vt10x.ChangedScreen | vt10x.ChangedTitle)
}

// flush feeds the normalised bytes to vt10x, keeping back the start of a
// UTF-8 sequence cut by the end of a read: vt10x's Write would return a short
// count for it and then lose the rest of the character (defect #16).
func (s *Screen) flush() {
	n := completeUTF8(s.out)
	if n > 0 {
		s.feedOut(n)
	}
	s.out = s.out[:copy(s.out, s.out[n:])]
	s.scan.cell.drop(n, len(s.out))
	s.lazy.reset()
}

// completeUTF8 returns the length of the longest prefix of p that does not end
// inside a UTF-8 sequence that later bytes could complete.
func completeUTF8(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		switch b := p[i]; {
		case b < 0x80:
			return len(p)
		case b >= 0xc0:
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}

// feed runs vt10x on p, recovering from its panics (defect #6; the
// normaliser removes the inputs known to cause them).
func (s *Screen) feed(p []byte) {
	s.safely(func() {
		if s.feedHook != nil {
			s.feedHook(p)
		}
		s.feedCells(p) // p ends on a rune boundary and holds whole cells
	})
}

// SetReply sets where answers to the run's queries go: the run's input. It is
// called with each Write's answers after the screen is unlocked and must not
// keep the slice. Nil drops answers.
func (s *Screen) SetReply(w io.Writer) {
	s.mu.Lock()
	s.reply = w
	s.mu.Unlock()
}

// Resize changes the screen size (each dimension clamped to 1…1000). Lines are
// cut or padded, never reflowed; the app redraws on SIGWINCH.
func (s *Screen) Resize(cols, rows int) {
	cols, rows = clampDim(cols), clampRows(rows)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resizeLocked(cols, rows)
}

// resizeLocked is Resize, with s.mu held and the size clamped.
func (s *Screen) resizeLocked(cols, rows int) {
	if cols == s.cols && rows == s.rows {
		return
	}
	if cols*rows < s.cols*s.rows {
		// The emulator's cells are made anew at the new size; the buffers sized to
		// the old one go with them.
		for _, b := range []*[]byte{&s.buf, &s.drawn.next, &s.padded, &s.scratch} {
			if cap(*b) > shrinkKeep {
				*b = nil
			}
		}
	}
	s.catchUp() // pending text was written at the old size
	s.closeTape()
	if cur := s.term.Cursor(); cur.Y >= rows {
		s.keepRows(0, cur.Y-rows+1) // what vt10x slides off the top goes where tmux's goes
	}
	s.cols, s.rows = cols, rows // first: a restarted emulator must get the new size
	s.resizeTerm(cols, rows)
	s.version.Add(1)
}

// resizeTerm works around vt10x sliding both screens up by the current
// cursor's overflow (defect #10): when vim or less sits on the
// alternate screen with its cursor on the last line, shrinking would push
// lines of the main screen off the top for good. On the alternate screen the
// cursor goes home first (the app repaints on SIGWINCH anyway) and back after.
func (s *Screen) resizeTerm(cols, rows int) {
	cur := s.term.Cursor()
	alt := s.term.Mode()&vt10x.ModeAltScreen != 0 && cur.Y >= rows
	if alt {
		s.feed([]byte("\x1b[H"))
	}
	oldCols, _ := s.term.Size()
	s.safely(func() { s.term.Resize(cols, rows) })
	s.region = vtRegion{top: 0, bottom: rows - 1} // vt10x resets the scroll region on resize
	// A blank emulator (nothing written yet) has the default stops already.
	if cols != oldCols && s.term.live() {
		s.resetTabs()
	}
	if alt {
		s.feed(fmt.Appendf(nil, "\x1b[%d;%dH", min(cur.Y, rows-1)+1, min(cur.X, cols-1)+1))
	}
}

// safely runs f on the emulator, restarting it blank if f panics.
func (s *Screen) safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.track.err = fmt.Sprintf("vt10x: %v", r)
			s.term = s.newTerm()
		}
	}()
	f()
}

// Size returns the screen size.
func (s *Screen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cols, s.rows
}

// Version counts the Writes and Resizes that changed something; a UI renders
// again only when it moved.
func (s *Screen) Version() uint64 { return s.version.Load() }

// Attention is State().Attention without bringing the emulator up to date: a UI
// reads it for every run with new output, and the pending text of a run nobody
// looks at must stay unemulated (screen_lazy.go).
func (s *Screen) Attention() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.track.attention
}

// Modes is State().Modes without bringing the emulator up to date: a key is encoded
// with it at the run (runs.Supervisor.SendKeys) while output may be pending. What a
// Write leaves pending is only text, SGRs and line erasures (screen_lazy.go), none of
// which changes a mode, and a sequence split across reads changes nothing until its
// end arrives, so the modes are those of every byte written so far.
func (s *Screen) Modes() keys.Modes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modes(s.term.Mode())
}

func (s *Screen) modes(m vt10x.ModeFlag) keys.Modes {
	return keys.Modes{AppCursor: m&vt10x.ModeAppCursor != 0, BracketedPaste: s.track.paste,
		Mouse: mouseMode(m), MouseSGR: m&vt10x.ModeMouseSgr != 0}
}

// State returns the modes, cursor and tracked extras.
func (s *Screen) State() ScreenState {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp()
	m := s.term.Mode()
	cur := s.term.Cursor()
	return ScreenState{
		Modes:         s.modes(m),
		SyncOutput:    s.track.sync,
		FocusEvents:   m&vt10x.ModeFocus != 0,
		MouseMode:     mouseMode(m),
		MouseSGR:      m&vt10x.ModeMouseSgr != 0,
		AltScreen:     m&vt10x.ModeAltScreen != 0,
		CursorX:       cur.X,
		CursorY:       cur.Y,
		CursorVisible: s.term.CursorVisible(),
		CursorShape:   s.track.shape,
		Title:         s.track.title,
		Attention:     s.track.attention,
		LastNotice:    s.track.notice,
		Err:           s.track.err,
	}
}

// mouseMode maps vt10x's mouse bits (one at a time: each mode clears the
// others) back to the xterm mode number.
func mouseMode(m vt10x.ModeFlag) int {
	switch {
	case m&vt10x.ModeMouseX10 != 0:
		return 9
	case m&vt10x.ModeMouseButton != 0:
		return 1000
	case m&vt10x.ModeMouseMotion != 0:
		return 1002
	case m&vt10x.ModeMouseMany != 0:
		return 1003
	}
	return 0
}
