package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/ui/common"
	"corral/ui/lineinput"
)

// FinishForm is the finish dialog of a worktree run: the same choices as corral
// finish (a commit message, merge or not and into which branch, delete the branch,
// force), drawn over the panes like the new-run form.
type FinishForm struct {
	c      *common.Common
	keys   *KeyMap
	run    runs.Info
	commit lineinput.Model
	into   lineinput.Model
	// The toggles: merge, delete the branch, force.
	merge, deleteBranch, force bool
	focus                      int // the row: finishCommit … finishForce
	w, h                       int
	done, ok                   bool
	refusal                    string // why the last finish of these choices was refused
}

// The finish form's rows.
const (
	finishCommit = iota
	finishMerge
	finishInto
	finishDelete
	finishForce
	finishRows
)

// FinishAnswer: the finish form was accepted for run ID (live says it was running
// when the form opened: ending it asks first, as a cancel does).
type FinishAnswer struct {
	ID      string
	Name    string
	Live    bool
	Options runs.FinishOptions
}

// NewFinishForm returns the finish form of run (which has a worktree).
func NewFinishForm(c *common.Common, keys *KeyMap, run runs.Info) FinishForm {
	return FinishForm{c: c, keys: keys, run: run}
}

// Refused shows the form again, its choices as they were, with why the finish was
// refused (nothing was changed): the user changes a choice and tries again.
func (f *FinishForm) Refused(reason string) {
	f.done, f.ok, f.refusal = false, false, reason
}

// ID is the run the form is about.
func (f FinishForm) ID() string { return f.run.ID }

// refusalLines are the refusal, wrapped to the box; none without one.
func (f FinishForm) refusalLines(iw int) []string {
	if f.refusal == "" {
		return nil
	}
	return common.WrapHanging("refused: "+common.Clean(f.refusal), iw-1, 0)
}

// SetSize sets the screen size the form is centred in.
func (f *FinishForm) SetSize(w, h int) { f.w, f.h = w, h }

// Done reports whether the form ended, and its answer if it was accepted. A branch
// to merge into means merge, as corral finish --into does.
func (f FinishForm) Done() (FinishAnswer, bool, bool) {
	into := strings.TrimSpace(f.into.Value())
	a := FinishAnswer{ID: f.run.ID, Name: f.run.Name, Live: !f.run.Ended(), Options: runs.FinishOptions{
		Commit: f.commit.Value(), Merge: f.merge || into != "", Into: into, DeleteBranch: f.deleteBranch, Force: f.force}}
	return a, f.ok, f.done
}

// Update edits the focused field, flips a toggle, moves between rows, accepts.
func (f FinishForm) Update(msg tea.Msg) (FinishForm, tea.Cmd) {
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

func (f *FinishForm) key(k tea.KeyPressMsg) {
	km := f.keys
	switch {
	case key.Matches(k, km.Accept):
		f.done, f.ok = true, true
	case key.Matches(k, km.Dismiss):
		f.done = true
	case key.Matches(k, km.NextField):
		f.focus = (f.focus + 1) % finishRows
	case key.Matches(k, km.PrevField):
		f.focus = (f.focus + finishRows - 1) % finishRows
	case f.input() == nil && (key.Matches(k, km.Toggle) || k.Text == " "):
		f.flip()
	case f.input() != nil:
		f.input().Key(k)
	}
}

// flip flips the focused toggle.
func (f *FinishForm) flip() {
	switch f.focus {
	case finishMerge:
		f.merge = !f.merge
	case finishDelete:
		f.deleteBranch = !f.deleteBranch
	case finishForce:
		f.force = !f.force
	}
}

// input is the focused text field (nil on a toggle).
func (f *FinishForm) input() *lineinput.Model {
	switch f.focus {
	case finishCommit:
		return &f.commit
	case finishInto:
		return &f.into
	}
	return nil
}

// size is the box's: centred, at most 72 columns wide.
func (f FinishForm) size() (w, h int) {
	w = min(max(f.w-4, 20), 72)
	return w, finishRows + 7 + len(f.refusalLines(w-2))
}

func (f FinishForm) origin() (x, y int) {
	w, h := f.size()
	return max((f.w-w)/2, 0), max((f.h-h)/2, 0)
}

// View is the form's box lines (see Lines); as one string.
func (f FinishForm) View() string { return common.JoinLines(f.Lines()) }

// Lines draws the form.
func (f FinishForm) Lines() []string {
	w, h := f.size()
	st := f.c.Styles
	iw := w - 2
	wt := f.run.Worktree
	into := "the branch the base came from"
	if wt != nil && wt.BaseRef != "" {
		into = wt.BaseRef
	}
	live := "the run has ended"
	if !f.run.Ended() {
		live = "the run is " + f.run.State.String() + ": finishing ends it (asked next)"
	}
	rows := []string{
		st.Muted.Render(" " + common.Clean(worktreeLine(f.run))),
		st.Muted.Render(" " + live),
		f.row(finishCommit, "commit", f.field(&f.commit, iw)+st.Muted.Render(f.hint(&f.commit, "  message; empty: commit nothing"))),
		f.row(finishMerge, "merge", toggle(f.merge, "no", "yes")+st.Muted.Render("  (space) into the main checkout")),
		f.row(finishInto, "into", f.field(&f.into, iw)+st.Muted.Render(f.hint(&f.into, "  empty: "+common.Clean(into)))),
		f.row(finishDelete, "branch", toggle(f.deleteBranch, "keep", "delete")+st.Muted.Render("  (space)")),
		f.row(finishForce, "force", toggle(f.force, "no", "yes")+st.Muted.Render("  (space) remove it even if work is lost")),
		"",
	}
	for _, l := range f.refusalLines(iw) {
		rows = append(rows, st.Danger.Render(" "+l))
	}
	rows = append(rows, st.Muted.Render(" "+f.keys.Accept.Help().Key+" finish · "+f.keys.Dismiss.Help().Key+
		" cancel · "+f.keys.PrevField.Help().Key+", "+f.keys.NextField.Help().Key+" field"))
	for i := range rows {
		rows[i] = common.Fit(rows[i], iw)
	}
	return common.Box(st.BorderFocus, st.TitleFocus.Render("Finish "+common.Clean(f.run.Name)), rows, w, h)
}

// worktreeLine is "corral/x in /path (+3 −1)".
func worktreeLine(r runs.Info) string {
	wt := r.Worktree
	if wt == nil {
		return ""
	}
	s := wt.Branch + " in " + wt.Path
	if r.Diff != nil {
		s += fmt.Sprintf(" (+%d −%d)", r.Diff.Added, r.Diff.Removed)
	}
	return s
}

// toggle is "[off] on " or " off [on]".
func toggle(on bool, off, yes string) string {
	if on {
		return " " + off + " [" + yes + "]"
	}
	return "[" + off + "] " + yes + " "
}

func (f FinishForm) row(i int, label, value string) string {
	mark := "  "
	if f.focus == i {
		mark = f.c.Styles.Dialog.Render("› ")
	}
	return mark + f.c.Styles.Muted.Render(common.Pad(label, 10)) + value
}

func (f FinishForm) field(in *lineinput.Model, iw int) string {
	s, _ := in.View(max(iw-14, 4))
	return s
}

func (f FinishForm) hint(in *lineinput.Model, s string) string {
	if in.Value() != "" {
		return ""
	}
	return s
}

// Cursor is the real cursor in the focused text field, in screen coordinates.
func (f FinishForm) Cursor() *tea.Cursor {
	in := f.input()
	if in == nil {
		return nil
	}
	w, _ := f.size()
	_, col := in.View(max(w-2-14, 4))
	x, y := f.origin()
	c := tea.NewCursor(x+1+12+col, y+1+2+f.focus) // below the two lines about the run
	c.Shape = tea.CursorBar
	return c
}
