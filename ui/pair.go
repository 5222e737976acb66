package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/parity"
)

// A parity pair (DESIGN §14) is two runs of one spec, a PTY one and a pipe one, that
// carry the same Spec.Pair. Selecting either shows both in the terminal pane, side by
// side (PTY left), each its own screen or log at the same size; in focus, keys go to
// both (or, toggled, to the selected one only); once both have ended the pane shows
// what differs (parity.Compare), and the diff key switches between that and the runs.

// pairView is the pair shown with the selected run, if any.
type pairView struct {
	on     bool
	other  Terminal // the partner's pane (the selected run's is Model.term)
	left   bool     // the selected run is the PTY one, drawn on the left
	one    bool     // in focus, keys go to the selected run only
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

// partner is the other run of info's pair, if it is listed.
func (m Model) partner(info runs.Info) (runs.Info, bool) {
	if info.Spec.Pair == "" {
		return runs.Info{}, false
	}
	for _, i := range m.list.Runs() {
		if i.ID != info.ID && i.Spec.Pair == info.Spec.Pair {
			return i, true
		}
	}
	return runs.Info{}, false
}

// syncPair shows the selected run's partner beside it, or no second pane.
func (m *Model) syncPair(sel runs.Info, ok bool) {
	p, paired := runs.Info{}, false
	if ok {
		p, paired = m.partner(sel)
	}
	left := ok && sel.Kind == runs.KindPTY
	if paired != m.pair.on || left != m.pair.left {
		m.pair.on, m.pair.left = paired, left
		m.sizeTerms()
	}
	if paired {
		m.pair.other.SetRun(p, m.screens[p.ID])
	}
}

// sizeTerms gives the terminal pane to the selected run, or halves of it to a pair.
func (m *Model) sizeTerms() {
	l := m.lay
	if !m.pair.on {
		m.term.SetSize(l.term.w, l.term.h)
		return
	}
	// The PTY run always gets the left half, so selecting the other run of the pair
	// does not resize it.
	pty, pipe := l.term.w/2, l.term.w-l.term.w/2
	if m.pair.left {
		m.term.SetSize(pty, l.term.h)
		m.pair.other.SetSize(pipe, l.term.h)
	} else {
		m.term.SetSize(pipe, l.term.h)
		m.pair.other.SetSize(pty, l.term.h)
	}
	m.pair.other.SetZoomed(l.zoomed)
}

// runSize is the screen size a live PTY run is fitted to: the terminal pane's inner
// size, or for a run of a pair the inner size of the left half, whether or not the
// pair is shown now (so selecting a pair does not resize it back and forth).
func (m Model) runSize(i runs.Info) [2]uint16 {
	w := m.lay.term.w
	if i.Spec.Pair != "" {
		w /= 2
	}
	return [2]uint16{uint16(max(w-2, 1)), uint16(max(m.lay.term.h-2, 1))}
}

// watched is the run whose screen the pane shows: for a pair, its PTY run.
func (m Model) watched() string {
	if m.pair.on && !m.pair.left {
		return m.pair.other.ID()
	}
	return m.term.ID()
}

// termView is the terminal pane: the selected run's, or a pair's two halves joined,
// or the pair's comparison.
func (m Model) termView() string {
	if !m.pair.on {
		return m.term.View()
	}
	if r := m.pair.diffs[m.term.info.Spec.Pair]; r != nil && !m.pair.noDiff {
		return m.diffPane(r)
	}
	a, b := strings.Split(m.term.View(), "\n"), strings.Split(m.pair.other.View(), "\n")
	if !m.pair.left {
		a, b = b, a
	}
	out := make([]string, max(len(a), len(b)))
	for i := range out {
		out[i] = lineAt(a, i) + lineAt(b, i)
	}
	return joinLines(out)
}

func lineAt(ls []string, i int) string {
	if i < len(ls) {
		return ls[i]
	}
	return ""
}

// diffPane is a pair's comparison, framed like the terminal pane.
func (m Model) diffPane(r *parity.Result) string {
	st := m.c.Styles
	w, h := m.lay.term.w, m.lay.term.h
	title := "Parity: identical"
	if !r.Identical {
		title = fmt.Sprintf("Parity: %d difference(s)", len(r.Differences))
	}
	body := []string{sideLine(r.PTYInfo(), r.PTY), sideLine(r.PipeInfo(), r.Pipe), ""}
	for _, d := range r.Differences {
		body = append(body, " "+st.Warn.Render(clean(d)))
	}
	if r.Identical {
		body = append(body, " "+st.Muted.Render("same output (after normalization), reason, exit, cleanup and escapees"))
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.Diff, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "+"):
			l = st.OK.Render(clean(l))
		case strings.HasPrefix(l, "-"):
			l = st.Danger.Render(clean(l))
		default:
			l = clean(l)
		}
		body = append(body, " "+l)
	}
	hint := " " + st.Muted.Render(m.c.Keys.PairDiff.Help().Key+": the runs' screens")
	if room := max(h-3, 0); len(body) > room {
		more := len(body) - room + 1
		body = append(body[:max(room-1, 0)], " "+st.Muted.Render(fmt.Sprintf("… %d more line(s): corral parity --json shows all", more)))
	}
	body = append(body, hint)
	for i, l := range body {
		body[i] = fit(l, w-2)
	}
	return joinLines(box(st.Border, st.Title.Render(title)+" "+st.Muted.Render("(pty − / pipe +)"), body, w, h))
}

// sideLine is one run of a pair in the comparison: kind, how it ended, how long it
// ran, its cleanup.
func sideLine(i runs.Info, rep runs.Report) string {
	end := badge(i)
	return fmt.Sprintf(" %-5s %s · %s · cleanup %s · killed %d · escapees %d", i.Kind, clean(end),
		i.Duration().Round(time.Millisecond), runs.StepsText(rep.Cleanup.Steps), rep.Cleanup.Killed, len(rep.Escapees))
}

// pairDiffCmd compares the two ended runs of a pair from their logs.
func pairDiffCmd(c Core, pty, pipe runs.Info) tea.Cmd {
	return func() tea.Msg {
		a, err := c.Log(pty.ID)
		b, err2 := c.Log(pipe.ID)
		if err == nil {
			err = err2
		}
		r := parity.Compare(parity.Side{Info: pty, Output: a}, parity.Side{Info: pipe, Output: b}, parity.Options{})
		return PairDiffMsg{Pair: pty.Spec.Pair, Result: r, Err: err}
	}
}

// comparePair asks for the comparison of info's pair once both of its runs ended.
func (m *Model) comparePair(info runs.Info) tea.Cmd {
	p, ok := m.partner(info)
	pair := info.Spec.Pair
	if !ok || !info.Ended() || !p.Ended() || m.pair.asked[pair] {
		return nil
	}
	m.pair.asked[pair] = true
	if info.Kind != runs.KindPTY {
		info, p = p, info
	}
	return pairDiffCmd(m.core, info, p)
}

// handlePairDiff keeps a comparison; the pane shows it if its pair is shown.
func (m Model) handlePairDiff(msg PairDiffMsg) Model {
	if msg.Err != nil {
		m.flash = "parity: " + msg.Err.Error()
		return m
	}
	r := msg.Result
	m.pair.diffs[msg.Pair] = &r
	m.pair.noDiff = false
	return m
}

// pairTargets are the runs a focused key goes to: the selected run, and its partner
// unless keys go to one only.
func (m Model) pairTargets() []string {
	ids := []string{m.term.ID()}
	if m.pair.on && !m.pair.one && !m.pair.other.info.Ended() {
		ids = append(ids, m.pair.other.ID())
	}
	return ids
}

// sendFocused sends focused input to the selected run and, for a pair, its partner.
func (m *Model) sendFocused(b []byte) tea.Cmd {
	var cmds []tea.Cmd
	for _, id := range m.pairTargets() {
		cmds = append(cmds, m.send(id, b))
	}
	return tea.Batch(cmds...)
}

// pairKey handles the pair keys in browse mode: keys to both or one, diff or runs.
func (m Model) pairKey(diff bool) (tea.Model, tea.Cmd) {
	if !m.pair.on {
		m.flash = "not a parity pair (start one with n, kind parity, or corral parity)"
		return m, nil
	}
	if diff {
		if m.pair.diffs[m.term.info.Spec.Pair] == nil {
			m.flash = "the comparison comes when both runs have ended"
			return m, nil
		}
		m.pair.noDiff = !m.pair.noDiff
		return m, nil
	}
	m.pair.one = !m.pair.one
	m.flash = "focused keys go to both runs of the pair"
	if m.pair.one {
		m.flash = "focused keys go to " + clean(m.term.info.Name) + " only"
	}
	return m, nil
}

// spawnPairCmd starts spec as a parity pair; the PTY run is selected.
func spawnPairCmd(c Core, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		specs := parity.Pair(spec)
		id, err := c.Spawn(specs[0])
		if err == nil || id != "" {
			if _, err2 := c.Spawn(specs[1]); err == nil {
				err = err2
			}
		}
		return SpawnedMsg{ID: id, Err: err}
	}
}
