// Package details is the details pane: the selected run's state and reason, its
// watchdog deadlines ticking live, cleanup, fingerprint, lease, owner and process tree
// (tree.go), or a configured run's spec before it starts (pending.go).
package details

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/ui/common"
	"corral/watchdog"
)

// Details is the details pane of the selected run: state and reason, watchdog
// deadlines ticking live, cleanup, fingerprint, lease, escapees and the process tree.
type Details struct {
	c        *common.Common
	startKey *key.Binding // the key that starts a pending run, said under its spec
	info     runs.Info
	has      bool
	pend     pending // shown instead of a run when hasPend (pending.go)
	hasPend  bool
	tree     []reaper.TreeProc
	treeErr  string
	w, h     int
	now      time.Time

	ver   uint64
	cache *common.ViewCache[detailsKey]
}

type detailsKey struct {
	ver  uint64
	sec  int64
	w, h int
}

// New returns an empty details pane. startKey is the key that starts a pending run,
// read when drawn so overrides made after New apply.
func New(c *common.Common, startKey *key.Binding) Details {
	return Details{c: c, startKey: startKey, cache: &common.ViewCache[detailsKey]{}}
}

// SetSize sets the pane's outer size.
func (d *Details) SetSize(w, h int) { d.w, d.h = w, h; d.ver++ }

// SetNow sets the clock the countdowns are shown against.
func (d *Details) SetNow(t time.Time) { d.now = t }

// NextChange is when an age or countdown the pane shows next changes (zero if none
// does): the clock need not wake before.
func (d Details) NextChange() time.Time { return d.cache.Changes.Next(d.now) }

// ShowRun shows a run (ok false: none). A different run, or the run's end (its
// processes are verified gone), drops the tree shown.
func (d *Details) ShowRun(info runs.Info, ok bool) {
	if !ok || info.ID != d.info.ID || info.Ended() {
		d.tree, d.treeErr = nil, ""
	}
	d.info, d.has, d.hasPend = info, ok, false
	d.ver++
}

// ID is the run shown ("" for none or a pending run).
func (d Details) ID() string { return d.info.ID }

// SetTrees takes the process trees read (by run id), or the read's error; the run
// shown has its own or, not live any more, none.
func (d *Details) SetTrees(trees map[string][]reaper.TreeProc, err error) {
	if !d.has {
		return
	}
	d.treeErr = ""
	if err != nil {
		d.treeErr = err.Error()
	} else {
		d.tree = trees[d.info.ID]
	}
	d.ver++
}

// View renders the pane, cached until it changes or the clock's second moves.
func (d Details) View() string {
	k := detailsKey{ver: d.ver, sec: d.now.Unix(), w: d.w, h: d.h}
	return d.cache.GetAt(k, d.now, func() string { return common.JoinLines(d.lines()) })
}

func (d Details) lines() []string {
	st := d.c.Styles
	iw, ih := max(d.w-2, 0), max(d.h-2, 0)
	var body []string
	switch {
	case d.hasPend:
		body = common.WrapLines(d.pendingFacts(), iw, labelW)
	case !d.has:
		body = []string{st.Muted.Render(" no run selected")}
	default:
		tree := d.treeLines(iw)
		if len(d.tree) == 0 { // a message wraps; a table's rows are cut at the edge
			tree = common.WrapLines(tree, iw, 1)
		}
		body = append(common.WrapLines(d.facts(), iw, labelW), tree...)
	}
	if len(body) > ih {
		body = body[:ih]
	}
	for i := range body {
		body[i] = common.Fit(body[i], iw)
	}
	title := st.Title.Render("Details")
	switch {
	case d.hasPend:
		title += " " + st.Muted.Render(common.Clean(d.pend.spec.Name)+" (not started)")
	case d.has && d.info.Host != "":
		title += " " + st.Muted.Render(common.Clean(d.info.Name)+" "+d.info.ID+" on "+common.Clean(d.info.Host))
	case d.has:
		title += " " + st.Muted.Render(common.Clean(d.info.Name)+" "+d.info.ID)
	}
	return common.Box(st.Border, title, body, d.w, d.h)
}

// facts are the labelled lines above the tree.
func (d Details) facts() []string {
	i := d.info
	lines := []string{d.label("state") + d.stateLine()}
	if i.Agent != "" {
		lines = append(lines, d.label("agent")+d.agentLine())
	}
	if s := d.sessionLine(); s != "" {
		lines = append(lines, d.label("session")+s)
	}
	lines = append(lines, d.worktreeLines()...)
	lines = append(lines, d.serviceLines()...)
	if len(i.Spec.DependsOn) > 0 {
		lines = append(lines, d.label("needs")+d.needsLine())
	}
	lines = append(lines,
		d.label("reason")+d.reasonLine(),
		d.label("overall")+d.deadlineLine(i.Watchdog.Overall, false),
		d.label("no-out")+d.deadlineLine(i.Watchdog.NoOutput, i.Watchdog.Frozen)+d.outputAge(),
		d.label("cleanup")+d.cleanupLine(),
	)
	if others, root := d.endedOthers(); len(others) > 0 {
		lines = append(lines, d.label("ended")+d.endedLine(others, root))
	}
	lines = append(lines,
		d.label("fp")+fingerprintLine(i.Fingerprint),
		d.label("lease")+d.leaseLine(),
	)
	return append(lines, d.label("owner")+d.ownerLine())
}

// labelW is the width of a fact's label; a fact too long for the pane wraps under
// its value.
const labelW = 9

func (d Details) label(s string) string {
	return d.c.Styles.Muted.Render(" " + common.Pad(s, labelW-1))
}

func (d Details) stateLine() string {
	i, st := d.info, d.c.Styles
	s := common.StateStyle(st, i).Render(common.StateText(i)) + " · " + string(i.Kind)
	if i.PID != 0 {
		s += " · pid " + strconv.Itoa(i.PID)
	}
	if i.Cols > 0 && i.Kind == runs.KindPTY {
		s += fmt.Sprintf(" · %d×%d", i.Cols, i.Rows)
	}
	if i.Adopted {
		s += " · " + st.Warn.Render("adopted")
	}
	return s
}

// ownerLine says what bounds the run: its cgroup, with what it has used
// (what left the session stayed in it: no escapes), or its session and its escapees.
func (d Details) ownerLine() string {
	i, st := d.info, d.c.Styles
	switch {
	case i.Cgroup == "" && i.Escapees > 0:
		return "session · " + st.Warn.Render(fmt.Sprintf("⚠ %d processes left the session", i.Escapees))
	case i.Cgroup == "":
		return "session · " + st.Muted.Render("escapes none")
	}
	var s string
	if i.Usage.CPU > 0 {
		s += " · cpu " + fmtCPU(i.Usage.CPU)
	}
	if i.Usage.Memory > 0 {
		s += " · mem " + common.FmtBytes(i.Usage.Memory)
	}
	if i.Shared > 0 {
		s += " · " + st.Warn.Render(fmt.Sprintf("%d shared", i.Shared))
	}
	if i.Escapees > 0 { // moved out of its cgroup, as root can
		s += " · " + st.Warn.Render(fmt.Sprintf("⚠ %d left the cgroup", i.Escapees))
	}
	// The cgroup's path when the line has room for it; a narrow pane keeps the rest on
	// one line (the path, cut or wrapped, pushed the tree off an 80×24 screen).
	if path := " " + st.Muted.Render(common.Clean(i.Cgroup)); labelW+common.WidthOf("cgroup"+path+s) <= d.w-2 {
		return "cgroup" + path + s
	}
	return "cgroup" + s
}

// agentLine is the agent's state, since when, and the rule that decided it:
// "claude · waiting 0:12 · rule permission".
func (d Details) agentLine() string {
	i, st := d.info, d.c.Styles
	s := common.Clean(i.Agent) + " · " + common.StateStyle(st, runs.Info{State: runs.Running,
		AgentStatus: runs.AgentStatus{Agent: i.Agent, AgentState: i.AgentState}}).Render(i.AgentState.String())
	if !i.AgentStateSince.IsZero() {
		age := d.now.Sub(i.AgentStateSince)
		d.cache.Changes.Age(d.now, age)
		s += " " + common.FmtAge(age)
	}
	if i.AgentRule != "" {
		s += " · " + st.Muted.Render("rule "+common.Clean(i.AgentRule))
	}
	if i.AgentMode != "" && i.State == runs.Running {
		s += " · " + st.Warn.Render(common.Clean(agentstate.ModeMeaning(i.AgentMode)))
	}
	return s
}

func (d Details) reasonLine() string {
	i, st := d.info, d.c.Styles
	if i.Reason == runs.ReasonNone {
		return st.Muted.Render("—")
	}
	s := common.BadgeStyle(st, i).Render(i.Reason.String()) + common.ExitText(i, " · exit ", " · signal ")
	if i.SpawnErr != "" {
		s += " · " + st.Danger.Render(common.Clean(i.SpawnErr))
	}
	if i.SetupErr != "" {
		s += " · " + st.Danger.Render(common.Clean(i.SetupErr))
	}
	if i.DependencyErr != "" {
		s += " · " + st.Danger.Render(common.Clean(i.DependencyErr))
	}
	return s
}

// needsLine is what the run depends on, each with its condition, those it still
// waits for in the warning colour: "db ready ✓ · migrate succeeded …".
func (d Details) needsLine() string {
	i, st := d.info, d.c.Styles
	parts := make([]string, len(i.Spec.DependsOn))
	for k, dep := range i.Spec.DependsOn {
		text := common.Clean(dep.Name) + " " + string(dep.Condition)
		switch {
		case slices.Contains(i.WaitingFor, dep):
			parts[k] = st.Warn.Render(text + " …")
		case i.Reason == runs.DependencyFailed || i.StartedAt.IsZero():
			parts[k] = st.Muted.Render(text)
		default:
			parts[k] = st.OK.Render(text + " ✓")
		}
	}
	s := strings.Join(parts, " · ")
	if i.Spec.OnDependencyLost != "" {
		s += st.Muted.Render(" · on loss: " + i.Spec.OnDependencyLost)
	}
	return s
}

// worktreeLines are a worktree run's repository, worktree, branch (with its changes
// against the base when last counted), base and, once finished, what finishing did;
// none for a run without one.
func (d Details) worktreeLines() []string {
	wt, st := d.info.Worktree, d.c.Styles
	if wt == nil {
		return nil
	}
	branch := common.Clean(wt.Branch)
	if !wt.NewBranch {
		branch += st.Muted.Render(" (existing)")
	}
	if df := d.info.Diff; df != nil {
		branch += " · " + common.DiffText(st, *df)
	}
	base := wt.Base
	if len(base) > 12 {
		base = base[:12]
	}
	if wt.BaseRef != "" {
		base = common.Clean(wt.BaseRef) + " " + st.Muted.Render(base)
	}
	lines := []string{
		d.label("repo") + common.Clean(wt.Repo),
		d.label("path") + common.Clean(wt.Path),
		d.label("branch") + branch,
		d.label("base") + base,
	}
	if f := d.info.Finished; f != nil { // what finishing it did (corral finish, F)
		lines = append(lines, d.label("finish")+common.Clean(f.Done()))
	}
	return lines
}

// deadlineLine is one deadline: time left of its span and its state.
func (d Details) deadlineLine(dl watchdog.Deadline, frozen bool) string {
	st, w := d.c.Styles, d.info.Watchdog
	cd, armed := common.DeadlineAt(dl, frozen, d.now)
	if armed {
		d.cache.Changes.Countdown(d.now, cd)
	}
	switch {
	case armed && frozen && w.Awaiting && !d.info.Paused:
		return common.FmtLeft(cd.Left) + " left of " + common.FmtLeft(dl.Span) + " · " + st.Warn.Render("waiting for input")
	case armed && frozen:
		return st.Warn.Render(common.FmtLeft(cd.Left)+" left") + " of " + common.FmtLeft(dl.Span) + " · frozen"
	case armed && cd.Warn:
		return st.Warn.Render(common.FmtLeft(cd.Left)+" left") + " of " + common.FmtLeft(dl.Span) + " · armed"
	case armed:
		return common.FmtLeft(cd.Left) + " left of " + common.FmtLeft(dl.Span) + " · armed"
	case dl.Span == 0:
		return st.Muted.Render("off")
	case w.Fired != watchdog.None:
		return st.Danger.Render("fired") + " (" + w.Fired.String() + ")"
	}
	return st.Muted.Render(common.FmtLeft(dl.Span) + " · stopped")
}

func (d Details) outputAge() string {
	w := d.info.Watchdog
	if d.info.Ended() || (w.LastOutput.IsZero() && w.LastOutputAge == 0) {
		return ""
	}
	age := w.LastOutputAge
	if !w.LastOutput.IsZero() {
		age = d.now.Sub(w.LastOutput)
		d.cache.Changes.Age(d.now, age)
	}
	return d.c.Styles.Muted.Render(" · last output " + common.FmtAge(age) + " ago")
}

func (d Details) cleanupLine() string {
	c, st := d.info.Cleanup, d.c.Styles
	if len(c.Steps) == 0 && c.Killed == 0 && !c.VerifiedEmpty {
		return st.Muted.Render("—")
	}
	steps := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		steps[i] = string(s)
	}
	s := strings.Join(steps, " → ")
	if s == "" {
		s = "nothing to signal"
	}
	s += fmt.Sprintf(" · killed %d", c.Killed)
	if c.Hard > 0 {
		s += fmt.Sprintf(" (%d hard)", c.Hard)
	}
	switch {
	case c.VerifiedEmpty:
		s += " · " + st.OK.Render("verified")
	case c.Remaining > 0:
		s += " · " + st.Danger.Render(fmt.Sprintf("NOT verified: %d left", c.Remaining))
	}
	if c.OutputForced {
		s += " · output cut"
	}
	return s
}

// endedOthers is what the cleanup ended besides the run's own root process (root is
// 1 when that was ended too): the fp line names the root already, and a line that
// only repeats it costs a narrow pane its last facts.
func (d Details) endedOthers() (others []runs.EndedProcess, root int) {
	for _, e := range d.info.Cleanup.Ended {
		if e.How == runs.EndedMember && e.PID == d.info.PID && d.info.PID > 0 {
			root = 1
			continue
		}
		others = append(others, e)
	}
	return others, root
}

// endedLine names what the cleanup ended besides the root, escapees and daemons
// passed on first: "pid 4242 app-server --managed (escapee) · pid 4240 sleep 1000 ·
// +3 more".
func (d Details) endedLine(others []runs.EndedProcess, root int) string {
	c, st := d.info.Cleanup, d.c.Styles
	ended := slices.Clone(others)
	rank := map[runs.EndedHow]int{runs.EndedEscapee: 0, runs.EndedPassedOn: 1, runs.EndedMember: 2}
	slices.SortStableFunc(ended, func(a, b runs.EndedProcess) int { return rank[a.How] - rank[b.How] })
	named := 0
	for _, e := range ended {
		if e.How != runs.EndedPassedOn {
			named++
		}
	}
	more := max(c.Killed-root-named, 0) // beyond the named ones (a tree of thousands)
	if len(ended) > endedShown {
		more += len(ended) - endedShown
		ended = ended[:endedShown]
	}
	parts := make([]string, 0, len(ended)+1)
	for _, e := range ended {
		cmd := strings.Join(strings.Fields(strings.Join(e.Argv, " ")), " ")
		if r := []rune(cmd); len(r) > endedCommand {
			cmd = string(r[:endedCommand]) + "…"
		}
		s := fmt.Sprintf("pid %d %s", e.PID, common.Clean(cmd))
		switch e.How {
		case runs.EndedEscapee:
			s += " " + st.Warn.Render("(escapee)")
		case runs.EndedPassedOn:
			s += " " + st.Muted.Render("(passed on to "+common.Clean(e.To)+")")
		}
		parts = append(parts, s)
	}
	if more > 0 {
		parts = append(parts, st.Muted.Render(fmt.Sprintf("+%d more", more)))
	}
	return strings.Join(parts, " · ")
}

// endedShown processes are named in the details pane, each command cut after
// endedCommand runes (corral info has them all, whole).
const (
	endedShown   = 4
	endedCommand = 40
)

func fingerprintLine(f reaper.Fingerprint) string {
	if f.PID == 0 {
		return "—"
	}
	boot := f.BootID
	if len(boot) > 8 {
		boot = boot[:8]
	}
	return fmt.Sprintf("pid %d · start %d · boot %s", f.PID, f.StartTime, common.Clean(boot))
}

// leaseLine is the run's lease: its owner, until when, its epoch, and, while its
// owner cannot renew it (a full disk), "lease not renewed (why)" as corral ls says.
func (d Details) leaseLine() string {
	i := d.info
	if i.LeaseOwner == "" {
		return "—"
	}
	s := fmt.Sprintf("%s · until %s · epoch %d", common.Clean(i.LeaseOwner),
		i.LeaseExpiresAt.Format(time.TimeOnly), i.LeaseEpoch)
	if i.LeaseNotRenewed != "" && !i.Ended() {
		s += " · " + d.c.Styles.Warn.Render("lease not renewed ("+common.Clean(i.LeaseNotRenewed)+")")
	}
	return s
}

// sessionLine is the agent's conversation id, and the restore that links this run
// with another: "0b5e… · restored from r1a2b" or "· restored as r3c4d".
func (d Details) sessionLine() string {
	i, st := d.info, d.c.Styles
	var parts []string
	if i.SessionID != "" {
		parts = append(parts, common.Clean(i.SessionID))
	}
	if i.RestoredFrom != "" {
		parts = append(parts, st.Muted.Render("restored from "+i.RestoredFrom))
	}
	if i.RestoredBy != "" {
		parts = append(parts, st.Muted.Render("restored as "+i.RestoredBy))
	}
	return strings.Join(parts, " · ")
}
