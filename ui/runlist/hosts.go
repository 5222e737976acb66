package runlist

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/ui/common"
)

// Over several hosts (client.Fleet) the run list groups the runs by host,
// in the hosts' order: each group starts with its host's header line, which says how
// the host is reached, its link (connected, connecting, reconnecting, unreachable
// since …, version mismatch) and its counts. A header is not a row: the selection
// moves over the runs, from one group into the next. Over one host there are no
// headers. The configured runs not started yet belong to this machine's host.

// SetHosts sets the hosts whose runs the list groups (nil: one host, no headers).
func (l *List) SetHosts(hs []api.HostState) {
	if !slices.Equal(hs, l.hosts) {
		l.hosts = slices.Clone(hs)
		l.follow()
		l.ver++
	}
}

// Hosts are the hosts whose runs the list groups, in order (nil over one host); the
// slice must not be changed.
func (l List) Hosts() []api.HostState { return l.hosts }

// Grouped reports whether the list groups runs by host.
func (l List) Grouped() bool { return len(l.hosts) > 0 }

// hostOfRow is the host row i belongs to: a run's, or this machine's for a
// configured run not started.
func (l List) hostOfRow(i int) string {
	if i < len(l.runs) {
		return l.runs[i].Host
	}
	return config.LocalHost
}

// hostRank is where host h's group comes: the hosts' order, unknown hosts last.
func (l List) hostRank(h string) int {
	if i := slices.IndexFunc(l.hosts, func(s api.HostState) bool { return s.Name == h }); i >= 0 {
		return i
	}
	return len(l.hosts)
}

// grouped orders rows by their host's group, each group in list order.
func (l List) grouped(rows []int) []int {
	if len(l.hosts) > 0 {
		slices.SortStableFunc(rows, func(a, b int) int { return l.hostRank(l.hostOfRow(a)) - l.hostRank(l.hostOfRow(b)) })
	}
	return rows
}

// listLine is one line of the list's body: a host's header, or a row.
type listLine struct {
	header int // the host's index + 1 for a header; 0 for a row
	row    int
}

// display is the body's lines: the rows shown, each host's after its header.
func (l List) display() []listLine {
	shown := l.shown()
	out := make([]listLine, 0, len(shown)+len(l.hosts))
	if len(l.hosts) == 0 {
		for _, i := range shown {
			out = append(out, listLine{row: i})
		}
		return out
	}
	k := 0
	for h := range l.hosts {
		out = append(out, listLine{header: h + 1})
		for ; k < len(shown) && l.hostRank(l.hostOfRow(shown[k])) == h; k++ {
			out = append(out, listLine{row: shown[k]})
		}
	}
	for ; k < len(shown); k++ {
		out = append(out, listLine{row: shown[k]})
	}
	return out
}

// lineOf is the body line row i is drawn on (-1 if not shown).
func lineOf(lines []listLine, i int) int {
	return slices.IndexFunc(lines, func(x listLine) bool { return x.header == 0 && x.row == i })
}

// hostLine is host h's header, exactly w columns: its name, link and counts, then how
// it is reached, the least needed last (a narrow list cuts it).
func (l List) hostLine(h api.HostState, w int) string {
	st := l.c.Styles
	live, n, agents := 0, 0, map[agentstate.State]int{}
	for _, i := range l.runs {
		if i.Host != h.Name {
			continue
		}
		n++
		if !i.Ended() {
			live++
		}
		if i.Agent != "" && i.State == runs.Running {
			agents[i.AgentState]++
		}
	}
	parts := []string{st.Title.Render(common.Clean(h.Name)), l.linkText(h)}
	if n > 0 {
		parts = append(parts, st.Muted.Render(fmt.Sprintf("%d live of %d", live, n)))
	}
	for _, c := range []struct {
		state agentstate.State
		style common.Style
	}{{agentstate.Waiting, st.AgentWaiting}, {agentstate.Working, st.AgentWorking}, {agentstate.Idle, st.AgentIdle}} {
		if k := agents[c.state]; k > 0 {
			parts = append(parts, c.style.Render(fmt.Sprintf("%d %s", k, c.state)))
		}
	}
	if h.Where != "" {
		parts = append(parts, st.Muted.Render(common.Clean(h.Where)))
	}
	return common.Fit(common.Trunc(" "+strings.Join(parts, st.Muted.Render(" · ")), w), w)
}

// linkText is a host's link as its header says it.
func (l List) linkText(h api.HostState) string {
	st := l.c.Styles
	switch h.Status {
	case api.HostConnected:
		return st.Running.Render("connected")
	case api.HostConnecting:
		return st.Warn.Render("connecting…")
	case api.HostLost:
		return st.Warn.Render("server lost, reconnecting…")
	}
	s := string(h.Status) + " since " + h.Since.Format("15:04:05") // why: in the events pane
	if !h.Next.IsZero() {
		if left := h.Next.Sub(l.now); left > 0 {
			// Rounded: it turns at each half second before h.Next, then says "trying…".
			turn := left % time.Second
			if turn <= time.Second/2 {
				turn += time.Second / 2
			} else {
				turn -= time.Second / 2
			}
			l.cache.Changes.At(l.now.Add(min(turn, left)))
			s += fmt.Sprintf(" · retry %s", left.Round(time.Second))
		} else {
			s += " · trying…"
		}
	}
	return st.Danger.Render(s)
}

// hostDown reports whether run i's host is not connected: its row is what the host
// said last.
func (l List) hostDown(i runs.Info) bool {
	r := l.hostRank(i.Host)
	return r < len(l.hosts) && l.hosts[r].Status != api.HostConnected
}

// HostCount is how many hosts the live runs are on.
func (l List) HostCount() int {
	seen := map[string]bool{}
	for _, i := range l.Live() {
		seen[i.Host] = true
	}
	return len(seen)
}
