package web

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
)

// Engine is the server as corral web uses it, as ui.Engine is the UI's: a
// client.Remote (its calls, its event stream with the frames of the screens watched,
// and those screens).
type Engine interface {
	api.Caller
	Events() <-chan runs.Event
	Initial() []runs.Info
	Screen(id string) (screen.View, error)
	Viewer() string
}

// row is a run as the page's list shows it: what changes here is what the list is
// told; output is not.
type row struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Host       string `json:"host,omitempty"`
	Kind       string `json:"kind"`
	State      string `json:"state"`
	Paused     bool   `json:"paused,omitempty"`
	Agent      string `json:"agent,omitempty"`
	AgentState string `json:"agent_state,omitempty"`
	Glyph      string `json:"glyph,omitempty"`
	Rule       string `json:"rule,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Exit       *int   `json:"exit,omitempty"`
	Approve    bool   `json:"approve,omitempty"` // the agent's rule for its question has an answer
	Deny       bool   `json:"deny,omitempty"`
	Since      int64  `json:"since,omitempty"` // unix ms the question began: an answer names it
	Created    int64  `json:"created"`         // unix ms: the list's order
}

// hub holds what every browser is told: the runs, who views and focuses which.
type hub struct {
	core   Engine
	agents *agentstate.Set

	mu      sync.Mutex
	runs    map[string]runs.Info
	rows    map[string]string // the row each run was last shown as (JSON)
	clients map[*client]bool
	watchMu sync.Mutex      // held across a watch call
	watched []string        // the screens asked of the server
	focused map[string]int  // run → browsers looking at it with focus
	lost    bool            // the server is lost; the Remote reconnects
	hosts   []api.HostState // over several hosts (a Fleet): each one's link
}

// hosted is an Engine over several hosts (client.Fleet): its runs carry their host, and
// a host's link changing is its own event (api.EventHostState).
type hosted interface {
	Hosts() []api.HostState
}

func newHub(core Engine, agents *agentstate.Set) *hub {
	h := &hub{core: core, agents: agents, runs: map[string]runs.Info{}, rows: map[string]string{},
		clients: map[*client]bool{}, focused: map[string]int{}}
	for _, i := range core.Initial() {
		h.runs[i.ID] = i
	}
	if f, ok := core.(hosted); ok {
		h.hosts = f.Hosts()
	}
	return h
}

// answers are the keys of the agent's rule for the question run i waits at.
func (h *hub) answers(i runs.Info) (approve, deny []string) {
	if h.agents == nil || i.AgentState != agentstate.Waiting || i.Ended() {
		return nil, nil
	}
	a := h.agents.Named(i.Agent)
	if a == nil {
		return nil, nil
	}
	if r := a.Rule(i.AgentRule); r != nil {
		return r.Approve, r.Deny
	}
	return nil, nil
}

func (h *hub) rowOf(i runs.Info) row {
	ap, dn := h.answers(i)
	r := row{ID: i.ID, Name: i.Name, Host: i.Host, Kind: string(i.Kind), State: i.State.String(), Paused: i.Paused,
		Agent: i.Agent, Rule: i.AgentRule, Reason: reasonOf(i), Exit: i.ExitCode,
		Approve: len(ap) > 0, Deny: len(dn) > 0, Created: i.CreatedAt.UnixMilli()}
	if len(ap)+len(dn) > 0 && !i.AgentStateSince.IsZero() {
		r.Since = i.AgentStateSince.UnixMilli()
	}
	if i.Agent != "" {
		r.AgentState, r.Glyph = i.AgentState.String(), i.AgentState.Glyph()
	}
	return r
}

// list is every run's row, as one message.
func (h *hub) list() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	rs := make([]row, 0, len(h.runs))
	for _, i := range h.runs {
		rs = append(rs, h.rowOf(i))
	}
	slices.SortFunc(rs, func(a, b row) int { return int(a.Created - b.Created) })
	return message(map[string]any{"type": "runs", "runs": rs, "lost": h.lost, "hosts": hostRows(h.hosts)})
}

// hostRow is a host as the page's list heads its group.
type hostRow struct {
	Name   string `json:"name"`
	Local  bool   `json:"local,omitempty"`
	Status string `json:"status"`
	Err    string `json:"err,omitempty"`
}

func hostRows(hs []api.HostState) []hostRow {
	out := make([]hostRow, 0, len(hs))
	for _, s := range hs {
		r := hostRow{Name: s.Name, Local: s.Local, Status: string(s.Status)}
		if s.Status != api.HostConnected {
			r.Err = s.Err
		}
		out = append(out, r)
	}
	return out
}

func message(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// run reports whether run id is known, and its info.
func (h *hub) run(id string) (runs.Info, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	i, ok := h.runs[id]
	return i, ok
}

// pump reads the server's events until the stream ends (the server stopped).
func (h *hub) pump() {
	for e := range h.core.Events() {
		h.handle(e)
	}
	h.broadcast(message(map[string]any{"type": "server", "state": "gone"}))
}

func (h *hub) handle(e runs.Event) {
	switch e.Type {
	case runs.EventOutput:
		h.mu.Lock()
		for c := range h.clients {
			if c.view == e.Run.ID {
				c.wake()
			}
		}
		h.mu.Unlock()
	case runs.EventNotify:
		h.broadcast(message(map[string]any{"type": "notify", "id": e.Run.ID, "name": e.Run.Name, "text": e.Detail}))
	case runs.EventRemoved:
		h.mu.Lock()
		delete(h.runs, e.Run.ID)
		delete(h.rows, e.Run.ID)
		h.mu.Unlock()
		h.broadcast(message(map[string]any{"type": "removed", "id": e.Run.ID}))
	case api.EventServerLost, api.EventServerBack:
		h.relinked(e.Type == api.EventServerLost)
	case api.EventHostState:
		h.hostState(e.Run.Host)
	default:
		h.changed(e.Run)
	}
}

// changed takes a run's newer info and tells the browsers when its row moved.
func (h *hub) changed(i runs.Info) {
	if i.ID == "" {
		return
	}
	h.mu.Lock()
	if old, ok := h.runs[i.ID]; ok && old.Seq > i.Seq {
		h.mu.Unlock()
		return
	}
	h.runs[i.ID] = i
	r := h.rowOf(i)
	b := message(map[string]any{"type": "run", "run": r})
	same := h.rows[i.ID] == string(b)
	h.rows[i.ID] = string(b)
	h.mu.Unlock()
	if !same {
		h.broadcast(b)
	}
}

// relinked follows the server going and coming back: once back, it is asked again
// for the screens in view and told who looks (a new server knows neither).
func (h *hub) relinked(lost bool) {
	h.mu.Lock()
	h.lost = lost
	var focused []string
	for id, n := range h.focused {
		if n > 0 {
			focused = append(focused, id)
		}
	}
	h.mu.Unlock()
	h.broadcast(message(map[string]any{"type": "server", "state": map[bool]string{true: "lost", false: "back"}[lost]}))
	if lost {
		return
	}
	h.refetch()
	h.watch(true)
	for _, id := range focused {
		h.focus(id, true)
	}
	h.mu.Lock()
	for c := range h.clients {
		c.resync.Store(true)
		c.wake()
	}
	h.mu.Unlock()
}

// hostState follows one host of several: the browsers are told its link; once it is
// connected again, its runs are taken anew and it is asked again for the screens in
// view and told who looks, as relinked does for the one server.
func (h *hub) hostState(name string) {
	f, ok := h.core.(hosted)
	if !ok {
		return
	}
	hs := f.Hosts()
	var now api.HostState
	for _, s := range hs {
		if s.Name == name {
			now = s
		}
	}
	h.mu.Lock()
	var was api.HostStatus
	for _, s := range h.hosts {
		if s.Name == name {
			was = s.Status
		}
	}
	h.hosts = hs
	h.mu.Unlock()
	h.broadcast(message(map[string]any{"type": "hosts", "hosts": hostRows(hs)}))
	if now.Status != api.HostConnected || was == api.HostConnected {
		return
	}
	h.refetchHost(name)
	h.watchMu.Lock()
	h.watchHost(name)
	h.watchMu.Unlock()
	h.mu.Lock()
	var focused []string
	for id, n := range h.focused {
		if n > 0 && h.runs[id].Host == name {
			focused = append(focused, id)
		}
	}
	for c := range h.clients {
		c.resync.Store(true)
		c.wake()
	}
	h.mu.Unlock()
	for _, id := range focused {
		h.focus(id, true)
	}
}

// refetchHost takes host's runs from its server: its word replaces what the list had
// of that host, and a run it does not have leaves the list.
func (h *hub) refetchHost(host string) {
	ctx, cancel := context.WithTimeout(api.OnHost(context.Background(), host), 10*time.Second)
	defer cancel()
	rep, err := api.Snapshot.Call(ctx, h.core, api.SnapshotArgs{})
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, i := range h.runs {
		if i.Host == host {
			delete(h.runs, id)
			delete(h.rows, id)
		}
	}
	for _, i := range rep.Runs {
		i.Host = host
		h.runs[i.ID] = i
	}
}

// refetch takes every run from the server that came back: its word replaces what
// the lost one said, and a run it does not have leaves the list.
func (h *hub) refetch() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rep, err := api.Snapshot.Call(ctx, h.core, api.SnapshotArgs{})
	if err != nil {
		return // the browsers keep the list they have; the next event corrects a row
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs, h.rows = map[string]runs.Info{}, map[string]string{}
	for _, i := range rep.Runs {
		h.runs[i.ID] = i
	}
}

// broadcast queues msg for every browser; one whose queue is full loses it and
// gets a full picture instead when it catches up.
func (h *hub) broadcast(msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.put(msg)
	}
}

// join adds a browser viewing run view ("" for none).
func (h *hub) join(c *client) {
	h.mu.Lock()
	h.clients[c] = true
	h.mu.Unlock()
	h.watch(false)
}

// leave drops a browser: its view and its focus.
func (h *hub) leave(c *client) {
	h.setFocus(c, false)
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
	h.setFocus(c, false) // a focus POST that found c just before it left
	h.watch(false)
}

// viewsLocked is the runs some browser views, sorted.
func (h *hub) viewsLocked() []string {
	var ids []string
	for c := range h.clients {
		if c.view != "" && !slices.Contains(ids, c.view) {
			ids = append(ids, c.view)
		}
	}
	slices.Sort(ids)
	return ids
}

// watch asks the server for frames of exactly ids when they are not what it has
// (again, when a new server knows nothing yet). Frames of a run no browser views
// are not asked for: the server neither renders nor sends them.
func (h *hub) watch(again bool) {
	h.watchMu.Lock() // one call at a time: the last made says what browsers view now
	defer h.watchMu.Unlock()
	h.mu.Lock()
	ids := h.viewsLocked()
	same := slices.Equal(ids, h.watched)
	h.watched = ids
	h.mu.Unlock()
	if same && !again {
		return
	}
	if _, ok := h.core.(hosted); ok {
		// Each host is asked for the frames of its own runs in view; one whose runs
		// left the view is asked for none.
		for _, host := range h.hostNames() {
			h.watchHost(host)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	api.Watch.Call(ctx, h.core, api.WatchArgs{Token: h.core.Viewer(), IDs: ids})
}

// hostNames is every host of several.
func (h *hub) hostNames() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, s := range h.hosts {
		out = append(out, s.Name)
	}
	return out
}

// watchHost asks host for the frames of its runs some browser views; h.watchMu held.
func (h *hub) watchHost(host string) {
	h.mu.Lock()
	var ids []string
	for _, id := range h.viewsLocked() {
		if h.runs[id].Host == host {
			ids = append(ids, id)
		}
	}
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(api.OnHost(context.Background(), host), 10*time.Second)
	defer cancel()
	api.Watch.Call(ctx, h.core, api.WatchArgs{Token: h.core.Viewer(), IDs: ids})
}

// setFocus records whether browser c looks at its run with the page focused; the
// server is told when the first looks or the last stops, so that it says nothing
// of a run somebody is looking at.
func (h *hub) setFocus(c *client, on bool) {
	h.mu.Lock()
	if c.focused == on || c.view == "" || on && !h.clients[c] { // a browser gone stays unfocused
		h.mu.Unlock()
		return
	}
	c.focused = on
	d := map[bool]int{true: 1, false: -1}[on]
	h.focused[c.view] += d
	n := h.focused[c.view]
	if n == 0 {
		delete(h.focused, c.view)
	}
	tell := (on && n == 1) || (!on && n == 0)
	id := c.view
	h.mu.Unlock()
	if tell {
		h.focus(id, on)
	}
}

func (h *hub) focus(id string, on bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	api.Focus.Call(ctx, h.core, api.FocusArgs{ID: id, Viewer: h.core.Viewer(), Focused: on})
}

// clientByID finds a browser by the id its hello gave it.
func (h *hub) clientByID(id string) *client {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		if c.id == id {
			return c
		}
	}
	return nil
}

// reasonOf is why an ended run ended ("" while it runs).
func reasonOf(i runs.Info) string {
	if !i.Ended() {
		return ""
	}
	return i.Reason.String()
}
