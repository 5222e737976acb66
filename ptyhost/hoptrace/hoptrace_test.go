package hoptrace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Off (no CORRAL_HOP_TRACE), a mark writes nothing; on, each mark is one line: the
// time in nanoseconds, the hop and its detail, bytes quoted with their length.
func TestMarksAreLinesWhenOn(t *testing.T) {
	if On() {
		t.Skip(Env + " is set for this test process")
	}
	Mark("off", "nothing") // out is nil: a write would panic
	f, err := os.Create(filepath.Join(t.TempDir(), "1.trace"))
	if err != nil {
		t.Fatal(err)
	}
	out, on = f, true
	defer func() { out, on = nil, false; f.Close() }()
	Mark("ui.key", "k")
	MarkBytes("pty.read", []byte("k\r\n"))
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	want := []string{"ui.key k", `pty.read 3:"k\r\n"`}
	if len(lines) != len(want) {
		t.Fatalf("trace %q, want %d lines", b, len(want))
	}
	for i, l := range lines {
		at, rest, _ := strings.Cut(l, " ")
		if _, err := strconv.ParseInt(at, 10, 64); err != nil || rest != want[i] {
			t.Fatalf("line %d is %q, want a time and %q", i, l, want[i])
		}
	}
}
