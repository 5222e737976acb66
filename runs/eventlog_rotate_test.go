package runs

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// events.jsonl is bounded: past its cap it becomes events.jsonl.1 and a new one is
// begun, by whichever of the processes writing it sees it full first, the others
// following to the new file; no line is torn or written into a file moved aside
// twice, and a client that attaches after a rotation still gets the events before it.
func TestEventLogRotates(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no rotation where an open file cannot be renamed")
	}
	was := eventLogCap
	eventLogCap = 8 << 10
	defer func() { eventLogCap = was }()
	dir := t.TempDir()
	a, b := openReg(t, dir), openReg(t, dir) // two Corrals on one state dir
	var wg sync.WaitGroup
	const each = 300
	for w, r := range []*Registry{a, b} {
		wg.Go(func() {
			for i := range each {
				r.emit("test-event", "writer", w, "n", i)
			}
		})
	}
	wg.Wait()
	a.emit("test-final", "writer", 0)
	b.emit("test-final", "writer", 1)
	lines := func(name string) []map[string]any {
		t.Helper()
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var out []map[string]any
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%s: a torn line %q", name, sc.Text())
			}
			out = append(out, m)
		}
		return out
	}
	cur, old := lines(EventLogName), lines(EventLogName+".1")
	for _, name := range []string{EventLogName, EventLogName + ".1"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() > eventLogCap+1024 {
			t.Errorf("%s: %v, %d bytes over a cap of %d", name, err, st.Size(), eventLogCap)
		}
	}
	// Each writer's events come in order (none written into a file moved aside
	// twice), and its last is there.
	last, final := map[float64]float64{}, map[float64]bool{}
	for _, m := range append(old, cur...) {
		w, _ := m["writer"].(float64)
		switch m["msg"] {
		case "test-final":
			final[w] = true
		case "test-event":
			n := m["n"].(float64)
			if prev, ok := last[w]; ok && n <= prev {
				t.Fatalf("writer %v's event %v after %v: written into a file moved aside", w, n, prev)
			}
			last[w] = n
		}
	}
	if !final[0] || !final[1] {
		t.Errorf("the writers' last events: %v", final)
	}
	// A client that attaches now gets the events of both files (the current one may
	// hold a few lines only, just after a rotation).
	got, err := RecentEvents(dir, time.Now().Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if want := min(len(old)+len(cur), RecentLines); len(got) != want {
		t.Errorf("%d recent events, want %d (%d in the file before, %d in the current one)", len(got), want, len(old), len(cur))
	}
}
