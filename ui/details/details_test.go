package details

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"corral/reaper"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/probe"
	"corral/runs/workspace"
	"corral/ui/common"
	"corral/ui/internal/uitest"
	"corral/watchdog"
)

var startKey = key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "start/restart run"))

func testCommon() *common.Common { return common.New(func() time.Time { return uitest.T0 }) }

func TestDetailsGolden(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(72, 18)
	info := uitest.LiveRun("r1", "claude", true)
	info.Escapees = 1
	d.ShowRun(info, true)
	d.SetTrees(map[string][]reaper.TreeProc{"r1": uitest.Tree()}, nil)
	uitest.GoldenView(t, "details_live", d.View(), 72)

	ended := uitest.EndedRun("r4", "cancelled")
	ended.Cleanup = runs.Cleanup{Steps: []reaper.Step{reaper.StepTerm, reaper.StepKill}, Killed: 3, Hard: 1, VerifiedEmpty: true}
	d.ShowRun(ended, true)
	d.SetTrees(map[string][]reaper.TreeProc{}, nil)
	uitest.GoldenView(t, "details_ended", d.View(), 72)
}

// A waiting agent's line says its agent, state, time in it and the rule that saw it
// (it was half of ui's TestRunListAgentsGolden, the list's half is runlist's).
func TestDetailsAgentLine(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(50, 8)
	d.ShowRun(uitest.SixAgents()[1], true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "agent   claude · waiting 30s · rule permission") {
		t.Errorf("details:\n%s", v)
	}
}

// A run whose agent will not ask says so on its agent line, so that no question is not
// read as nothing to do.
func TestDetailsAgentMode(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(100, 8)
	i := uitest.SixAgents()[1]
	i.AgentState, i.AgentRule, i.AgentMode = agentstate.Working, "spinner-title", "auto"
	d.ShowRun(i, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "rule spinner-title · auto mode: will not ask before it acts") {
		t.Errorf("details:\n%s", v)
	}
}

// An escapee is shown by its command line, as detected, so a reader can tell what
// escaped; control characters in it are neutralised like a comm's.
func TestDetailsEscapeeArgv(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(100, 18)
	info := uitest.LiveRun("r1", "codex", true)
	info.Escapees = 1
	d.ShowRun(info, true)
	tree := uitest.Tree()
	tree[3].Argv = []string{"codex", "app-server", "--managed-daemon\x1b]52;c;x\a"}
	d.SetTrees(map[string][]reaper.TreeProc{"r1": tree}, nil)
	v := d.View()
	if !strings.Contains(v, "codex app-server --managed-daemon") || strings.Contains(v, "\x1b]52") {
		t.Errorf("escapee line without its argv, or unfiltered:\n%s", v)
	}
}

func TestDetailsWatchdogStates(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetSize(80, 12)
	info := uitest.LiveRun("r1", "a", true)
	d.ShowRun(info, true)
	for _, c := range []struct {
		at   time.Duration
		want string
	}{
		{0, "0:50 left of 5:00 · armed"},
		{45 * time.Second, "0:05 left of 5:00 · armed"},
		{0, "8:00 left of 10:00 · armed"},
	} {
		d.SetNow(uitest.T0.Add(c.at))
		if v := ansi.Strip(d.View()); !strings.Contains(v, c.want) {
			t.Errorf("at +%s want %q in\n%s", c.at, c.want, v)
		}
	}
	info.Paused, info.Watchdog.Frozen = true, true
	info.Watchdog.NoOutput = watchdog.Deadline{Armed: true, Span: 5 * time.Minute, Left: 42 * time.Second}
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "0:42 left of 5:00 · frozen") {
		t.Errorf("want frozen no-output deadline:\n%s", v)
	}
	fired := uitest.EndedRun("r2", "b")
	fired.Reason, fired.Watchdog.Fired = runs.NoOutputTimeout, watchdog.NoOutput
	fired.Watchdog.NoOutput.Span = time.Minute
	d.ShowRun(fired, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "fired (no-output-timeout)") {
		t.Errorf("want a fired deadline:\n%s", v)
	}
}

// A run in a cgroup of its own says so, with what its cgroup has used, and a daemon
// that left its session shows as contained, not escaped.
func TestDetailsCgroupOwner(t *testing.T) {
	i := uitest.LiveRun("r1", "codex", true)
	i.Cgroup, i.Usage = "/sys/fs/cgroup/unified/corral/r1", runs.Usage{CPU: 1500 * time.Millisecond, Memory: 34 << 20}
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(90, 16)
	d.ShowRun(i, true)
	d.SetTrees(map[string][]reaper.TreeProc{"r1": {
		{Proc: reaper.Proc{PID: 4242, PGID: 4242, SID: 4242, State: 'S', Comm: "codex"}, Mark: reaper.MarkRoot},
		{Proc: reaper.Proc{PID: 4300, PGID: 4300, SID: 4300, State: 'S', Comm: "codex"}, Mark: reaper.MarkContained},
	}}, nil)
	v := ansi.Strip(d.View())
	for _, want := range []string{"owner   cgroup /sys/fs/cgroup/unified/corral/r1 · cpu 1.50s · mem 34.0M", "contained codex"} {
		if !strings.Contains(v, want) {
			t.Errorf("details lack %q:\n%s", want, v)
		}
	}
	d.SetSize(48, 16) // too narrow for the path: the rest stays on its line
	if v := ansi.Strip(d.View()); !strings.Contains(v, "owner   cgroup · cpu 1.50s · mem 34.0M") {
		t.Errorf("narrow details lack the owner line without its path:\n%s", v)
	}
}

func TestPendingDetailsGolden(t *testing.T) {
	for i, name := range []string{"details_pending_argv", "details_pending_shell"} {
		d := New(testCommon(), &startKey)
		d.SetNow(uitest.T0)
		d.SetSize(60, 12)
		d.ShowPending(uitest.PendingSpecs()[i], false)
		uitest.GoldenView(t, name, d.View(), 60)
	}
}

// The columns drop the least needed first and never the mark.
func TestTreeColumnsByWidth(t *testing.T) {
	tree := uitest.EscapedTree()
	for _, c := range []struct {
		w    int
		want treeCols
	}{
		{34, treeCols{pid: 7, mark: 7}},
		{46, treeCols{pid: 7, state: 1, cpu: 5, mark: 7}},
		{58, treeCols{pid: 7, sid: 7, state: 1, cpu: 5, rss: 5, mark: 7}},
		{80, treeCols{pid: 7, pgid: 7, sid: 7, state: 1, cpu: 5, rss: 5, mark: 7}},
	} {
		if got := treeColumns(tree, c.w); got != c.want {
			t.Errorf("%d columns: %+v, want %+v", c.w, got, c.want)
		}
	}
}

// An ended run's details name what its cleanup ended — escapees and daemons passed on
// first, each with its pid and command (control characters neutralised) — and how
// many more it killed than it names.
func TestDetailsEndedNamed(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(120, 18)
	ended := uitest.EndedRun("r4", "cancelled")
	ended.Cleanup = runs.Cleanup{Steps: []reaper.Step{reaper.StepTerm}, Killed: 7, VerifiedEmpty: true,
		Ended: []runs.EndedProcess{
			{PID: 40, Argv: []string{"sleep", "1000"}, How: runs.EndedMember},
			{PID: 41, Argv: []string{"codex", "app-server\x1b[2J"}, How: runs.EndedEscapee},
			{PID: 42, Argv: []string{"mcp-server"}, How: runs.EndedPassedOn, To: "r5"},
		}}
	d.ShowRun(ended, true)
	raw := d.View()
	if strings.Contains(raw, "\x1b[2J") {
		t.Error("a command's control sequence reached the screen")
	}
	v := ansi.Strip(raw)
	want := "ended   pid 41 codex app-server[2J (escapee) · pid 42 mcp-server (passed on to r5) · pid 40 sleep 1000 · +5 more"
	if !strings.Contains(v, want) {
		t.Errorf("details lack %q:\n%s", want, v)
	}
}

// A process moved out of a run's cgroup is an escapee, and the owner line says so.
func TestDetailsCgroupEscapees(t *testing.T) {
	i := uitest.LiveRun("r1", "build", false)
	i.Cgroup, i.Escapees = "/sys/fs/cgroup/unified/corral/r1", 1
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(90, 16)
	d.ShowRun(i, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "· ⚠ 1 left the cgroup") {
		t.Errorf("details lack the escapee:\n%s", v)
	}
}

// A lease its owner could not renew (a full disk) is said on the lease line as corral
// ls says it, "lease not renewed (why)"; a lease renewed says nothing of it.
func TestDetailsLeaseNotRenewed(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(160, 18)
	info := uitest.LiveRun("r1", "codex", true)
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); strings.Contains(v, "not renewed") {
		t.Errorf("a renewed lease said not renewed:\n%s", v)
	}
	info.LeaseNotRenewed = "registry: renew lease: no space left on device"
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "lease not renewed (registry: renew lease: no space left on device)") {
		t.Errorf("details:\n%s", v)
	}
}

// A worktree run's repository, worktree, branch with its figures, and base.
func TestDetailsWorktreeLines(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(70, 16)
	i := uitest.SixAgents()[1]
	i.Worktree = &workspace.Worktree{Repo: "/src/app", Path: "/state/worktrees/app-1a2b/corral-fix", Branch: "corral/fix",
		Base: "286684d1e6ac91f192215cea6bfe82e737ad416c", BaseRef: "main", NewBranch: true}
	i.Diff = &workspace.Stat{Added: 12, Removed: 3, Files: 2}
	d.ShowRun(i, true)
	v := ansi.Strip(d.View())
	for _, want := range []string{"repo    /src/app", "path    /state/worktrees/app-1a2b/corral-fix",
		"branch  corral/fix · +12\u00a0−3", "base    main 286684d1e6ac"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in details:\n%s", want, v)
		}
	}
	// Narrow, the line wraps before the figures, never between them.
	d.SetSize(30, 16)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "+12\u00a0−3") {
		t.Errorf("the figures split at 30 columns:\n%s", v)
	}
}

// A run waiting for its dependencies says so in its state, and its needs line marks
// what it still waits for; one that a dependency ended says which and why.
func TestDetailsWaitingAndDependencyFailed(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(100, 18)
	info := uitest.LiveRun("r1", "api", false)
	info.State, info.PID, info.StartedAt = runs.Starting, 0, time.Time{}
	info.Spec.DependsOn = []runs.Dependency{{Name: "db", Condition: runs.CondStarted}, {Name: "migrate", Condition: runs.CondSucceeded}}
	info.WaitingFor = info.Spec.DependsOn[1:]
	d.ShowRun(info, true)
	v := ansi.Strip(d.View())
	if !strings.Contains(v, "waiting for migrate") || !strings.Contains(v, "needs   db started · migrate succeeded …") {
		t.Errorf("waiting run:\n%s", v)
	}
	info.State, info.WaitingFor = runs.Exited, nil
	info.Reason, info.DependencyErr = runs.DependencyFailed, "migrate exited 3"
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "dependency-failed · migrate exited 3") {
		t.Errorf("dependency-failed run:\n%s", v)
	}
}

// A deadline of hours wakes the clock when it begins to warn, which its figure in
// hours and minutes need not do at that moment, and its colour turns then.
func TestDeadlineWakesTheClockWhenItBeginsToWarn(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(72, 18)
	info := uitest.LiveRun("r1", "long", false)
	// Span 10h7m warns from 2h1m24s left: 26 s from now; its "2h01m" turns in 50 s.
	info.Watchdog = watchdog.State{Overall: watchdog.Deadline{Armed: true, At: uitest.T0.Add(2*time.Hour + time.Minute + 50*time.Second), Span: 10*time.Hour + 7*time.Minute}}
	d.ShowRun(info, true)
	before := d.View()
	if at := d.NextChange(); at.IsZero() || at.Sub(uitest.T0) > 26*time.Second {
		t.Fatalf("the clock wakes in %v, want within 26s", at.Sub(uitest.T0))
	}
	d.SetNow(uitest.T0.Add(27 * time.Second))
	if after := d.View(); after == before || ansi.Strip(after) != ansi.Strip(before) {
		t.Errorf("at 27 s the deadline's colour should turn and nothing else:\n%s\n%s", before, after)
	}
}

// A service between attempts is probed by nothing: its probe's line does not say the
// last attempt's "passing" as if it held now.
func TestDetailsProbeBetweenAttempts(t *testing.T) {
	d := New(testCommon(), &startKey)
	d.SetNow(uitest.T0)
	d.SetSize(120, 18)
	info := uitest.LiveRun("r1", "api", false)
	info.Service = &runs.ServiceInfo{Policy: runs.RestartOnFailure, Attempt: 2, Ready: runs.ReadyOK,
		ReadyProbe: &runs.ProbeStatus{Kind: "http", Target: "http://127.0.0.1:8080/", State: probe.Passing, Checks: 3}}
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "ready   http http://127.0.0.1:8080/ · passing · 3 checks") {
		t.Fatalf("a running service's probe:\n%s", v)
	}
	info.State, info.PID = runs.Restarting, 0
	info.Service.Ready = runs.ReadyStarting
	d.ShowRun(info, true)
	if v := ansi.Strip(d.View()); !strings.Contains(v, "http://127.0.0.1:8080/ · not probing (last attempt: passing) · 3 checks") {
		t.Fatalf("a restarting service's probe:\n%s", v)
	}
}
