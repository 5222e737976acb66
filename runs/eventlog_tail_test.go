package runs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeLog writes events.jsonl in dir: n state events of run "r1" a millisecond
// apart from base, with an output heartbeat and a line cut short among them, then
// lines.
func writeLog(t testing.TB, dir string, base time.Time, n int, lines ...string) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		at := base.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		fmt.Fprintf(&b, `{"time":%q,"level":"INFO","msg":"state","instance_id":"i1","run_id":"r1","name":"one","state":"running","seq":%d,"detail":"n%d","pid":77}`+"\n", at, i+1, i)
		if i%50 == 0 {
			fmt.Fprintf(&b, `{"time":%q,"level":"INFO","msg":"output","instance_id":"i1","run_id":"r1","bytes":10,"total":99}`+"\n", at)
			b.WriteString(`{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"sta` + "\n") // a crash cut it
		}
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, EventLogName), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// RecentEvents reads only the end of the log, and at most RecentLines events of it,
// oldest first, those written before the time given; a lifecycle event comes back
// as it was, any other line with its fields in Detail; heartbeats and cut lines are
// left out.
func TestRecentEvents(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	exit := `{"time":"2026-05-01T11:00:00Z","level":"INFO","msg":"exit","instance_id":"i1","run_id":"r2","name":"two","state":"exited","seq":6,"detail":"exit","pid":78,"reason":"exit","killed":0,"exit_code":3}`
	reconcile := `{"time":"2026-05-01T11:00:01Z","level":"INFO","msg":"reconcile","instance_id":"i2","run_id":"r3","name":"three","decision":"lost","pid":1234567,"reason":"lost","detail":"its cgroup is empty"}`
	late := `{"time":"2026-05-01T12:00:00Z","level":"INFO","msg":"exit","instance_id":"i1","run_id":"r4","name":"four","state":"exited","seq":2,"reason":"exit","exit_code":0}`
	writeLog(t, dir, base, 5000, exit, reconcile, late)
	if st, _ := os.Stat(filepath.Join(dir, EventLogName)); st.Size() < 4*RecentBytes {
		t.Fatalf("the log is only %d bytes: the test needs one RecentEvents cannot read whole", st.Size())
	}
	evs, err := RecentEvents(dir, base.Add(90*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != RecentLines {
		t.Fatalf("%d events, want RecentLines (%d)", len(evs), RecentLines)
	}
	first := evs[0]
	if first.Type != EventState || first.Run.ID != "r1" || first.Run.State != Running || first.Run.PID != 77 ||
		first.Detail != fmt.Sprintf("n%d", 5000-(RecentLines-2)) || first.Run.Seq != uint64(5000-(RecentLines-2)+1) {
		t.Errorf("first: %+v", first)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Time.Before(evs[i-1].Time) {
			t.Fatalf("not oldest first at %d", i)
		}
	}
	ex, rc := evs[len(evs)-2], evs[len(evs)-1]
	if ex.Type != EventExit || ex.Run.ID != "r2" || ex.Run.Name != "two" || ex.Run.State != Exited ||
		ex.Run.Reason != Exit || ex.Run.ExitCode == nil || *ex.Run.ExitCode != 3 || ex.Run.Seq != 6 {
		t.Errorf("exit: %+v", ex)
	}
	if rc.Type != "reconcile" || rc.Run.ID != "r3" || rc.Run.Name != "three" ||
		rc.Detail != "decision=lost detail=its cgroup is empty pid=1234567 reason=lost" {
		t.Errorf("reconcile: %+v %q", rc, rc.Detail)
	}
	for _, e := range evs {
		if e.Type == "output" || e.Run.ID == "r4" {
			t.Errorf("left in: %+v", e)
		}
	}

	// No log: no events.
	if evs, err := RecentEvents(t.TempDir(), time.Now()); err != nil || len(evs) != 0 {
		t.Errorf("no log: %v %d", err, len(evs))
	}
}

// RecentEvents costs the same on a log of any length: it reads its last RecentBytes.
func BenchmarkRecentEvents(b *testing.B) {
	for _, n := range []int{1000, 400_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeLog(b, dir, time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RecentEvents(dir, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
