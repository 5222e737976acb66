// Package terminal is the terminal pane of the selected run: its emulated screen
// (PTY runs), its log with stderr marked (pipe runs and runs without a screen), or,
// in scroll mode, its transcript with search (scroll.go) and copy mode
// (copymode.go); the transcript's text lines (transcript.go, sgr.go), the pager and
// the save (transcriptfile.go).
package terminal

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/ui/common"
)

// Messages the pane takes (Update).
type (
	// LogMsg is a run's in-memory output, for runs shown as a log.
	LogMsg struct {
		ID     string
		Output runs.Output
		Err    error
	}
	// HistoryMsg is a run's history as text lines, for scrolling and search: a PTY
	// run's screen's scrollback, else its transcript (the root's historyCmd).
	HistoryMsg struct {
		ID    string
		Lines []HistLine
		Err   error
	}
)

// Hints are the root's bindings the pane names in its text: how to leave focus, to
// start a run, to start a pending one. Pointers into the root's KeyMap, so an
// override reaches them.
type Hints struct {
	Leave, New, Restart *key.Binding
}

// Terminal is the terminal pane of the selected run.
type Terminal struct {
	c       *common.Common
	keys    *KeyMap
	hints   Hints
	id      string
	info    runs.Info
	screen  screen.View
	log     runs.Output
	hasLog  bool
	empty   string
	w, h    int
	focused bool
	zoomed  bool
	scroll  *scrollState // nil: live
	pending bool         // info is a pending run's name and kind (ShowPending)
	now     time.Time

	ver   uint64 // bumped when anything but the screen's own content changes
	cache *termCache
}

// termCache is the pane's last rendering and the screen state read with it.
type termCache struct {
	key   termKey
	ok    bool
	val   string
	state screen.ScreenState
	held  time.Time // when the frame began to be held for a synchronized update
}

type termKey struct {
	ver, screen uint64
	w, h        int
}

// New returns an empty pane with its scroll-mode keys and the root's bindings its
// text names; empty is what it says when there is no run.
func New(c *common.Common, keys *KeyMap, hints Hints, empty string) Terminal {
	return Terminal{c: c, keys: keys, hints: hints, empty: empty, cache: &termCache{}}
}

// SetSize sets the pane's outer size.
func (t *Terminal) SetSize(w, h int) {
	if w == t.w && h == t.h {
		return
	}
	t.w, t.h = w, h
	if t.scroll != nil {
		t.scroll.fit(t.InnerSize())
	}
	t.ver++
}

// InnerSize is the size of the screen area: what a PTY run is resized to.
func (t Terminal) InnerSize() (cols, rows int) { return max(t.w-2, 1), max(t.h-2, 1) }

// SetFocused marks the pane as the one keys go to.
func (t *Terminal) SetFocused(f bool) {
	if f != t.focused {
		t.focused, t.ver = f, t.ver+1
	}
}

// SetZoomed marks the pane as zoomed (only its title changes).
func (t *Terminal) SetZoomed(z bool) {
	if z != t.zoomed {
		t.zoomed, t.ver = z, t.ver+1
	}
}

// FitSpec gives a PTY spec the pane's size, so it starts the right size.
func (t Terminal) FitSpec(spec *runs.Spec) {
	if spec.PTY && !spec.FixedSize && t.w > 0 {
		cols, rows := t.InnerSize()
		spec.Cols, spec.Rows = uint16(cols), uint16(rows)
	}
}

// ShowRun shows a run with its screen (nil for none: a pipe run's log, an adopted
// run), or nothing for the zero Info; a different run leaves scroll mode and drops
// the old run's log.
func (t *Terminal) ShowRun(info runs.Info, scr screen.View) {
	if info.ID != t.id {
		t.scroll, t.log, t.hasLog = nil, runs.Output{}, false
	}
	if t.pending { // a run now: draw again, whatever it is
		t.pending, t.ver = false, t.ver+1
	}
	if shownOf(info) == shownOf(t.info) && scr == t.screen {
		t.info = info
		return
	}
	t.id, t.info, t.screen = info.ID, info, scr
	t.ver++
}

// shown is what the pane shows of a run's Info (its title): a new copy of the Info
// that differs elsewhere (a countdown) does not draw the pane again.
type shown struct {
	id, name     string
	kind         runs.Kind
	state        runs.State
	reason       runs.Reason
	code, signal int
	adopted      bool
}

func shownOf(i runs.Info) shown {
	s := shown{id: i.ID, name: i.Name, kind: i.Kind, state: i.State, reason: i.Reason,
		code: -1, signal: i.Signal, adopted: i.Adopted}
	if i.ExitCode != nil {
		s.code = *i.ExitCode
	}
	return s
}

// ID is the run shown ("" for none).
func (t Terminal) ID() string { return t.id }

// Info is the run shown (a pending run's name and kind; zero for none).
func (t Terminal) Info() runs.Info { return t.info }

// ShowsLog reports whether the pane shows the run as a log (it wants LogMsgs).
func (t Terminal) ShowsLog() bool { return t.id != "" && t.screen == nil && !t.info.Adopted }

// NeedsLog reports whether the pane shows a run as a log that it has not read yet.
func (t Terminal) NeedsLog() bool { return t.ShowsLog() && !t.hasLog }

// Update takes the shown run's log, its history, and scroll-mode keys.
func (t Terminal) Update(msg tea.Msg) (Terminal, tea.Cmd) {
	switch m := msg.(type) {
	case LogMsg:
		if m.ID == t.id && m.Err == nil {
			t.log, t.hasLog = m.Output, true
			t.ver++
		}
	case HistoryMsg:
		if m.ID == t.id && t.scroll != nil {
			t.scroll.load(m)
			t.scroll.fit(t.InnerSize())
			if t.scroll.copyNow {
				t.scroll.copyNow = false
				t.StartCopy()
			}
			t.ver++
		}
	case tea.KeyPressMsg:
		if t.scroll != nil {
			t.scrollKey(m)
		}
	}
	return t, nil
}

// View renders the pane. A screen is rendered again only when its version moved or
// the pane changed; a panic while rendering shows in the pane instead.
func (t Terminal) View() string {
	k := termKey{ver: t.ver, w: t.w, h: t.h}
	if t.screen != nil && t.scroll == nil {
		k.screen = t.screen.Version()
	}
	if t.cache.ok && t.cache.key == k || t.holdFrame(k) {
		return t.cache.val
	}
	t.cache.key, t.cache.ok, t.cache.held = k, true, time.Time{}
	t.cache.val = common.JoinLines(t.render())
	return t.cache.val
}

// syncHold is how long a frame is held while the app is inside a synchronized
// update (mode 2026), so a frame split across reads is never shown half drawn.
const syncHold = 100 * time.Millisecond

// holdFrame reports whether to keep showing the last frame because only the screen
// moved and the app is mid-update. The end of the update moves the screen again, so
// its frame is drawn; an app stuck mid-update is drawn after syncHold.
func (t Terminal) holdFrame(k termKey) bool {
	old := t.cache.key
	if !t.cache.ok || t.now.IsZero() || old.ver != k.ver || old.w != k.w || old.h != k.h {
		return false
	}
	if !safeSync(t.screen) {
		return false
	}
	if t.cache.held.IsZero() {
		t.cache.held = t.now
	}
	return t.now.Sub(t.cache.held) < syncHold
}

// safeSync reads whether a screen is mid synchronized update.
func safeSync(s screen.View) (on bool) {
	defer func() { _ = recover() }()
	return s != nil && s.State().SyncOutput
}

// SetNow sets the clock a held frame is timed with.
func (t *Terminal) SetNow(now time.Time) { t.now = now }

// NextChange is when a frame held for a synchronized update is drawn all the same
// (zero if none is held): the clock must wake then.
func (t Terminal) NextChange() time.Time {
	if t.cache == nil || t.cache.held.IsZero() {
		return time.Time{}
	}
	if at := t.cache.held.Add(syncHold); at.After(t.now) {
		return at
	}
	return time.Time{}
}

// render draws the pane, recovering from a panic in the screen or in this code.
func (t Terminal) render() (out []string) {
	defer func() {
		if r := recover(); r != nil {
			iw, ih := t.InnerSize()
			out = t.frame(t.c.Styles.Danger.Render("render error"), errorBody(fmt.Sprint(r), iw, ih))
		}
	}()
	iw, ih := t.InnerSize()
	switch {
	case t.scroll != nil:
		return t.frame(t.scrollTitle(), t.scrollBody(iw, ih))
	case t.pending:
		return t.frame(t.pendingTitle(), t.pendingBody(iw, ih))
	case t.id == "":
		return t.frame(t.c.Styles.Title.Render("Terminal"), t.emptyBody(iw, ih))
	case t.screen != nil:
		st := t.screen.State()
		body := t.screenBody(st, iw, ih)
		t.cache.state = st
		return t.frame(t.title(st), body)
	case t.info.Adopted:
		return t.frame(t.title(screen.ScreenState{}), messageBody(
			"adopted from a dead Corral instance: observed and cancellable, no terminal", iw, ih))
	}
	return t.frame(t.title(screen.ScreenState{}), t.logBody(iw, ih))
}

func (t Terminal) frame(title string, body []string) []string {
	border := t.c.Styles.Border
	if t.focused {
		border = t.c.Styles.BorderFocus
	}
	return common.Box(border, title, body, t.w, t.h)
}

// title names the run and, when focused, says how to leave.
func (t Terminal) title(st screen.ScreenState) string {
	s := t.c.Styles
	out := s.Title.Render(common.Clean(t.info.Name)) + s.Muted.Render(" "+string(t.info.Kind))
	if t.focused {
		out = s.Focus.Render(" FOCUS — "+t.hints.Leave.Help().Key+" to leave ") + " " + out
	}
	if t.zoomed {
		out += s.Muted.Render(" [zoom]")
	}
	if t.info.Ended() {
		out += " " + common.BadgeStyle(s, t.info).Render(common.Badge(t.info))
	}
	// A screen larger than the pane says so: another attached UI may size a live run
	// larger (said before the app's title, which may be long); a replay keeps its
	// recording's size (said after its progress, the replay's title).
	var cut string
	if t.screen != nil {
		cols, rows := t.screen.Size()
		if iw, ih := t.InnerSize(); cols > iw || rows > ih {
			cut = s.Warn.Render(fmt.Sprintf(" %d×%d > pane %d×%d", cols, rows, iw, ih))
		}
	}
	if !t.info.Spec.FixedSize {
		out += cut
	}
	if st.Title != "" {
		out += s.Muted.Render(" — " + common.Clean(st.Title))
	}
	if t.info.Spec.FixedSize {
		out += cut
	}
	if st.Err != "" {
		out += " " + s.Danger.Render("⚠ "+common.Clean(st.Err))
	}
	return out
}

// logBody is the tail of the run's log, stderr lines marked, wrapped to the pane.
func (t Terminal) logBody(iw, ih int) []string {
	if !t.hasLog {
		return messageBody("…", iw, ih)
	}
	lines := HistoryOutput(tailOutput(t.log, logTailBytes(iw, ih)))
	return t.histLines(lines, iw, ih)
}

// histLines wraps text lines to the pane in their colours (one gutter column marks
// stderr) and keeps the last ih.
func (t Terminal) histLines(lines []HistLine, iw, ih int) []string {
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < ih; i-- {
		parts := lines[i].wrapped(max(iw-1, 1))
		for j := len(parts) - 1; j >= 0 && len(out) < ih; j-- {
			out = append(out, t.gutter(lines[i].Err, false)+common.Fit(parts[j], iw-1))
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	for len(out) < ih {
		out = append(out, strings.Repeat(" ", iw))
	}
	return out
}

func (t Terminal) gutter(stderr, current bool) string {
	switch {
	case current:
		return t.c.Styles.Match.Render("▶")
	case stderr:
		return t.c.Styles.ErrGutter.Render("│")
	}
	return " "
}

func (t Terminal) emptyBody(iw, ih int) []string {
	msg := t.empty
	if msg == "" {
		msg = "No runs. Press " + t.hints.New.Help().Key + " to start one."
	}
	return messageBody(msg, iw, ih)
}

// ScreenState is the state read with the last rendering (modes, mouse, cursor).
func (t Terminal) ScreenState() screen.ScreenState { return t.cache.state }
