package listing

import (
	"bytes"
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/workspace"
)

// The server's cached ls --json is WriteJSON's document byte for byte: on the first
// listing, on the next with records unchanged (written from the cache), and after
// records changed, came or went; every field a listing adds, present or absent, and
// strings that the encoder escapes.
func TestJSONCacheWritesAsWriteJSON(t *testing.T) {
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	code := 3
	rs := []Run{
		{Record: runs.Record{ID: "r1", Name: `a "quoted" <name> & more`, Backend: runs.KindPTY, State: runs.Running,
			Spec: runs.Spec{Name: "a", Argv: []string{"sh", "-c", "sleep 1\n"}, Grace: 5 * time.Second}, PID: 10,
			CreatedAt: at, LeaseExpiresAt: at.Add(time.Minute), Logs: []string{"/tmp/x.log"},
			AgentStatus: runs.AgentStatus{Agent: "claude", AgentState: agentstate.Waiting}}, OwnerAlive: true, CPUMS: new(int64(12)), Memory: new(int64(0))},
		{Record: runs.Record{ID: "r2", Name: "ended", State: runs.Exited, ExitCode: &code, Reason: runs.Exit,
			Worktree: &workspace.Worktree{Branch: "corral/fix"}, Diff: &workspace.Stat{Added: 1, Removed: 2}}},
		{Record: runs.Record{ID: "r3", Name: "late", State: runs.Running}, CPUMS: new(int64(7)),
			LeaseNote: "lease not renewed (disk <full> & \"more\")"},
	}
	totals := runs.Metrics{SpawnTotal: 3, ExitTotal: map[string]int64{"exited": 1}}
	var c JSONCache
	check := func(what string, rs []Run, totals runs.Metrics) {
		t.Helper()
		var want, got bytes.Buffer
		if err := WriteJSON(&want, rs, totals); err != nil {
			t.Fatal(err)
		}
		if err := c.WriteJSON(&got, rs, totals); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("%s: the cache wrote\n%s\nWriteJSON\n%s", what, got.String(), want.String())
		}
	}
	check("first", rs, totals)
	check("again", rs, totals)
	rs[0].Record.State, rs[0].Record.UpdatedAt = runs.Exited, at.Add(time.Second)
	rs[0].OwnerAlive, rs[0].CPUMS, rs[0].Memory = false, nil, nil
	rs[1].LeaseNote, rs[1].OwnerAlive = "expired 5s ago", true
	check("changed", rs, totals)
	// The lease, written apart from the entry kept: a renewal of the owner's is
	// listed, and a change elsewhere with the lease as it was is not missed.
	rs[0].Record.LeaseExpiresAt, rs[2].Record.LeaseExpiresAt = at.Add(time.Hour), at.Add(time.Hour)
	check("lease renewed", rs, totals)
	rs[2].Record.Cgroup = "/sys/fs/cgroup/corral/r3"
	check("after the lease", rs, totals)
	// A slice of another content at the same length, and one of the same content
	// elsewhere (a record decoded anew).
	rs[0].Record.Spec.Argv = []string{"sh", "-c", "sleep 2\n"}
	check("argv", rs, totals)
	rs[0].Record.Spec.Argv = slices.Clone(rs[0].Record.Spec.Argv)
	check("argv copied", rs, totals)
	rs[1].Record.LeaseExpiresAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) // no JSON time: both refuse it
	var c2 JSONCache
	if err, want := c2.WriteJSON(io.Discard, rs, totals), WriteJSON(io.Discard, rs, totals); (err == nil) != (want == nil) {
		t.Fatalf("a lease past year 9999: the cache says %v, WriteJSON %v", err, want)
	}
	rs[1].Record.LeaseExpiresAt = time.Time{}
	check("one gone", rs[1:], totals)
	check("back", rs, runs.Metrics{})
	check("none", []Run{}, totals)
	check("nil", nil, totals)
	if len(c.by) != 0 {
		t.Errorf("the cache keeps %d runs no listing has", len(c.by))
	}
}

// A listing of unchanged records allocates little beyond its document: at a thousand
// runs the cache's new map of every record and the records boxed to compare them were
// over three megabytes a call for the server's collector.
func TestJSONCacheListsUnchangedRecordsWithoutCopies(t *testing.T) {
	if raceOn {
		t.Skip("the race detector's build allocates otherwise")
	}
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	rs := make([]Run, 1000)
	for i := range rs {
		id := fmt.Sprintf("r%011d", i)
		rs[i] = Run{Record: runs.Record{ID: id, Name: "sh", Backend: runs.KindPTY, State: runs.Running, PID: 1000 + i,
			Spec:      runs.Spec{Name: "sh", Argv: []string{"sh", "-c", "sleep 100000"}, PTY: true, Cols: 120, Rows: 40},
			CreatedAt: at, LeaseExpiresAt: at.Add(time.Minute)}, OwnerAlive: true}
	}
	var c JSONCache
	doc, err := c.Document(rs, runs.Metrics{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	if _, err := c.Document(rs, runs.Metrics{}); err != nil {
		t.Fatal(err)
	}
	goruntime.ReadMemStats(&after)
	if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(doc))+uint64(len(doc))/4; n > limit {
		t.Errorf("a listing of %d unchanged records allocated %d bytes, its document is %d", len(rs), n, len(doc))
	}
}
