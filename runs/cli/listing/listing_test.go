package listing

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/workspace"
)

// Another host's corral ls --json reads back whole: the record and what ls adds
// (Record's own reader, promoted, would drop those).
func TestRunJSONRoundTrip(t *testing.T) {
	in := Run{Record: runs.Record{ID: "r1", Name: "agent", State: runs.Running}, OwnerAlive: true, CPUMS: new(int64(12)), Memory: new(int64(34))}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{in}, runs.Metrics{}); err != nil {
		t.Fatal(err)
	}
	var doc Doc
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Runs[0]
	if len(doc.Runs) != 1 || got.ID != "r1" || got.Name != "agent" || got.State != runs.Running ||
		!got.OwnerAlive || got.CPUMS == nil || *got.CPUMS != 12 || got.Memory == nil || *got.Memory != 34 {
		t.Errorf("read back %+v, want %+v", got, in)
	}
}

// What ls does not know is absent from its JSON, never -1: a cgroup without the memory
// controller has no memory_bytes, a run on its session neither cpu_ms nor
// memory_bytes; a known 0 is still written. Another host's older Corral that wrote -1
// reads back as unknown.
func TestRunJSONOmitsUnknown(t *testing.T) {
	rs := []Run{
		{Record: runs.Record{ID: "nomem", State: runs.Running}, CPUMS: new(int64(0))},
		{Record: runs.Record{ID: "session", State: runs.Running}},
		{Record: runs.Record{ID: "zero", State: runs.Running}, CPUMS: new(int64(5)), Memory: new(int64(0))},
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, rs, runs.Metrics{}); err != nil {
		t.Fatal(err)
	}
	var raw struct{ Runs []map[string]any }
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "-1") {
		t.Errorf("a -1 in ls --json:\n%s", b.String())
	}
	has := func(i int, key string) bool { _, ok := raw.Runs[i][key]; return ok }
	if !has(0, "cpu_ms") || raw.Runs[0]["cpu_ms"] != 0.0 || has(0, "memory_bytes") {
		t.Errorf("no memory controller: %v", raw.Runs[0])
	}
	if has(1, "cpu_ms") || has(1, "memory_bytes") {
		t.Errorf("a run on its session: %v", raw.Runs[1])
	}
	if raw.Runs[2]["memory_bytes"] != 0.0 {
		t.Errorf("a known 0 of memory: %v", raw.Runs[2])
	}
	var old Run
	if err := json.Unmarshal([]byte(`{"run_id":"r1","cpu_ms":3,"memory_bytes":-1}`), &old); err != nil ||
		old.Memory != nil || old.CPUMS == nil || *old.CPUMS != 3 {
		t.Errorf("an older host's -1 read as %+v (%v)", old, err)
	}
}

// corral ls's AGENT column: the agent and its live state with the UI's glyph, the
// agent alone once the run ended, "-" for a run that is no agent; a mode in which the
// agent will not ask after its state.
func TestTableAgentColumn(t *testing.T) {
	rec := func(id string, st runs.State, agent string, as agentstate.State) Run {
		return Run{Record: runs.Record{ID: id, Name: id, Backend: runs.KindPTY, State: st, AgentStatus: runs.AgentStatus{Agent: agent, AgentState: as}}}
	}
	var b bytes.Buffer
	err := WriteTable(&b, []Run{
		rec("waits", runs.Running, "claude", agentstate.Waiting),
		rec("works", runs.Running, "codex", agentstate.Working),
		rec("idles", runs.Running, "gemini", agentstate.Idle),
		rec("unsure", runs.Running, "claude", agentstate.Unknown),
		rec("ended", runs.Exited, "claude", agentstate.Idle),
		rec("plain", runs.Running, "", agentstate.Unknown),
		func() Run { r := rec("auto", runs.Running, "claude", agentstate.Idle); r.AgentMode = "auto"; return r }(),
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	head := lines[0]
	at := strings.Index(head, "AGENT")
	if at < 0 || !strings.HasPrefix(head[at:], "AGENT ") || strings.Index(head, "STATE") > at {
		t.Fatalf("no AGENT column after STATE: %q", head)
	}
	want := map[string]string{"waits": "claude ! waiting", "works": "codex ◐ working", "idles": "gemini ✓ idle",
		"unsure": "claude unknown", "ended": "claude", "plain": "-", "auto": "claude ✓ idle (auto)"}
	for _, ln := range lines[1 : len(lines)-1] {
		id := strings.Fields(ln)[0]
		// the column starts where its header does (tabwriter pads in runes)
		cell := strings.TrimSpace(string([]rune(ln)[len([]rune(head[:at])):][:len(want[id])]))
		if cell != want[id] {
			t.Errorf("%s: AGENT %q, want %q\n%s", id, cell, want[id], b.String())
		}
	}
}

// A host that could not be listed is a line of the table, its host and its error,
// among the other hosts' runs: not only a line on stderr.
func TestHostsTableShowsHostError(t *testing.T) {
	hs := []HostDoc{
		{Host: "local", Doc: Doc{Runs: []Run{{Record: runs.Record{ID: "r1", Name: "here", State: runs.Running}, OwnerAlive: true}}}},
		{Host: "far", Err: errors.New("host far (ssh far): the server does not answer within 3s")},
	}
	var b bytes.Buffer
	if err := WriteHostsTable(&b, hs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "local  r1") ||
		!regexp.MustCompile(`^far\s+not listed: host far \(ssh far\): the server does not answer within 3s$`).MatchString(lines[2]) {
		t.Errorf("table:\n%s", b.String())
	}
}

// A worktree run's branch and figures are the table's last column, there only when a
// run has a worktree.
func TestTableBranchColumn(t *testing.T) {
	plain := Run{Record: runs.Record{ID: "plain", Name: "plain", Backend: runs.KindPipe, State: runs.Running}}
	var b bytes.Buffer
	if err := WriteTable(&b, []Run{plain}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "BRANCH") {
		t.Fatalf("a BRANCH column without worktree runs:\n%s", b.String())
	}
	wt := Run{Record: runs.Record{ID: "wt", Name: "wt", Backend: runs.KindPTY, State: runs.Running,
		Worktree: &workspace.Worktree{Branch: "corral/fix"}, Diff: &workspace.Stat{Added: 12, Removed: 3, Files: 2}}}
	b.Reset()
	if err := WriteTable(&b, []Run{plain, wt}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], "BRANCH") || !strings.HasSuffix(strings.TrimSpace(lines[1]), " -") ||
		!strings.HasSuffix(lines[2], "corral/fix +12 −3") {
		t.Fatalf("table:\n%s", b.String())
	}
}

// A finished worktree run's BRANCH cell says what finishing did.
func TestBranchCellSaysFinished(t *testing.T) {
	rec := runs.Record{Worktree: &workspace.Worktree{Branch: "corral/fix"}, Diff: &workspace.Stat{Added: 2, Removed: 1}}
	if got := BranchCell(rec); got != "corral/fix +2 −1" {
		t.Errorf("unfinished: %q", got)
	}
	rec.Finished = &workspace.Finished{Into: "main", Removed: true, Branch: "corral/fix"}
	if got := BranchCell(rec); got != "corral/fix +2 −1 (merged into main, removed)" {
		t.Errorf("merged and removed: %q", got)
	}
	rec.Finished = &workspace.Finished{Removed: true, BranchDeleted: true}
	if got := BranchCell(rec); got != "corral/fix +2 −1 (removed, branch deleted)" {
		t.Errorf("removed with its branch: %q", got)
	}
	rec.Finished = &workspace.Finished{Removed: true, Discarded: "1 changed file (a.txt)", BranchDeleted: true}
	if got := BranchCell(rec); got != "corral/fix +2 −1 (removed, work discarded, branch deleted)" {
		t.Errorf("discarded: %q", got)
	}
}

// A service's STATE says its readiness while it runs and, between attempts, its
// restarts in its budget and when the next attempt starts, as the UI's list does.
func TestServiceState(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		st   runs.State
		svc  *runs.ServiceInfo
		want string
	}{
		{runs.Running, nil, ""},
		{runs.Running, &runs.ServiceInfo{Ready: runs.ReadyOK}, "ready"},
		{runs.Running, &runs.ServiceInfo{Policy: runs.RestartAlways}, ""},
		{runs.Restarting, &runs.ServiceInfo{Restarts: 2, MaxRestarts: 5, NextAt: now.Add(3200 * time.Millisecond)}, "restarting 2/5 in 4s"},
		{runs.Restarting, &runs.ServiceInfo{Restarts: 1, NextAt: now.Add(-time.Second)}, "restarting in 0s"},
		{runs.Restarting, &runs.ServiceInfo{Restarts: 1, MaxRestarts: 3}, "restarting 1/3"},
		{runs.Exited, &runs.ServiceInfo{Ready: runs.ReadyOK}, ""},
	} {
		if got := ServiceState(c.st, c.svc, now); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.st, c.svc, got, c.want)
		}
	}
}
