package screen

import (
	"bytes"
	"slices"
	"sync"
	"testing"
)

// What an agent says besides its screen is tracked as it is scanned: its announcement,
// its progress (OSC 9;4, until 9;4;0), kitty's OSC 99 notifications.
func TestSignals(t *testing.T) {
	s := NewScreen(80, 24)
	s.Write([]byte("\x1b]0;⠂ work\x07\x1b]7501;state=blocked:app=codex:kind=permission\x1b\\\x1b]9;4;3\x07"))
	sig := s.Signals()
	if sig.Title != "⠂ work" || sig.Announce != "state=blocked:app=codex:kind=permission" || sig.Progress != "3" || sig.Attention != 0 {
		t.Fatalf("signals: %+v", sig)
	}
	s.Write([]byte("\x1b]9;4;1;40\x07\x1b]99;i=1:d=0;Claude\x1b\\\x1b]99;i=1;needs you\x1b\\"))
	if sig = s.Signals(); sig.Progress != "1;40" || sig.Attention != 1 || sig.Notice != "needs you" {
		t.Fatalf("progress and a kitty notification: %+v", sig)
	}
	s.Write([]byte("\x1b]9;4;0;0\x07\x1b]99;e=1;aGk=\x1b\\"))
	if sig = s.Signals(); sig.Progress != "" || sig.Attention != 1 {
		t.Fatalf("progress removed, a base64 part not shown: %+v", sig)
	}
}

// Bottom reads the last rows up to the last one with text (an inline app's prompt
// sits above blank rows); Top the first.
func TestBottomAndTop(t *testing.T) {
	s := NewScreen(20, 8)
	s.Write([]byte("logo\r\n\r\n╭──╮\r\n│ > hi\r\n╰──╯\r\n  ? for shortcuts"))
	if got := s.Bottom(3); !slices.Equal(got, []string{"│ > hi", "╰──╯", "  ? for shortcuts"}) {
		t.Errorf("Bottom(3) = %q", got)
	}
	if got := s.Bottom(50); len(got) != 6 || got[0] != "logo" {
		t.Errorf("Bottom(50) = %q", got)
	}
	if got := s.Top(2); !slices.Equal(got, []string{"logo", ""}) {
		t.Errorf("Top(2) = %q", got)
	}
	if got := NewScreen(10, 3).Bottom(2); !slices.Equal(got, []string{""}) {
		t.Errorf("a blank screen's bottom: %q", got)
	}
}

type replies struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (r *replies) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.Write(p)
}

func (r *replies) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.b.String()
	r.b.Reset()
	return s
}

// An app that asks for focus reports is told where it stands at once, then of every
// change; one that did not ask is told nothing.
func TestFocusReports(t *testing.T) {
	s := NewScreen(80, 24)
	r := &replies{}
	s.SetReply(r)
	s.SetFocus(false)
	if got := r.take(); got != "" {
		t.Fatalf("told before it asked: %q", got)
	}
	s.Write([]byte("\x1b[?1004h"))
	if got := r.take(); got != "\x1b[O" {
		t.Fatalf("on asking: %q, want focus-out", got)
	}
	s.SetFocus(true)
	s.SetFocus(true)
	s.SetFocus(false)
	if got := r.take(); got != "\x1b[I\x1b[O" {
		t.Fatalf("changes: %q", got)
	}
	s.Write([]byte("\x1b[?1004l"))
	s.SetFocus(true)
	if got := r.take(); got != "" {
		t.Fatalf("after it stopped asking: %q", got)
	}
}
