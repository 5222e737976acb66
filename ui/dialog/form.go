package dialog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/lineinput"
)

// Form is the new-run form: a command line, PTY, pipe or a parity pair of both,
// optional timeouts, the escape policy and, over several hosts, the host.
type Form struct {
	c          *common.Common
	keys       *KeyMap
	fields     [5]lineinput.Model // command, timeout, no-output timeout, branch, after
	kind       formKind
	failEscape bool // escape policy fail (an escapee ends the run); own, the default, otherwise
	worktree   bool // a git worktree of its own, on the branch field's branch
	// focus: 0 command, 1 kind, 2 timeout, 3 no-output, 4 worktree, 5 branch,
	// 6 after (the runs it waits for), 7 escapes, 8 host
	focus int
	hosts []string // the hosts to start it on (none over one host)
	host  int      // the chosen one
	err   string
	w, h  int
	done  bool
	spec  runs.Spec
}

const formRows = 8

// escapeRow is the form row of the escape policy toggle; worktreeRow the worktree
// toggle's and branchRow its branch's; afterRow the dependencies'; hostRow the
// host's, shown over several hosts.
const (
	worktreeRow = 4
	branchRow   = 5
	afterRow    = 6
	escapeRow   = 7
	hostRow     = 8
)

// rows is how many rows the form has.
func (f Form) rows() int {
	if len(f.hosts) > 1 {
		return formRows + 1
	}
	return formRows
}

// SetHosts offers hosts to start the run on, at first def.
func (f *Form) SetHosts(hosts []string, def string) {
	f.hosts, f.host = hosts, max(slices.Index(hosts, def), 0)
}

// Host is the host chosen ("" over one host).
func (f Form) Host() string {
	if len(f.hosts) == 0 {
		return ""
	}
	return f.hosts[f.host]
}

// formKind is the kind row: the toggle cycles through them in this order.
type formKind int

const (
	kindPTY formKind = iota
	kindPipe
	kindParity // the same command as a PTY run and a pipe run (corral parity)
	kinds
)

// NewForm returns an empty form for a PTY run.
func NewForm(c *common.Common, keys *KeyMap) Form { return Form{c: c, keys: keys} }

// Parity reports whether the accepted spec is to start as a parity pair.
func (f Form) Parity() bool { return f.kind == kindParity }

// SetSize sets the screen size the form is centred in.
func (f *Form) SetSize(w, h int) { f.w, f.h = w, h }

// Refused shows the form again, its fields as they were, with why its run was not
// started (nothing was: a worktree that could not be made, a bad spec).
func (f *Form) Refused(reason string) {
	f.done, f.spec, f.err = false, runs.Spec{}, reason
}

// errLines are the error, wrapped to the box (one empty line without one).
func (f Form) errLines(iw int) []string {
	if f.err == "" {
		return []string{""}
	}
	return common.WrapHanging(common.Clean(f.err), iw-1, 0)
}

// Done reports whether the form ended, and with which spec if it was accepted.
func (f Form) Done() (spec runs.Spec, accepted, done bool) {
	return f.spec, f.done && f.spec.Shell != "", f.done
}

// Update edits the focused field, toggles pty/pipe, moves between fields, accepts.
func (f Form) Update(msg tea.Msg) (Form, tea.Cmd) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		f.key(m)
	case tea.PasteMsg:
		if in := f.input(); in != nil {
			in.Insert(m.Content)
		}
	}
	return f, nil
}

func (f *Form) key(k tea.KeyPressMsg) {
	km := f.keys
	switch {
	case key.Matches(k, km.Accept):
		f.accept()
	case key.Matches(k, km.Dismiss):
		f.done = true
	case key.Matches(k, km.Toggle) && f.focus == escapeRow:
		f.failEscape = !f.failEscape
	case (key.Matches(k, km.Toggle) || k.Text == " ") && f.focus == worktreeRow:
		f.worktree = !f.worktree
	case (key.Matches(k, km.Toggle) || k.Text == " ") && f.focus == hostRow:
		f.host = (f.host + 1) % len(f.hosts)
	case key.Matches(k, km.Toggle):
		f.kind = (f.kind + 1) % kinds
	case key.Matches(k, km.NextField):
		f.focus = (f.focus + 1) % f.rows()
	case key.Matches(k, km.PrevField):
		f.focus = (f.focus + f.rows() - 1) % f.rows()
	case f.focus == 1 && k.Text == " ":
		f.kind = (f.kind + 1) % kinds
	case f.focus == escapeRow && k.Text == " ":
		f.failEscape = !f.failEscape
	default:
		in := f.input()
		if in == nil && k.Text != "" { // typing on a toggle row: the text is the command's
			f.focus, in = 0, &f.fields[0]
		}
		if in != nil && in.Key(k) {
			f.err = ""
		}
	}
}

// input is the focused text field (nil on the kind row).
func (f *Form) input() *lineinput.Model {
	switch f.focus {
	case 0:
		return &f.fields[0]
	case 2:
		return &f.fields[1]
	case 3:
		return &f.fields[2]
	case branchRow:
		return &f.fields[3]
	case afterRow:
		return &f.fields[4]
	}
	return nil
}

func (f *Form) accept() {
	spec, err := f.build()
	if err != nil {
		f.err = err.Error()
		return
	}
	f.spec, f.done = spec, true
}

func (f Form) build() (runs.Spec, error) {
	line := strings.TrimSpace(f.fields[0].Value())
	if line == "" {
		return runs.Spec{}, errors.New("a command line is needed")
	}
	timeout, err := parseTimeout(f.fields[1].Value(), false)
	if err != nil {
		return runs.Spec{}, fmt.Errorf("timeout: %w", err)
	}
	noOut, err := parseTimeout(f.fields[2].Value(), true)
	if err != nil {
		return runs.Spec{}, fmt.Errorf("no-output timeout: %w", err)
	}
	spec := runs.Spec{Shell: line, PTY: f.kind != kindPipe, Timeout: timeout, NoOutputTimeout: noOut}
	if f.failEscape {
		spec.Escape = runs.EscapeFail
	} // else the configured default (own unless the config says otherwise)
	branch := strings.TrimSpace(f.fields[3].Value())
	switch {
	case f.worktree:
		spec.Worktree = &runs.WorktreeSpec{Branch: branch}
	case branch != "":
		return runs.Spec{}, errors.New("a branch is for a worktree: turn worktree on, or empty the branch")
	}
	deps, err := parseAfter(f.fields[4].Value())
	if err != nil {
		return runs.Spec{}, fmt.Errorf("after: %w", err)
	}
	spec.DependsOn = deps
	return spec, nil
}

// parseAfter reads the after field: the runs the new one waits for, as corral spawn
// --depends-on names them (NAME=CONDITION, NAME alone: started), separated by commas
// or spaces.
func parseAfter(s string) ([]runs.Dependency, error) {
	var deps []runs.Dependency
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		d, err := runs.ParseDependency(w)
		if err != nil {
			return nil, err
		}
		deps = append(deps, d)
	}
	return deps, nil
}

// parseTimeout reads "", "90" (seconds), "5m", "1h30m"; "off" disables a no-output
// timeout (which is otherwise derived from the overall one).
func parseTimeout(s string, canOff bool) (time.Duration, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return 0, nil
	case canOff && s == "off":
		return -1, nil
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration like 90s, 5m or 1h", s)
	}
	return d, nil
}

// box geometry: the form is centred, formWidth columns wide.
func (f Form) size() (w, h int) {
	w = min(max(f.w-4, 20), 72)
	return w, f.rows() + 4 + len(f.errLines(w-2))
}

func (f Form) origin() (x, y int) {
	w, h := f.size()
	return max((f.w-w)/2, 0), max((f.h-h)/2, 0)
}

// View is the form's box lines (see Lines); as one string.
func (f Form) View() string { return common.JoinLines(f.Lines()) }

// Lines draws the form.
func (f Form) Lines() []string {
	w, h := f.size()
	st := f.c.Styles
	iw := w - 2
	kind := [kinds]string{"[pty] pipe  parity ", " pty [pipe] parity ", " pty  pipe [parity]"}[f.kind]
	escapes := "[own] fail "
	if f.failEscape {
		escapes = " own [fail]"
	}
	worktree := "[off] on "
	if f.worktree {
		worktree = " off [on]"
	}
	rows := []string{
		f.row(0, "command", f.fieldText(0, iw)),
		f.row(1, "kind", kind+st.Muted.Render("  ("+f.keys.Toggle.Help().Key+")")),
		f.row(2, "timeout", f.fieldText(1, iw)+st.Muted.Render(f.hint(1, "  e.g. 30m; empty: none"))),
		f.row(3, "no-output", f.fieldText(2, iw)+st.Muted.Render(f.hint(2, "  empty: derived; off"))),
		f.row(worktreeRow, "worktree", worktree+st.Muted.Render("  (space) a git branch and worktree of its own")),
		f.row(branchRow, "branch", f.fieldText(3, iw)+st.Muted.Render(f.hint(3, "  empty: corral/NAME"))),
		f.row(afterRow, "after", f.fieldText(4, iw)+st.Muted.Render(f.hint(4, "  e.g. db=ready, migrate=succeeded"))),
		f.row(escapeRow, "escapes", escapes+st.Muted.Render("  (space) fail ends the run")),
	}
	if len(f.hosts) > 1 {
		rows = append(rows, f.row(hostRow, "host", f.hostChoice()+st.Muted.Render("  (space)")))
	}
	rows = append(rows, "")
	for _, l := range f.errLines(iw) {
		rows = append(rows, st.Danger.Render(" "+l))
	}
	rows = append(rows,
		st.Muted.Render(" "+f.keys.Accept.Help().Key+" start · "+f.keys.Dismiss.Help().Key+
			" cancel · "+f.keys.PrevField.Help().Key+", "+f.keys.NextField.Help().Key+" field"))
	for i := range rows {
		rows[i] = common.Fit(rows[i], iw)
	}
	return common.Box(st.BorderFocus, st.TitleFocus.Render("New run"), rows, w, h)
}

// hostChoice is the hosts with the chosen one bracketed: "[local] alpha  beta ".
func (f Form) hostChoice() string {
	var b strings.Builder
	for i, h := range f.hosts {
		if i == f.host {
			b.WriteString("[" + common.Clean(h) + "]")
		} else {
			b.WriteString(" " + common.Clean(h) + " ")
		}
	}
	return b.String()
}

func (f Form) hint(i int, s string) string {
	if f.fields[i].Value() != "" {
		return ""
	}
	return s
}

func (f Form) row(i int, label, value string) string {
	mark := "  "
	if f.focus == i {
		mark = f.c.Styles.Dialog.Render("› ")
	}
	return mark + f.c.Styles.Muted.Render(common.Pad(label, 10)) + value
}

func (f Form) fieldText(i, iw int) string {
	s, _ := f.fields[i].View(max(iw-14, 4))
	return s
}

// Cursor is the real cursor in the focused text field, in screen coordinates.
func (f Form) Cursor() *tea.Cursor {
	in := f.input()
	if in == nil {
		return nil
	}
	w, _ := f.size()
	_, col := in.View(max(w-2-14, 4))
	x, y := f.origin()
	c := tea.NewCursor(x+1+12+col, y+1+f.focus)
	c.Shape = tea.CursorBar
	return c
}
