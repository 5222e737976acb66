package statefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// Lines written while the log is held are gathered, not written one by one: the file
// does not grow with each, and they land whole and in order in a few writes, at the
// latest holdFlush after the first, all of them at Release.
func TestLogHoldGathersLines(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	l, err := OpenLog(d, "events.jsonl", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	size := func() int64 {
		st, err := os.Stat(filepath.Join(dir, "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	l.Write([]byte("before\n"))
	l.Hold()
	var want strings.Builder
	want.WriteString("before\n")
	for i := range 100 {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		if _, err := l.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if got := size(); got != int64(len("before\n")) {
		t.Errorf("%d bytes written while held: each line went out by itself", got)
	}
	// The held lines' flush, holdFlush after the first.
	eventually.True(t, 10*time.Second, "the held lines flushed", func() bool { return size() == int64(want.Len()) })
	l.Write([]byte("last\n"))
	want.WriteString("last\n")
	l.Release()
	b, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want.String() {
		t.Errorf("the log holds %q, want %q", b, want.String())
	}
}
