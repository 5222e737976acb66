package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/runs"
)

// Configured runs not started yet (corral.toml [[run]]s with autostart = false) are a
// UI matter, not a supervisor state: the supervisor has never heard of them. Each is a
// row of the run list after the runs, in config order, with its spec in the details
// pane. The start key (the restart action) spawns its spec the way a restart does; the
// run that spawn makes replaces the row when it appears, and from then on it is a run
// like any other (R restarts it once it has ended).

// pendingPrefix starts a pending row's key. Run ids name files in the state dir, so
// none contains "/" and a key never collides with a run's id.
const pendingPrefix = "pending/"

// pendingRun is one configured run not started yet.
type pendingRun struct {
	key      string // its row's key: pendingPrefix + a number never given twice
	spec     runs.Spec
	starting bool   // its spawn is on its way
	runID    string // the run the spawn made, until that run is listed
}

// notForPending are the actions that need a process; on a pending run they only say so.
var notForPending = []string{"focus", "send_keys", "paste", "submit", "search", "scrollback",
	"cancel", "interrupt", "pause", "remove"}

// SetPending sets the configured runs not started yet, listed after the runs in the
// order given.
func (l *RunList) SetPending(specs []runs.Spec) {
	l.pending = make([]pendingRun, len(specs))
	for i, s := range specs {
		l.pending[i] = pendingRun{key: l.pendingKey(), spec: s}
	}
	if l.sel == "" && len(l.pending) > 0 {
		l.sel = l.pending[0].key
	}
	l.follow()
	l.ver++
}

// pendingKey is a new pending row's key.
func (l *RunList) pendingKey() string {
	k := pendingPrefix + strconv.Itoa(l.pendSeq)
	l.pendSeq++
	return k
}

// SetConfigured sets the config's runs (autostart or not): a removed run started
// from one of them goes back to a not-started row.
func (l *RunList) SetConfigured(specs []runs.Spec) { l.configured = specs }

// Configured reports whether a run was started from an entry of the config.
func (l RunList) Configured(info runs.Info) bool {
	_, ok := l.configuredSpec(info)
	return ok
}

// configuredSpec is the config entry a run was started from: same name, command and
// kind (what corral --config compares to tell whether it runs already).
func (l RunList) configuredSpec(info runs.Info) (runs.Spec, bool) {
	for _, s := range l.configured {
		if info.Name == s.DisplayName() && info.Spec.Shell == s.Shell &&
			slices.Equal(info.Spec.Argv, s.Argv) && info.Spec.PTY == s.PTY {
			return s, true
		}
	}
	return runs.Spec{}, false
}

// unstart lists a removed run's config entry as not started again, unless a row
// shows that entry already (another run of it, or its pending row); it returns the
// new row's key.
func (l *RunList) unstart(info runs.Info) (string, bool) {
	s, ok := l.configuredSpec(info)
	if !ok {
		return "", false
	}
	for _, r := range l.runs {
		if _, same := l.configuredSpec(r); same && r.Name == info.Name {
			return "", false
		}
	}
	for _, p := range l.pending {
		if p.spec.DisplayName() == s.DisplayName() {
			return "", false
		}
	}
	p := pendingRun{key: l.pendingKey(), spec: s}
	l.pending = append(l.pending, p)
	return p.key, true
}

// SelectedPending returns the selected row when it is a pending run.
func (l RunList) SelectedPending() (pendingRun, bool) { return l.Pending(l.sel) }

// Pending returns a pending run by key.
func (l RunList) Pending(key string) (pendingRun, bool) {
	if i := l.pendingIndex(key); i >= 0 {
		return l.pending[i], true
	}
	return pendingRun{}, false
}

func (l RunList) pendingIndex(key string) int {
	if !strings.HasPrefix(key, pendingPrefix) {
		return -1
	}
	for i := range l.pending {
		if l.pending[i].key == key {
			return i
		}
	}
	return -1
}

// SetStarting marks a pending run whose spawn is on its way (or no longer).
func (l *RunList) SetStarting(key string, on bool) {
	if i := l.pendingIndex(key); i >= 0 && l.pending[i].starting != on {
		l.pending[i].starting = on
		l.ver++
	}
}

// Started records the run a pending run's spawn made; the row gives way to the run
// now if it is listed, or when it is (Upsert).
func (l *RunList) Started(key, runID string) {
	if i := l.pendingIndex(key); i >= 0 {
		l.pending[i].runID = runID
	}
	if l.index(runID) >= 0 {
		l.replacePending(runID)
	}
}

// replacePending drops the pending row the run id was started from; if it was
// selected, the run is.
func (l *RunList) replacePending(runID string) {
	for i, p := range l.pending {
		if p.runID != runID {
			continue
		}
		l.pending = append(l.pending[:i:i], l.pending[i+1:]...)
		if l.sel == p.key {
			l.sel = runID
		}
		l.removed(p.key, len(l.runs)+i)
		return
	}
}

// SetPending shows a pending run's spec.
func (d *Details) SetPending(p pendingRun) {
	d.tree, d.treeErr = nil, ""
	d.info, d.has = runs.Info{}, false
	d.pend, d.hasPend = p, true
	d.ver++
}

// pendingFacts are what a pending run would run and how to start it.
func (d Details) pendingFacts() []string {
	s, st := d.pend.spec, d.c.Styles
	state := "not started"
	if d.pend.starting {
		state = "starting…"
	}
	label, cmd := "shell", clean(s.Shell)
	if len(s.Argv) > 0 {
		label, cmd = "argv", argvText(s.Argv)
	}
	cwd := st.Muted.Render("corral's own")
	if s.Dir != "" {
		cwd = clean(s.Dir)
	}
	lines := []string{
		d.label("state") + st.Muted.Render(state) + " · " + string(s.Kind()),
		d.label(label) + cmd,
		d.label("cwd") + cwd,
		d.label("overall") + d.spanText(s.Timeout),
		d.label("no-out") + d.noOutputText(s),
		d.label("grace") + d.graceText(s.Grace),
	}
	if len(s.Env) > 0 {
		lines = append(lines, d.label("env")+envNames(s.Env))
	}
	k := d.c.Keys.Restart.Help().Key
	return append(lines, "", " "+st.Key.Render(k)+" to start it")
}

// argvText shows an argv as one line, quoting the arguments a reader could misread.
func argvText(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") || clean(a) != a {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

func (d Details) spanText(span time.Duration) string {
	if span <= 0 {
		return d.c.Styles.Muted.Render("off")
	}
	return fmtLeft(span)
}

// noOutputText follows watchdog.Derive: negative is off, zero is derived from the
// overall timeout (off without one).
func (d Details) noOutputText(s runs.Spec) string {
	switch {
	case s.NoOutputTimeout > 0:
		return fmtLeft(s.NoOutputTimeout)
	case s.NoOutputTimeout < 0 || s.Timeout <= 0:
		return d.c.Styles.Muted.Render("off")
	}
	return "derived from the overall timeout"
}

func (d Details) graceText(g time.Duration) string {
	if g <= 0 {
		return d.c.Styles.Muted.Render("default")
	}
	return g.String()
}

// envNames lists the names of the environment additions (not their values).
func envNames(env []string) string {
	names := make([]string, len(env))
	for i, kv := range env {
		names[i], _, _ = strings.Cut(kv, "=")
	}
	return fmt.Sprintf("+%d: %s", len(env), clean(strings.Join(names, " ")))
}

// SetPending shows a pending run: its name and how to start it.
func (t *Terminal) SetPending(p pendingRun) {
	t.scroll, t.log, t.hasLog = nil, runs.Output{}, false
	t.id, t.screen = "", nil
	t.info = runs.Info{Name: p.spec.Name, Kind: p.spec.Kind()}
	t.pending = true
	t.ver++
}

func (t Terminal) pendingTitle() string {
	st := t.c.Styles
	return st.Title.Render(clean(t.info.Name)) + st.Muted.Render(" "+string(t.info.Kind)+" · not started")
}

func (t Terminal) pendingBody(iw, ih int) []string {
	k := t.c.Keys.Restart.Help().Key
	return messageBody(clean(t.info.Name)+" has not started. Press "+k+" to start it.", iw, ih)
}

// pendingKey handles a key on a pending run: the start key starts it, the keys that
// need a process say why they do nothing.
func (m Model) pendingKey(k tea.KeyPressMsg, p pendingRun) (tea.Model, tea.Cmd) {
	km := m.c.Keys
	if key.Matches(k, km.Restart) {
		return m.startPending(p)
	}
	for _, a := range km.actions() {
		if key.Matches(k, *a.b) && slices.Contains(notForPending, a.name) {
			return m.note("%s: %s has not started; %s starts it", strings.ReplaceAll(a.name, "_", "-"),
				p.spec.Name, km.Restart.Help().Key)
		}
	}
	return m, nil
}

// startPending spawns a pending run's spec, sized to the pane, once.
func (m Model) startPending(p pendingRun) (tea.Model, tea.Cmd) {
	if p.starting {
		return m.note("start: %s is starting", p.spec.Name)
	}
	m.list.SetStarting(p.key, true)
	m.syncSelection()
	spec := p.spec
	m.sizeSpec(&spec)
	return m, startCmd(m.core, p.key, spec)
}

// started takes the result of a pending run's spawn. Without a run (the spec was
// refused, the supervisor is shutting down) the row stays; with one, even a run that
// failed to start (it ends with spawn-error), the run replaces the row and is selected.
func (m Model) started(msg SpawnedMsg) (tea.Model, tea.Cmd) {
	p, _ := m.list.Pending(msg.Pending)
	if msg.ID == "" {
		m.list.SetStarting(msg.Pending, false)
		m.syncSelection()
		m.events.AddError(m.now, "start", clean(p.spec.Name), msg.Err)
		return m.note("start %s: %v", p.spec.Name, msg.Err)
	}
	m.reportErr("spawn", msg.ID, msg.Err)
	m.selectNext = msg.ID
	before := m.list.SelectedKey()
	m.list.Started(msg.Pending, msg.ID)
	if _, ok := m.list.Run(msg.ID); !ok {
		return m, nil // the row stays until the run's spawn event lists it
	}
	m.selectNext = ""
	m.list.Select(msg.ID)
	m.relayout()
	if m.list.SelectedKey() == before {
		return m, nil
	}
	return m, m.selectionMoved()
}
