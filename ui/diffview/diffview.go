// Package diffview is the diff view: a run's changes against its worktree's base, as
// git diff prints them, full screen. It scrolls by line, half page and page, jumps file
// to file and hunk to hunk, scrolls sideways along long lines, and searches (a line
// editor in its bottom line; the matches highlighted, n/N between them).
//
// The text is indexed off the UI goroutine (Index, run by the tea.Cmd Load returns:
// line offsets, each line's kind, the file and hunk headers) and handed to the model
// in an IndexedMsg; View then draws only the lines of its window, so a frame costs the
// same on a 50,000-line diff as on a ten-line one.
//
// Colours: the view colours plain text itself, from the house palette of ui/common
// (added lines green, removed red, hunk headers cyan, file headers bold), instead of
// showing git's colours: git's palette is the user's git config (256 or true colours
// that may not read on their theme), its escapes would have to be parsed to cut a line
// sideways or mark a match in it, and a diff is text an agent wrote, so nothing of it
// reaches the terminal but printable characters (controls are shown as ^X). Escapes in
// the text (git diff --color) are removed when it is indexed.
package diffview

import (
	"fmt"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs/workspace"
	"corral/ui/common"
	"corral/ui/lineinput"
)

// KeyMap is the diff view's keys. Close and refresh are the root's to act on (the view
// says whether a key is its own: Typing).
type KeyMap struct {
	DiffUp, DiffDown, DiffHalfUp, DiffHalfDown, DiffPageUp, DiffPageDown, DiffTop, DiffBottom key.Binding
	DiffLeft, DiffRight, DiffNextFile, DiffPrevFile, DiffNextHunk, DiffPrevHunk               key.Binding
	DiffSearch, DiffNextMatch, DiffPrevMatch, DiffRefresh, DiffClose                          key.Binding
}

// DefaultKeyMap returns the diff view's default keys.
func DefaultKeyMap() KeyMap {
	bind := common.Bind
	return KeyMap{
		DiffUp: bind("line up", "up", "k"), DiffDown: bind("line down", "down", "j"),
		DiffHalfUp: bind("half page up", "ctrl+u", "u"), DiffHalfDown: bind("half page down", "ctrl+d", "d"),
		DiffPageUp: bind("page up", "pgup", "ctrl+b", "b"), DiffPageDown: bind("page down", "pgdown", "ctrl+f", "space"),
		DiffTop: bind("first line", "g", "home"), DiffBottom: bind("last line", "G", "end"),
		DiffLeft: bind("scroll left", "left", "h"), DiffRight: bind("scroll right", "right", "l"),
		DiffNextFile: bind("next file", "]", "tab"), DiffPrevFile: bind("previous file", "[", "shift+tab"),
		DiffNextHunk: bind("next hunk", "}"), DiffPrevHunk: bind("previous hunk", "{"),
		DiffSearch: bind("search", "/"), DiffNextMatch: bind("next match", "n"),
		DiffPrevMatch: bind("previous match", "N"),
		DiffRefresh:   bind("read again", "r"), DiffClose: bind("close", "q", "esc"),
	}
}

// PromptKeys are the dialogs' keys the search is typed with (accept searches, dismiss
// drops the edit): pointers into the root's KeyMap, so overrides reach them.
type PromptKeys struct{ Accept, Dismiss *key.Binding }

// Styles are the view's colours, taken from the house palette (StylesFrom).
type Styles struct {
	Bar, BarKey, File, Path, Meta, Hunk, Add, Del, Note, Match, Current, Cut, Muted, Warn common.Style
}

// StylesFrom builds the view's styles from ui/common's.
func StylesFrom(s common.Styles) Styles {
	return Styles{Bar: s.Title, BarKey: s.Key, File: s.Title, Path: s.Title, Meta: s.Muted, Hunk: s.Running,
		Add: s.OK, Del: s.ErrGutter, Note: s.Muted, Match: s.Match, Current: s.Focus, Cut: s.Muted,
		Muted: s.Muted, Warn: s.Warn}
}

// hscroll is how far the sideways keys move: a quarter of a common width.
const hscroll = 20

// Model is the diff view. Its zero value is not usable: New.
type Model struct {
	c   *common.Common
	st  Styles
	km  *KeyMap
	pk  PromptKeys
	w   int
	h   int
	gen int // the text asked for or being indexed; older answers are dropped

	name    string // the run's
	wt      workspace.Worktree
	stat    workspace.Stat
	doc     *Doc
	loading bool   // a read or an index is in flight (the old text stays shown meanwhile)
	err     string // the last read's error
	notice  string // one line in the bottom line until the next key

	top, x int // the window: its first line and its first column
	// at is the header a file or hunk jump went to when the window could not put it
	// at the top (it is on the last screen): the bar names its file and the next jump
	// goes on from it. 0 (never past top) when the last move was no such jump.
	at int

	typing  bool
	input   lineinput.Model
	query   string
	matches []int // lines with a match, in order
	cur     int   // index into matches; -1 for none

	ver   uint64
	cache *common.ViewCache[viewKey]
}

type viewKey struct {
	ver  uint64
	w, h int
}

// IndexedMsg is a diff indexed off the UI goroutine (Load's command).
type IndexedMsg struct {
	Gen      int
	Doc      *Doc
	Stat     workspace.Stat
	Worktree workspace.Worktree
}

// New returns a closed view; km and pk point into the root's KeyMap.
func New(c *common.Common, km *KeyMap, pk PromptKeys) Model {
	return Model{c: c, st: StylesFrom(c.Styles), km: km, pk: pk, cur: -1, cache: &common.ViewCache[viewKey]{}}
}

// SetSize sets the view's size: the whole screen.
func (m *Model) SetSize(w, h int) {
	if w != m.w || h != m.h {
		m.w, m.h = w, h
		m.clamp()
		m.ver++
	}
}

// Open starts showing run name's diff, read from now on (Load brings it). It returns
// the generation the read's answer must carry.
func (m *Model) Open(name string, wt workspace.Worktree) int {
	*m = New(m.c, m.km, m.pk).sized(m.w, m.h).withGen(m.gen + 1)
	m.name, m.wt, m.loading = name, wt, true
	return m.gen
}

// Refresh marks the diff as read again (the text shown stays until the new one is
// indexed, at the same place). It returns the generation the answer must carry.
func (m *Model) Refresh() int {
	m.gen++
	m.loading, m.err, m.notice = true, "", ""
	m.ver++
	return m.gen
}

func (m Model) sized(w, h int) Model { m.w, m.h = w, h; return m }
func (m Model) withGen(g int) Model  { m.gen = g; return m }

// Gen is the generation of the read in flight (or last made).
func (m Model) Gen() int { return m.gen }

// Load indexes text (the read of generation gen) off the UI goroutine: the command's
// IndexedMsg brings it to Update. An answer of an older generation is nil.
func (m Model) Load(gen int, text []byte, stat workspace.Stat, wt workspace.Worktree) tea.Cmd {
	if gen != m.gen {
		return nil
	}
	return func() tea.Msg { return IndexedMsg{Gen: gen, Doc: Index(text), Stat: stat, Worktree: wt} }
}

// Failed shows the read of generation gen failed.
func (m *Model) Failed(gen int, err error) {
	if gen == m.gen {
		m.loading, m.err = false, common.Clean(err.Error())
		m.ver++
	}
}

// Close forgets the text (a diff can be large).
func (m *Model) Close() { *m = New(m.c, m.km, m.pk).sized(m.w, m.h).withGen(m.gen + 1) }

// Typing reports whether the search is being typed: every key is the editor's then.
func (m Model) Typing() bool { return m.typing }

// Version moves whenever what the view draws changes.
func (m Model) Version() uint64 { return m.ver }

// Update takes an IndexedMsg, the view's keys and the wheel.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case IndexedMsg:
		m.indexed(msg)
	case tea.KeyPressMsg:
		m.notice = ""
		if m.typing {
			m.typeKey(msg)
		} else {
			m.key(msg)
		}
		m.ver++
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.at = 0
			m.scrollTo(m.top - 3)
		case tea.MouseWheelDown:
			m.at = 0
			m.scrollTo(m.top + 3)
		}
	}
	return m, nil
}

func (m *Model) indexed(msg IndexedMsg) {
	if msg.Gen != m.gen {
		return
	}
	m.doc, m.stat, m.loading, m.err = msg.Doc, msg.Stat, false, ""
	if msg.Worktree.Path != "" {
		m.wt = msg.Worktree
	}
	m.at = 0
	m.find(false) // a refresh keeps the search, and the place: clamped below
	m.clamp()
	m.ver++
}

// key moves the window or searches.
func (m *Model) key(k tea.KeyPressMsg) {
	km := m.km
	switch {
	case key.Matches(k, km.DiffSearch):
		m.typing, m.input = true, lineinput.New(false)
		m.input.SetValue(m.query)
	case key.Matches(k, km.DiffNextMatch):
		m.stepMatch(1)
	case key.Matches(k, km.DiffPrevMatch):
		m.stepMatch(-1)
	case key.Matches(k, km.DiffLeft):
		m.x = max(m.x-hscroll, 0)
	case key.Matches(k, km.DiffRight):
		m.x += hscroll
	default:
		if top, ok := m.motion(k); ok {
			m.scrollTo(top)
			m.at = 0
			if m.jumping(k) {
				m.at = top
			}
		}
	}
}

// jumping says k is a file or hunk jump.
func (m Model) jumping(k tea.KeyPressMsg) bool {
	km := m.km
	return key.Matches(k, km.DiffNextFile) || key.Matches(k, km.DiffPrevFile) ||
		key.Matches(k, km.DiffNextHunk) || key.Matches(k, km.DiffPrevHunk)
}

// ref is the line the bar's position and the next jump count from: the header the
// last jump went to while it is on screen below the top, else the window's top.
func (m Model) ref() int {
	if m.at > m.top && m.at < m.top+m.rows() {
		return m.at
	}
	return m.top
}

// motion is where a moving key puts the window's top.
func (m Model) motion(k tea.KeyPressMsg) (int, bool) {
	km, rows := m.km, m.rows()
	switch {
	case key.Matches(k, km.DiffUp):
		return m.top - 1, true
	case key.Matches(k, km.DiffDown):
		return m.top + 1, true
	case key.Matches(k, km.DiffHalfUp):
		return m.top - max(rows/2, 1), true
	case key.Matches(k, km.DiffHalfDown):
		return m.top + max(rows/2, 1), true
	case key.Matches(k, km.DiffPageUp):
		return m.top - max(rows-1, 1), true
	case key.Matches(k, km.DiffPageDown):
		return m.top + max(rows-1, 1), true
	case key.Matches(k, km.DiffTop):
		return 0, true
	case key.Matches(k, km.DiffBottom):
		return m.doc.Len(), true
	case key.Matches(k, km.DiffNextFile):
		return m.jump(m.doc.heads(true), 1), true
	case key.Matches(k, km.DiffPrevFile):
		return m.jump(m.doc.heads(true), -1), true
	case key.Matches(k, km.DiffNextHunk):
		return m.jump(m.doc.heads(false), 1), true
	case key.Matches(k, km.DiffPrevHunk):
		return m.jump(m.doc.heads(false), -1), true
	}
	return m.top, false
}

// heads is the file headers' lines, or the hunk headers'.
func (d *Doc) heads(files bool) []int {
	switch {
	case d == nil:
		return nil
	case files:
		return d.files
	}
	return d.hunks
}

// jump is the next header after the window's top (dir 1) or the one before it (-1),
// or after the header the last jump went to (ref); where it was when there is none
// that way.
func (m Model) jump(heads []int, dir int) int {
	from := m.ref()
	i := sort.SearchInts(heads, from) // the first header at or after from
	switch {
	case dir > 0 && i < len(heads) && heads[i] == from:
		i++
	case dir < 0:
		i--
	}
	if i < 0 || i >= len(heads) {
		return from
	}
	return heads[i]
}

// rows is how many diff lines the window shows: the screen less the title and the
// bottom line.
func (m Model) rows() int { return max(m.h-2, 1) }

func (m *Model) scrollTo(top int) {
	if top != m.top {
		m.top = top
		m.clamp()
		m.ver++
	}
}

// clamp keeps the window on the text: the last line may go up to the top, not past it.
func (m *Model) clamp() { m.top = max(min(m.top, m.doc.Len()-m.rows()), 0) }

// position is the bar's "file 3/12 path · line 120/50000".
func (m Model) position() string {
	d, at := m.doc, m.ref()
	out := fmt.Sprintf("line %d/%d", min(at+1, d.Len()), d.Len())
	if f := d.fileAt(at); f >= 0 {
		out = fmt.Sprintf("file %d/%d %s · ", f+1, len(d.files), common.Clean(d.names[f])) + out
	}
	if m.x > 0 {
		out += fmt.Sprintf(" · col %d", m.x+1)
	}
	return out
}
