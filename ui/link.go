package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
)

// An attached UI whose server is lost (killed, crashed) stays up while its core
// reconnects (client.Remote, which starts a new server as attaching does): the run
// list's title and the status line say "server lost — reconnecting…", keys typed
// meanwhile fail at once and the events pane says they were not delivered, and the
// quit key detaches at once. Once attached again the UI fetches the runs and the
// events it missed afresh (ResyncMsg) and says which server it reached.

// ResyncMsg is what the UI fetches again after its core reattached: every run of the
// new server, and the recent events of the state dir's log (History).
type ResyncMsg struct {
	Host    string // over several hosts, the one attached again: only its runs are fetched
	Runs    []runs.Info
	History []runs.Event
	Err     error
}

// historian is a core that keeps the events of the log from before it (re)attached:
// client.Remote.
type historian interface{ History() []runs.Event }

func resyncCmd(c Engine) tea.Cmd {
	return func() tea.Msg {
		rep, err := api.Snapshot.Call(bg, c, api.SnapshotArgs{Viewer: c.Viewer(), All: true})
		msg := ResyncMsg{Runs: rep.Runs, Err: err}
		if h, ok := c.(historian); ok {
			msg.History = h.History()
		}
		return msg
	}
}

// linkLost is the status line's and the run list's word while the server is lost.
const linkLost = "server lost — reconnecting…"

// linkEvent takes the core's own events: the server lost, each failed attempt, and
// the server back.
func (m Model) linkEvent(ev runs.Event) (tea.Model, tea.Cmd) {
	switch ev.Type {
	case api.EventServerLost:
		if m.link == "" {
			m.events.Add(ev.Time, fmt.Sprintf("server pid %d lost (%s): reconnecting…", ev.Run.PID, ev.Detail), m.c.Styles.Warn)
			m.link = linkLost
		} else {
			m.link = linkLost + " " + ev.Detail
		}
		m.list.SetLink("reconnecting…") // the list is narrow: the status line says more
		return m, nil
	case api.EventServerBack:
		m.link = ""
		m.list.SetLink("")
		m.flash = fmt.Sprintf("reconnected to server pid %d", ev.Run.PID)
		m.events.Add(ev.Time, m.flash, m.c.Styles.Warn)
		return m, resyncCmd(m.engine)
	}
	return m, nil
}

// resynced takes the new server's runs: each listed run's row becomes what the new
// server says (its sequence numbers do not continue the lost one's), its new runs are
// listed, and a run it does not know leaves the list with a note; the events logged
// since the last the UI saw are added as history; screens and watches are asked for
// again, and so are the sizes of its panes and the runs it shows and looks at.
func (m Model) resynced(msg ResyncMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.events.AddError(m.now, "reconnect", "", msg.Err)
		if m.req.listing && msg.Host == "" && m.req.resyncTries < resyncTries {
			// Lost before the rest of the first list came, that stream's listing is
			// gone with it: only a resync lists every run now, and what waits for
			// every run (the runs asked for) waits for it.
			m.req.resyncTries++
			return m, tea.Tick(resyncAgainAfter, func(time.Time) tea.Msg { return resyncAgainMsg{} })
		}
		return m, nil
	}
	m.req.resyncTries = 0
	m.addHistory(msg.History)
	known := map[string]bool{}
	var cmds []tea.Cmd
	for _, i := range msg.Runs {
		known[i.ID] = true
		if _, listed := m.list.Run(i.ID); !listed && i.Kind == runs.KindPTY {
			cmds = append(cmds, screenCmd(m.engine, i.ID))
		}
		m.list.Overwrite(i)
	}
	var model tea.Model = m
	gone := "%s %s is not in the new server: removed (corral ls shows its record)"
	if msg.Host != "" {
		gone = "%s %s is not in host " + msg.Host + "'s server: removed (corral ls --host " + msg.Host + " shows its record)"
	}
	for _, i := range m.list.Runs() {
		if !known[i.ID] && (msg.Host == "" || i.Host == msg.Host) {
			var cmd tea.Cmd
			model, cmd = model.(Model).forgetSaying(i.ID, gone)
			cmds = append(cmds, cmd)
		}
	}
	m = model.(Model)
	m.events.SetEscaped(m.list.Runs(), m.list.Unlisted().Escaped)
	// The new server knows nothing of this UI's pane: its size for each run, the run it
	// shows and the one the user looks at are said again, so the window-size policy
	// counts this UI (else a UI attached after it sizes every run alone).
	clear(m.sized)
	m.req.watching, m.req.looking = "", ""
	m.relayout()
	cmds = append(cmds, m.selectionMoved(), m.fitShown())
	if m.req.listing && msg.Host == "" { // lost before the rest of the first list came: this is every run
		cmds = append(cmds, m.everyRunListed())
	}
	return m, tea.Batch(cmds...)
}

// resyncAgainAfter is the wait before a failed resync is tried again while the list
// is not whole, resyncTries the most tries in a row.
const (
	resyncAgainAfter = time.Second
	resyncTries      = 10
)

// resyncAgainMsg tries a failed resync again (resynced).
type resyncAgainMsg struct{}

// resyncAgain resyncs again if the list is still not whole and the server is not lost
// (once back, the core's event resyncs).
func (m Model) resyncAgain() (tea.Model, tea.Cmd) {
	if !m.req.listing || m.link != "" {
		return m, nil
	}
	return m, resyncCmd(m.engine)
}

// addHistory adds the events of the log newer than the last the UI has, as history.
func (m *Model) addHistory(h []runs.Event) {
	for _, ev := range h {
		if ev.Time.After(m.lastEvent) {
			m.events.AddHistory(ev)
			m.lastEvent = ev.Time
		}
	}
}
