package statefile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// A transcript holds back only the tail of a burst, and only for a window: what comes
// after a pause is in the file when write returns, even while an earlier burst's tail
// waits (the keeper's next server goes on from the file after a kill -9; CI once saw a
// counter lose three lines when a line came 5 ms after another and everything after it
// waited for the burst's 200 ms timer).
func TestTranscriptHoldsOnlyABurstsTail(t *testing.T) {
	root, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tx, err := OpenTranscript(root, "t.log", 1<<20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	file := func() string { b, _ := os.ReadFile(root.Join("t.log")); return string(b) }
	var want string
	write := func(s string) { want += s; tx.Write([]byte(s)) }

	for i := range transcriptBurst + 3 { // a burst: its first writes go through
		write(fmt.Sprintf("burst %d\n", i))
		if i < transcriptBurst && file() != want {
			t.Fatalf("write %d of a burst was held: file %q", i, file())
		}
	}
	time.Sleep(TranscriptWindow + 5*time.Millisecond) // output at a log's pace from here on
	for i := range 5 {
		write(fmt.Sprintf("paced %d\n", i))
		if got := file(); got != want {
			t.Fatalf("paced write %d was held: file %q, want %q", i, got, want)
		}
		time.Sleep(TranscriptWindow/transcriptBurst + time.Millisecond)
	}
	write("tail 1\n")
	write("tail 2\n")
	write("tail 3\n") // the third in a window waits for it to end
	eventually.Value(t, 5*time.Second, "a burst's tail to reach the file", func() (string, bool) {
		got := file()
		return got, got == want
	})
}

// A full transcript is moved aside and a new one begun, and what a server that takes
// a run over rebuilds its screen from — the end of what it printed — reads across the
// two.
func TestTranscriptRotates(t *testing.T) {
	dir, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	tr, err := OpenTranscript(dir, "r1.log", 10, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"0123456", "789abcdefghij", "klmno"} {
		tr.Write([]byte(p))
	}
	tr.Close()
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir.Path(), name))
		return string(b)
	}
	if cur, old := read("r1.log"), read("r1.log.1"); old != "abcdefghij" || cur != "klmno" {
		t.Fatalf("r1.log.1 %q, r1.log %q", old, cur)
	}
	if got, _ := dir.Tail("r1.log", 8); string(got) != "hijklmno" {
		t.Errorf("the last 8 bytes: %q", got)
	}
	again, err := OpenTranscript(dir, "r1.log", 10, true) // a server after: within the same bound
	if err != nil {
		t.Fatal(err)
	}
	again.Write([]byte("pqrstuv"))
	again.Close()
	if cur, old := read("r1.log"), read("r1.log.1"); old != "klmnopqrst" || cur != "uv" {
		t.Fatalf("continued: r1.log.1 %q, r1.log %q", old, cur)
	}
}

// A transcript with no room keeps nothing, and a write to it returns.
func TestTranscriptWithoutRoom(t *testing.T) {
	dir, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	tr, err := OpenTranscript(dir, "r1.log", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	tr.Write([]byte("lost"))
	tr.Close()
	if b, _ := os.ReadFile(filepath.Join(dir.Path(), "r1.log")); len(b) != 0 {
		t.Errorf("kept %q", b)
	}
}
