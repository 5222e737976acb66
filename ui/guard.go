package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Keys that must not act by accident (issue 14.4, 14.3). Outside focus single keys
// are commands: a sentence typed into the wrong pane, or an unbracketed paste
// (`xyq d`), cancelled a run, answered its question and quit. So:
//   - keys that arrive faster than a person types are a paste or a burst, not
//     commands: the first of them acts (a question at most opens), the rest are
//     dropped with a notice;
//   - interrupt and remove ask first, as cancel and quit already did;
//   - when the focused run ends, focus stays on its last screen and keys go nowhere
//     until the leave chord: "press Ctrl-C again to exit" and the run's exit must not
//     turn the next Ctrl-C into Corral's quit;
//   - quitting while ended runs were never looked at asks first.

// burstGap: a key pressed less than this after the previous one is part of a burst.
// People type at most about 15 keys a second (65 ms apart) and key repeat runs at up
// to 30 a second (33 ms); the keys of a paste that arrives unbracketed come within
// the same read, microseconds apart, or a few milliseconds over a slow link.
const burstGap = 15 * time.Millisecond

// burst reports whether k, a key outside focus, comes within burstGap of the previous
// one (and notes its time either way).
func (m *Model) burst() bool {
	now := m.c.Now()
	last := m.lastKey
	m.lastKey = now
	// A gap of exactly zero is a clock that did not move (a test's fixed clock), never
	// two real key presses: the monotonic clock has nanoseconds.
	if gap := now.Sub(last); last.IsZero() || gap <= 0 || gap >= burstGap {
		m.dropped = 0
		return false
	}
	m.dropped++
	m.flash = fmt.Sprintf("ignored %d key(s) that came faster than typing (a paste? focus the run with %s to paste into it)",
		m.dropped, m.c.Keys.Focus.Help().Key)
	return true
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
