package runs

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/ptyhost"
	"corral/ptyhost/keys"
	"corral/runs/internal/statefile"
)

// 50 MB through a run: the child is never blocked (it finishes), the in-memory log
// stays at its cap with a truncation marker, and the transcript keeps its last bytes
// in two files of its cap at most.
func TestFloodCapsHold(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		d := testDefaults()
		d.TranscriptCap = 1 << 20
		s := newSup(t, WithDefaults(d))
		const total = 50 << 20
		id := spawn(t, s, childSpec(pty, "flood", "52428800"))
		info := waitEnd(t, s, id)
		if info.Reason != Exit || *info.ExitCode != 0 {
			t.Fatalf("reason %s, want exit 0", info.Reason)
		}
		out, _ := s.Log(id)
		if out.Total < total { // a PTY turns \n into \r\n: more, never less
			t.Errorf("captured %d bytes, want at least %d", out.Total, total)
		}
		var n int
		for _, c := range out.Chunks {
			n += len(c.Data)
		}
		if n > d.OutputCap || out.Dropped == 0 {
			t.Errorf("log holds %d bytes (cap %d), dropped %d", n, d.OutputCap, out.Dropped)
		}
		if !bytes.HasPrefix(out.Bytes(), []byte("[corral: ")) {
			t.Error("truncated log has no marker")
		}
		// The transcript keeps what came last: the current file and the full one
		// before it, each at most the cap; the two end as the log does.
		cur, err := os.ReadFile(info.Transcript)
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile(info.Transcript + ".1")
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(cur)) > d.TranscriptCap || int64(len(old)) != d.TranscriptCap {
			t.Errorf("transcripts of %d and %d bytes, want at most the cap %d and the cap", len(cur), len(old), d.TranscriptCap)
		}
		tail := append(old, cur...)
		logged := out.Bytes()
		if end := logged[len(logged)-4096:]; !bytes.HasSuffix(tail, end) {
			t.Errorf("the transcripts end %q, the log %q", tail[len(tail)-64:], end[len(end)-64:])
		}
	})
}

// UTF-8 and escape sequences written in pieces arrive byte for byte in the log.
func TestSplitSequencesPreserved(t *testing.T) {
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		id := spawn(t, s, childSpec(pty, "split"))
		waitEnd(t, s, id)
		out, _ := s.Log(id)
		got := out.Bytes()
		if pty {
			got = bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n")) // the line discipline's ONLCR
		}
		want := strings.Join(demo.SplitPieces, "")
		if string(got) != want {
			t.Fatalf("log %q, want %q", got, want)
		}
	})
}

func TestPipeStreamsApart(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "streams"))
	info := waitEnd(t, s, id)
	out, _ := s.Log(id)
	var stdout, stderr string
	for _, c := range out.Chunks {
		if c.Stream == ptyhost.Stderr {
			stderr += string(c.Data)
		} else {
			stdout += string(c.Data)
		}
	}
	if stdout != "out 0\nout 1\nout 2\n" || stderr != "err 0\nerr 1\nerr 2\n" {
		t.Fatalf("stdout %q stderr %q", stdout, stderr)
	}
	errFile, _ := os.ReadFile(info.StderrTranscript)
	if string(errFile) != stderr {
		t.Errorf("stderr transcript %q, want %q", errFile, stderr)
	}
}

func TestPollReturnsOnlyUnread(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(false, "readline"))
	waitOutput(t, s, id, "ready")
	if first, _ := s.Poll(id); string(first.Bytes()) != "ready\n" {
		t.Fatalf("first poll %q", first.Bytes())
	}
	s.Write(id, []byte("x\n"))
	waitEnd(t, s, id)
	if second, _ := s.Poll(id); string(second.Bytes()) != "got: x\n" {
		t.Fatalf("second poll %q, want only the new line", second.Bytes())
	}
}

func TestOutputLogCompactsAtRuneBoundary(t *testing.T) {
	l := newOutputLog(10)
	for i := 0; i < 20; i++ {
		l.write(ptyhost.Stdout, []byte("é€"))
	}
	out := l.all()
	var n int
	for _, c := range out.Chunks {
		n += len(c.Data)
		if !utf8.Valid(c.Data) {
			t.Fatalf("chunk %q cut inside a rune", c.Data)
		}
	}
	if n > 10 || out.Dropped+int64(n) != out.Total {
		t.Fatalf("kept %d, dropped %d of %d", n, out.Dropped, out.Total)
	}
	if tail := l.tail(4); !utf8.Valid(tail) || len(tail) > 4 {
		t.Fatalf("tail %q", tail)
	}
}

// keyBytes collects the bytes the keys child reports ("got <hex>" lines).
func keyBytes(t *testing.T, s *Supervisor, id string) []byte {
	out, _ := s.Log(id)
	var b []byte
	for _, line := range strings.Split(string(out.Bytes()), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimSpace(line), "got "); ok {
			x, err := hex.DecodeString(h)
			if err != nil {
				t.Fatalf("bad line %q", line)
			}
			b = append(b, x...)
		}
	}
	return b
}

// waitKeyBytes waits until the child has reported n bytes.
func waitKeyBytes(t *testing.T, s *Supervisor, id string, want []byte) {
	t.Helper()
	_, sub := s.Subscribe()
	defer sub.Close()
	got, ok := eventually.Woken(waitLimit, 0, sub.C, func() ([]byte, bool) {
		got := keyBytes(t, s, id)
		return got, len(got) >= len(want)
	})
	switch {
	case !ok:
		t.Fatalf("child received only %q, want %q", got, want)
	case !bytes.Equal(got, want):
		t.Fatalf("child received %q, want %q", got, want)
	}
}

func TestSendKeysPasteSubmitReachChild(t *testing.T) {
	cases := []struct {
		name      string
		bracketed bool
		send      func(s *Supervisor, id string) error
		want      string
	}{
		{"send-keys", false, func(s *Supervisor, id string) error {
			items, err := keys.ParseSendKeys(`"hi there" C-c Up M-x Enter`)
			if err != nil {
				return err
			}
			return s.SendKeys(id, items)
		}, "hi there\x03\x1b[A\x1bx\r"},
		{"paste plain", false, func(s *Supervisor, id string) error { return s.Paste(id, "a\nb") }, "a\rb"},
		{"paste bracketed", true, func(s *Supervisor, id string) error { return s.Paste(id, "a\nb") },
			"\x1b[200~a\nb\x1b[201~"},
		{"submit bracketed", true, func(s *Supervisor, id string) error { return s.Submit(id, "go") },
			"\x1b[200~go\x1b[201~\r"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSup(t)
			args := []string{}
			if c.bracketed {
				args = append(args, "bracketed")
			}
			id := spawn(t, s, childSpec(true, "keys", args...))
			waitOutput(t, s, id, "ready")
			if err := c.send(s, id); err != nil {
				t.Fatal(err)
			}
			waitKeyBytes(t, s, id, []byte(c.want))
			s.Cancel(id)
			waitEnd(t, s, id)
		})
	}
}

// With screens, a PTY run's output is emulated as it arrives, answers to device
// attribute queries reach the app, and resizing the run resizes its screen.
func TestScreenFollowsRun(t *testing.T) {
	s := newSup(t, WithScreens())
	id := spawn(t, s, childSpec(true, "keys"))
	waitOutput(t, s, id, "ready")
	scr, err := s.Screen(id)
	if err != nil || scr == nil {
		t.Fatalf("screen %v %v", scr, err)
	}
	if !strings.Contains(scr.Text(), "ready") {
		t.Fatalf("screen text %q", scr.Text())
	}
	if err := s.Resize(id, 90, 20); err != nil {
		t.Fatal(err)
	}
	if c, r := scr.Size(); c != 90 || r != 20 {
		t.Fatalf("screen %dx%d after resize", c, r)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
	if pipe, _ := s.Screen(spawn(t, s, childSpec(false, "exit", "0"))); pipe != nil {
		t.Error("a pipe run has a screen")
	}
}

// A character split between two polls is returned whole across them, with no marker.
func TestPollKeepsSplitRune(t *testing.T) {
	l := newOutputLog(100)
	l.write(ptyhost.Stdout, []byte("caf\xc3"))
	first := l.poll()
	l.write(ptyhost.Stdout, []byte("\xa9!"))
	second := l.poll()
	if got := string(first.Bytes()) + string(second.Bytes()); got != "café!" || second.Dropped != 0 {
		t.Fatalf("polls %q + %q (dropped %d), want café!", first.Bytes(), second.Bytes(), second.Dropped)
	}
}

// The transcript is buffered in a burst, but a run that goes quiet has its output in
// the file within a window (the UI reads the file for scrollback while the run lives).
func TestTranscriptCatchesUpWhenQuiet(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(true, "silent"))
	waitOutput(t, s, id, "now silent")
	info, _ := s.Info(id)
	tick := time.NewTicker(statefile.TranscriptWindow / 5)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		if b, _ := os.ReadFile(info.Transcript); bytes.Contains(b, []byte("now silent")) {
			break
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("the transcript never got the output of a quiet run")
		}
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A submit's Enter reaches the app in a read of its own, after the text: "got" lines
// are one per read of the keys child (agents' input boxes read a paste and an Enter
// that come in one read as a paste holding a newline, and the prompt is not sent). A
// write made during the pause comes after the Enter, never between the text and it.
func TestSubmitEnterInARead(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(true, "keys", "bracketed"))
	waitOutput(t, s, id, "ready")
	done := make(chan error, 1)
	go func() { done <- s.Submit(id, "fix the tests") }()
	waitOutput(t, s, id, fmt.Sprintf("got %x\r\n", "\x1b[200~fix the tests\x1b[201~"))
	if err := s.Write(id, []byte("z")); err != nil { // waits for the Enter
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waitKeyBytes(t, s, id, []byte("\x1b[200~fix the tests\x1b[201~\rz"))
	s.Cancel(id)
	waitEnd(t, s, id)
}

// Keys are encoded at the run with the modes its app set by the last byte read: the
// screen's when the supervisor keeps screens (its mode tracker then sees nothing),
// the tracker's when it does not. The keys child switches application cursor keys on
// at a '+' and off at a '-'.
func TestKeysEncodedWithRunModes(t *testing.T) {
	for _, screens := range []bool{true, false} {
		t.Run(fmt.Sprintf("screens=%v", screens), func(t *testing.T) {
			var opts []Option
			if screens {
				opts = append(opts, WithScreens())
			}
			s := newSup(t, opts...)
			id := spawn(t, s, childSpec(true, "keys", "switch"))
			waitOutput(t, s, id, "ready")
			up := []keys.Item{{Key: keys.Key{Code: keys.KeyUp}}}
			want := ""
			for _, step := range []struct{ toggle, up string }{{"+", "\x1bOA"}, {"-", "\x1b[A"}, {"x+", "\x1bOA"}} {
				if err := s.Write(id, []byte(step.toggle)); err != nil {
					t.Fatal(err)
				}
				waitOutput(t, s, id, fmt.Sprintf("got %x\r\n", step.toggle))
				if err := s.SendKeys(id, up); err != nil {
					t.Fatal(err)
				}
				want += step.toggle + step.up
				waitKeyBytes(t, s, id, []byte(want))
			}
			r, _ := s.get(id)
			if tracked := r.modes.Modes(); screens && tracked != (keys.Modes{}) {
				t.Errorf("the mode tracker was fed beside the screen: %+v", tracked)
			}
			s.Cancel(id)
			waitEnd(t, s, id)
		})
	}
}

// A mouse event is reported at the run as its app asked by the last byte read: in SGR
// form to an app that enabled ?1000 and ?1006 (the screen's modes, or the tracker's
// without screens), and not at all to one that asked for no mouse.
func TestMouseEncodedWithRunModes(t *testing.T) {
	click := keys.Item{Mouse: &keys.Mouse{Kind: keys.MousePress, Button: 0, X: 2, Y: 3}}
	enter := keys.Item{Key: keys.Key{Code: keys.KeyEnter}}
	for _, c := range []struct {
		name    string
		screens bool
		args    []string
		want    string
	}{
		{"screen", true, []string{"keys", "mouse"}, "\x1b[<0;3;4M\r"},
		{"tracker", false, []string{"keys", "mouse"}, "\x1b[<0;3;4M\r"},
		{"not asked", true, []string{"keys"}, "\r"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []Option
			if c.screens {
				opts = append(opts, WithScreens())
			}
			s := newSup(t, opts...)
			id := spawn(t, s, childSpec(true, c.args[0], c.args[1:]...))
			waitOutput(t, s, id, "ready")
			if err := s.SendKeys(id, []keys.Item{click, enter}); err != nil {
				t.Fatal(err)
			}
			waitKeyBytes(t, s, id, []byte(c.want))
			s.Cancel(id)
			waitEnd(t, s, id)
		})
	}
}
