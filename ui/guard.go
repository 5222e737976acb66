package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Keys that must not act by accident (issue 14.4, 14.3). Outside focus single keys
// are commands: a sentence typed into the wrong pane, or an unbracketed paste
// (`xyq d`), cancelled a run, answered its question and quit. So:
//   - every destructive key asks (cancel, interrupt, remove, quit with live or unseen
//     ended runs), and a question takes only an answer typed after it could be read
//     (Confirm, answerGrace); a key that is no answer closes it as a no;
//   - once a question saw keys not meant for it, the keys that follow close behind
//     (each within answerGrace of the last) are dropped too, with a notice: the rest
//     of the paste or the sentence;
//   - when the focused run ends, focus stays on its last screen and keys go nowhere
//     until the leave chord: "press Ctrl-C again to exit" and the run's exit must not
//     turn the next Ctrl-C into Corral's quit;
//   - quitting while ended runs were never looked at asks first.
// Only arrival times decide, read from the model's clock; a UI that stalls can make
// a person's keys look close together, which is why nothing is dropped until keys
// have already gone astray.

// quarantine starts dropping the keys that follow close behind.
func (m *Model) quarantine() {
	m.quarantined, m.lastKey, m.dropped = true, m.c.Now(), 0
}

// dropStray reports whether a key outside focus is the tail of keys that went astray.
func (m *Model) dropStray() bool {
	if !m.quarantined {
		return false
	}
	now := m.c.Now()
	gap := now.Sub(m.lastKey)
	m.lastKey = now
	if gap > 0 && gap < answerGrace {
		m.dropped++
		m.flash = fmt.Sprintf("ignored %d key(s) that came with others not meant for Corral (a paste? focus the run with %s to paste into it)",
			m.dropped, m.c.Keys.Focus.Help().Key)
		return true
	}
	m.quarantined = false
	return false
}

// askInterrupt asks before sending Ctrl-C (PTY) or SIGINT (pipe) to a live run.
func (m Model) askInterrupt(sel runs.Info) (tea.Model, tea.Cmd) {
	if sel.Ended() {
		return m.note("interrupt: %s has ended", sel.Name)
	}
	return m.ask(fmt.Sprintf("Interrupt %s (Ctrl-C)?", sel.Name), confirmInterrupt, sel.ID)
}

// askRemove asks before forgetting an ended run.
func (m Model) askRemove(sel runs.Info) (tea.Model, tea.Cmd) {
	if !sel.Ended() {
		return m.note("remove: %s is still %s", sel.Name, sel.State)
	}
	if m.list.Configured(sel) { // it goes back to not started (issue 14.8)
		return m.ask(fmt.Sprintf("Remove %s's run and screen? It is listed as not started again (%s starts it).",
			sel.Name, m.c.Keys.Restart.Help().Key), confirmRemove, sel.ID)
	}
	return m.ask(fmt.Sprintf("Remove %s and its screen from the list?", sel.Name), confirmRemove, sel.ID)
}

// ask opens a y/n question about run id.
func (m Model) ask(question string, op confirmOp, id string) (tea.Model, tea.Cmd) {
	m.confirm = NewConfirm(m.c, question)
	m.confirm.SetSize(m.lay.w, 1)
	m.confirmOp, m.confirmID = op, id
	m.openDialog(dlgConfirm)
	return m, nil
}

// endedFocus is the focused run's end: focus stays on its last screen, keys are not
// sent anywhere, and the status line says how to leave.
func (m Model) endedFocusKey() (tea.Model, tea.Cmd) {
	m.flash = ""
	return m, nil
}

// unseenEnds counts ended runs carrying the attention marker: their end was never
// looked at.
func (m Model) unseenEnds() int {
	n := 0
	for _, i := range m.list.Runs() {
		if i.Ended() && m.list.Attention(i.ID) {
			n++
		}
	}
	return n
}

// quitQuestion is what quitting asks, or "" to quit at once.
func (m Model) quitQuestion() string {
	if n := len(m.liveRuns()); n > 0 {
		return fmt.Sprintf("%d live run(s) will be ended (supervisor-shutdown). Quit?", n)
	}
	if n := m.unseenEnds(); n > 0 {
		return fmt.Sprintf("%d run(s) ended that you have not looked at; their screens go with Corral. Quit?", n)
	}
	return ""
}
