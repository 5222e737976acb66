package agenttest

import (
	"path/filepath"
	"strings"
	"testing"

	"corral/ptyhost/screen"
)

var corpusDir = filepath.Join("..", "testdata", "corpus")

// The committed corpus is well-formed: each cast parses, holds exactly the bytes its
// phases count, and every phase is in order, inside the stream, labelled with the
// state its name says, and present where its recording needs it.
func TestCorpusWellFormed(t *testing.T) {
	for _, name := range Recordings {
		t.Run(name, func(t *testing.T) {
			r, c, err := Load(corpusDir, name)
			if err != nil {
				t.Fatal(err)
			}
			if c.Header.Width != r.Cols || c.Header.Height != r.Rows {
				t.Errorf("cast is %dx%d, phases say %dx%d", c.Header.Width, c.Header.Height, r.Cols, r.Rows)
			}
			if n := len(c.Stream()); n != r.Bytes {
				t.Errorf("cast holds %d bytes, phases say %d", n, r.Bytes)
			}
			if err := Check(r, RequiredPhases(name)); err != nil {
				t.Error(err)
			}
			for _, p := range r.Phases {
				if want := stateOf(p.Name); want != "" && p.State != want {
					t.Errorf("phase %s is labelled %s, want %s", p.Name, p.State, want)
				}
			}
			last := 0.0
			for i, e := range c.Events {
				if e.T < last {
					t.Fatalf("event %d at %.6fs goes back in time (%.6fs before it)", i, e.T, last)
				}
				last = e.T
			}
		})
	}
}

// stateOf is the state a phase's name implies ("" for startup, which is labelled
// unknown or, at a trust or login question, waiting).
func stateOf(name string) string {
	switch {
	case strings.HasPrefix(name, "working"):
		return StateWorking
	case strings.HasPrefix(name, "waiting"):
		return StateWaiting
	case strings.HasPrefix(name, "idle"):
		return StateIdle
	}
	return ""
}

// Each phase's screen and title are what replaying the cast up to the phase's start
// gives: the labels belong to these bytes. A change to the screen emulator that
// renders an agent differently shows here; check that the phases still read right.
func TestCorpusScreensReplay(t *testing.T) {
	for _, name := range Recordings {
		t.Run(name, func(t *testing.T) {
			r, c, err := Load(corpusDir, name)
			if err != nil {
				t.Fatal(err)
			}
			stream := c.Stream()
			s := screen.NewScreen(r.Cols, r.Rows)
			at := 0
			for _, p := range r.Phases {
				s.Write(stream[at:p.From])
				at = p.From
				if p.Screen == "" { // startup, at byte 0
					continue
				}
				if got := s.Text(); got != p.Screen {
					t.Errorf("phase %s: the replayed screen at %d differs:\n%s\nrecorded:\n%s", p.Name, p.From, got, p.Screen)
				}
				if got := s.State().Title; got != p.Title {
					t.Errorf("phase %s: replayed title %q, recorded %q", p.Name, got, p.Title)
				}
			}
		})
	}
}

func TestSignals(t *testing.T) {
	stream := []byte("a\x07b\x1b]0;⠂ work\x07c\x1b]7501;state=idle:app=x\x1b\\" +
		"\x1b]9;4;3;\x07\x1b]9;done\x1b\\\x1b]777;notify;T;B\x07\x1bP+q\x07\x1b\\\x1b]52;c;x\x07")
	want := []Signal{
		{At: 1, Kind: "bel"},
		{At: 3, Kind: "title", Text: "⠂ work"},
		{At: 17, Kind: "osc7501", Text: "state=idle:app=x"},
		{At: 42, Kind: "osc9;4", Text: "3;"},
		{At: 51, Kind: "osc9", Text: "done"},
		{At: 61, Kind: "osc777", Text: "notify;T;B"},
	}
	got := Signals(stream)
	if len(got) != len(want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("signal %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
