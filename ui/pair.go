package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/cli/parity"
	"corral/ui/common"
	"corral/ui/runlist"
	"corral/ui/terminal"
)

// A parity pair (corral parity) is two runs of one spec, a PTY one and a pipe one, that
// carry the same Spec.Pair. Selecting either shows both in the terminal pane, side by
// side (PTY left), each its own screen or log at the same size; in focus, keys go to
// both (or, toggled, to the selected one only); once both have ended the pane shows
// what differs (parity.Compare), and the diff key switches between that and the runs.

// pairView is the pair shown with the selected run, if any.
type pairView struct {
	on     bool
	other  terminal.Terminal // the partner's pane (the selected run's is Model.term)
	left   bool              // the selected run is the PTY one, drawn on the left
	one    bool              // in focus, keys go to the selected run only
	diffs  map[string]*parity.Result
	asked  map[string]bool // comparisons on their way, by pair id
	noDiff bool            // the runs rather than the comparison, once both ended
}

// PairDiffMsg is the comparison of a pair whose runs have both ended.
type PairDiffMsg struct {
	Pair   string
	Result parity.Result
	Err    error
}

func newPairView(c *Common) pairView {
	return pairView{other: newTerminal(c, ""), diffs: map[string]*parity.Result{}, asked: map[string]bool{}}
}

// sync shows the selected row's partner beside it, or no second pane; true if the
// terminal pane must be sized again (size).
func (p *pairView) sync(r runlist.Row, l runlist.List, screens map[string]screen.View) (resize bool) {
	partner, paired := runs.Info{}, false
	if r.Kind == runlist.RowRun {
		partner, paired = l.Partner(r.Run)
	}
	left := r.Kind == runlist.RowRun && r.Run.Kind == runs.KindPTY
	if paired != p.on || left != p.left {
		p.on, p.left, resize = paired, left, true
	}
	if paired {
		p.other.ShowRun(partner, screens[partner.ID])
	}
	return resize
}

// size gives the terminal pane to the selected run (term), or halves of it to a pair.
func (p *pairView) size(term *terminal.Terminal, l layout) {
	if !p.on {
		term.SetSize(l.term.w, l.term.h)
		return
	}
	// The PTY run always gets the left half, so selecting the other run of the pair
	// does not resize it.
	pty, pipe := l.term.w/2, l.term.w-l.term.w/2
	if p.left {
		term.SetSize(pty, l.term.h)
		p.other.SetSize(pipe, l.term.h)
	} else {
		term.SetSize(pipe, l.term.h)
		p.other.SetSize(pty, l.term.h)
	}
	p.other.SetZoomed(l.zoomed)
}

// runSize is the screen size a live PTY run is fitted to: the terminal pane's inner
// size, or for a run of a pair the inner size of the left half, whether or not the
// pair is shown now (so selecting a pair does not resize it back and forth).
func runSize(l layout, i runs.Info) [2]uint16 {
	w := l.term.w
	if i.Spec.Pair != "" {
		w /= 2
	}
	return [2]uint16{uint16(max(w-2, 1)), uint16(max(l.term.h-2, 1))}
}

// watched is the run whose screen the pane shows: for a pair, its PTY run.
func (p pairView) watched(term terminal.Terminal) string {
	if p.on && !p.left {
		return p.other.ID()
	}
	return term.ID()
}

// showsLog reports whether a pane shows run id as a log: the selected run's (term) or
// a shown partner's.
func (p pairView) showsLog(term terminal.Terminal, id string) bool {
	return id == term.ID() && term.ShowsLog() || p.on && id == p.other.ID() && p.other.ShowsLog()
}

// shownLogs are those of runs ids that a pane shows as a log.
func (p pairView) shownLogs(term terminal.Terminal, ids ...string) []string {
	var shown []string
	for _, id := range ids {
		if id != "" && p.showsLog(term, id) {
			shown = append(shown, id)
		}
	}
	return shown
}

// missingLogs are the runs a pane shows as a log but has none of yet. A pair's partner
// can be listed after its output came and went (a pipe run that printed and exited
// before its event arrived): no OutputMsg will ask for its log, so the pane that
// starts showing it asks (the CI saw the pipe half stay "…").
func (p pairView) missingLogs(term terminal.Terminal) []string {
	var ids []string // NeedsLog implies ShowsLog
	if term.NeedsLog() {
		ids = append(ids, term.ID())
	}
	if p.on && p.other.NeedsLog() {
		ids = append(ids, p.other.ID())
	}
	return ids
}

// termView is the terminal pane: the selected run's, or a pair's two halves joined,
// or the pair's comparison.
func (p pairView) view(c *Common, term terminal.Terminal, l layout) string {
	if !p.on {
		return term.View()
	}
	if r := p.diffs[term.Info().Spec.Pair]; r != nil && !p.noDiff {
		return diffPane(c, r, l.term.w, l.term.h)
	}
	a, b := strings.Split(term.View(), "\n"), strings.Split(p.other.View(), "\n")
	if !p.left {
		a, b = b, a
	}
	out := make([]string, max(len(a), len(b)))
	for i := range out {
		out[i] = lineAt(a, i) + lineAt(b, i)
	}
	return common.JoinLines(out)
}

func lineAt(ls []string, i int) string {
	if i < len(ls) {
		return ls[i]
	}
	return ""
}

// diffPane is a pair's comparison, framed like the terminal pane.
func diffPane(c *Common, r *parity.Result, w, h int) string {
	st := c.Styles
	title := "Parity: identical"
	if !r.Identical {
		title = fmt.Sprintf("Parity: %d difference(s)", len(r.Differences))
	}
	body := []string{sideLine(r.PTYInfo(), r.PTY), sideLine(r.PipeInfo(), r.Pipe), ""}
	for _, d := range r.Differences {
		body = append(body, " "+st.Warn.Render(common.Clean(d)))
	}
	if r.Identical {
		body = append(body, " "+st.Muted.Render("same output (after normalization), reason, exit, cleanup and escapees"))
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.Diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "+"):
			l = st.OK.Render(common.Clean(l))
		case strings.HasPrefix(l, "-"):
			l = st.Danger.Render(common.Clean(l))
		default:
			l = common.Clean(l)
		}
		body = append(body, " "+l)
	}
	hint := " " + st.Muted.Render(c.Keys.PairDiff.Help().Key+": the runs' screens")
	if room := max(h-3, 0); len(body) > room {
		more := len(body) - room + 1
		body = append(body[:max(room-1, 0)], " "+st.Muted.Render(fmt.Sprintf("… %d more line(s): corral parity --json shows all", more)))
	}
	body = append(body, hint)
	for i, l := range body {
		body[i] = common.Fit(l, w-2)
	}
	return common.JoinLines(common.Box(st.Border, st.Title.Render(title)+" "+st.Muted.Render("(pty − / pipe +)"), body, w, h))
}

// sideLine is one run of a pair in the comparison: kind, how it ended, how long it
// ran, its cleanup.
func sideLine(i runs.Info, rep runs.Report) string {
	end := common.Badge(i)
	return fmt.Sprintf(" %-5s %s · %s · cleanup %s · killed %d · escapees %d", i.Kind, common.Clean(end),
		i.Duration().Round(time.Millisecond), runs.StepsText(rep.Cleanup.Steps), rep.Cleanup.Killed, len(rep.Escapees))
}

// pairDiffCmd compares the two ended runs of a pair from their logs.
func pairDiffCmd(c Engine, pty, pipe runs.Info) tea.Cmd {
	return func() tea.Msg {
		a, err := output(c, pty.ID)
		b, err2 := output(c, pipe.ID)
		if err == nil {
			err = err2
		}
		r := parity.Compare(parity.Side{Info: pty, Output: a}, parity.Side{Info: pipe, Output: b}, parity.Options{})
		return PairDiffMsg{Pair: pty.Spec.Pair, Result: r, Err: err}
	}
}

// compare asks for the comparison of info's pair once both of its runs ended.
func (p *pairView) compare(engine Engine, l runlist.List, info runs.Info) tea.Cmd {
	partner, ok := l.Partner(info)
	pair := info.Spec.Pair
	if !ok || !info.Ended() || !partner.Ended() || p.asked[pair] {
		return nil
	}
	p.asked[pair] = true
	if info.Kind != runs.KindPTY {
		info, partner = partner, info
	}
	return pairDiffCmd(engine, info, partner)
}

// takeDiff keeps a comparison; the pane shows it if its pair is shown.
func (p *pairView) takeDiff(msg PairDiffMsg) error {
	if msg.Err != nil {
		return msg.Err
	}
	r := msg.Result
	p.diffs[msg.Pair] = &r
	p.noDiff = false
	return nil
}

// targets are the runs a focused key goes to: the selected run (term), and its
// partner unless keys go to one only.
func (p pairView) targets(term terminal.Terminal) []string {
	ids := []string{term.ID()}
	if p.on && !p.one && !p.other.Info().Ended() {
		ids = append(ids, p.other.ID())
	}
	return ids
}

// key handles the pair keys in browse mode: keys to both or one, diff or runs; it
// returns the notice to show.
func (p *pairView) key(diff bool, term terminal.Terminal) string {
	switch {
	case !p.on:
		return "not a parity pair (start one with n, kind parity, or corral parity)"
	case diff && p.diffs[term.Info().Spec.Pair] == nil:
		return "the comparison comes when both runs have ended"
	case diff:
		p.noDiff = !p.noDiff
		return ""
	}
	p.one = !p.one
	if p.one {
		return "focused keys go to " + common.Clean(term.Info().Name) + " only"
	}
	return "focused keys go to both runs of the pair"
}

// spawnPairCmd starts the new-run form's spec as a parity pair (its dependencies
// named as on the command line); the PTY run is selected.
func spawnPairCmd(c Engine, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		specs := parity.Pair(spec)
		id, err := spawnWith(c, specs[0], true)
		if err == nil || id != "" {
			if _, err2 := spawnWith(c, specs[1], true); err == nil {
				err = err2
			}
		}
		return SpawnedMsg{ID: id, Err: err}
	}
}
