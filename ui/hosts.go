package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/runs"
	"corral/runs/api"
)

// A UI over several hosts (each its own server, reached over ssh) has a core that routes each operation to the
// server of the run it names (client.Fleet). The run list groups the runs by host
// under headers that say each host's link (runlist/hosts.go); a host that drops keeps
// its rows, muted, while the others go on; when it is back its runs are fetched
// afresh from its server alone (ResyncMsg with Host). The new-run form asks for the
// host; a restart goes to the ended run's host; configured runs start on this
// machine's.

// fleetEngine is an engine over several hosts (client.Fleet): it says each host's
// state and keeps each host's events.
type fleetEngine interface {
	Hosts() []api.HostState
	HistoryOf(host string) []runs.Event
}

// HostsMsg is every host's state, read after one changed (api.EventHostState).
type HostsMsg struct{ Hosts []api.HostState }

func hostsCmd(c Engine) tea.Cmd {
	h, ok := c.(fleetEngine)
	if !ok {
		return nil
	}
	return func() tea.Msg { return HostsMsg{Hosts: h.Hosts()} }
}

// hostNames are the hosts' names, in order (nil over one host).
func (m Model) hostNames() []string {
	var names []string
	for _, h := range m.list.Hosts() {
		names = append(names, h.Name)
	}
	return names
}

// hostsChanged takes the hosts' states: each change of a host's link is said in the
// events pane, and a host connected (again, or to a new server) has its runs fetched.
func (m Model) hostsChanged(msg HostsMsg) (tea.Model, tea.Cmd) {
	old := map[string]api.HostState{}
	for _, h := range m.list.Hosts() {
		old[h.Name] = h
	}
	var cmds []tea.Cmd
	for _, h := range msg.Hosts {
		was, known := old[h.Name]
		if known && was.Status == h.Status && was.Server == h.Server {
			continue
		}
		if text, warn := hostChange(h, was); text != "" {
			style := m.c.Styles.Muted
			if warn {
				style = m.c.Styles.Warn
			}
			m.events.Add(m.now, text, style)
		}
		if h.Status == api.HostConnected && (was.Status != api.HostConnected || was.Server != h.Server) {
			cmds = append(cmds, resyncHostCmd(m.engine, h.Name))
		}
	}
	m.list.SetHosts(msg.Hosts)
	m.relayout()
	return m, tea.Batch(cmds...)
}

// hostsAtStart lists the hosts as the UI opens, and says in the events pane why any
// that is not connected is not (later changes are said as they come).
func (m *Model) hostsAtStart(hs []api.HostState) {
	m.list.SetHosts(hs)
	for _, h := range hs {
		if text, warn := hostChange(h, api.HostState{}); warn {
			m.events.Add(m.now, text, m.c.Styles.Warn)
		}
	}
}

// hostChange is what the events pane says of a host's new state (warn: loudly).
func hostChange(h, was api.HostState) (string, bool) {
	switch h.Status {
	case api.HostConnected:
		s := fmt.Sprintf("host %s connected (%s)", h.Name, h.Where)
		if h.Server > 0 {
			s += fmt.Sprintf(", server pid %d", h.Server)
		}
		if was.Status == api.HostUnreachable || was.Status == api.HostLost {
			s += fmt.Sprintf(" after %s away", h.Since.Sub(was.Since).Round(time.Second))
		}
		return s, false
	case api.HostUnreachable:
		return fmt.Sprintf("host %s unreachable: %s; trying again, its runs are shown as last seen", h.Name, finalLine(h.Err)), true
	case api.HostMismatch:
		return fmt.Sprintf("host %s: %s", h.Name, finalLine(h.Err)), true
	case api.HostLost:
		return fmt.Sprintf("host %s: server lost (%s): reconnecting…", h.Name, finalLine(h.Err)), true
	}
	return "", false
}

// finalLine is the last non-empty line of s.
func finalLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// resyncHostCmd fetches one host's runs and recent events afresh.
func resyncHostCmd(c Engine, host string) tea.Cmd {
	return func() tea.Msg {
		rep, err := api.Snapshot.Call(api.OnHost(bg, host), c, api.SnapshotArgs{Viewer: c.Viewer(), All: true})
		msg := ResyncMsg{Host: host, Runs: rep.Runs, Err: err}
		if h, ok := c.(fleetEngine); ok {
			msg.History = h.HistoryOf(host)
		}
		return msg
	}
}

// pinnedEngine is a fleetEngine pinned to one host: it sends the operations that name
// no run to that host, as a run started there (on another machine than this: remote).
type pinnedEngine struct {
	Engine
	host   string
	remote bool
}

func (h pinnedEngine) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	return h.Engine.Invoke(api.OnHost(ctx, h.host), op, args)
}

// onHost is c, sending what names no run to host ("" and over one host: c itself).
func (m Model) onHost(host string) Engine {
	if host == "" || !m.list.Grouped() {
		return m.engine
	}
	i := slices.IndexFunc(m.list.Hosts(), func(h api.HostState) bool { return h.Name == host })
	return pinnedEngine{Engine: m.engine, host: host, remote: i >= 0 && !m.list.Hosts()[i].Local}
}

// spawnArgs are spawn's arguments for spec on c: from this process's directory and
// environment, or, for a host on another machine, from nothing of this one's
// (api.There).
// named says the spec's dependencies are named as on the command line (the new-run
// form's after field): the server resolves each to a run it has now, and refuses one
// that names none. A configured run's (started from its pending row) and an ended
// run's started again keep theirs as they are: a config's may name runs started
// after it.
func spawnArgs(c Engine, spec runs.Spec, named bool) api.SpawnArgs {
	var a api.SpawnArgs
	if h, ok := c.(pinnedEngine); ok && h.remote {
		a = api.There(spec)
	} else {
		a = api.Here(spec)
	}
	a.NamedDeps = named && len(spec.DependsOn) > 0
	return a
}
