package screen

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// What an agent says about itself, for the no-output watchdog (an agent idle at its
// prompt is silent, and must not be ended for it). Measured
// with the real CLIs (Claude Code 2.1.197, codex 0.169.0), neither rings the bell or
// sends a notification when it sits at its prompt: Claude Code wrote 33 bytes in two
// idle minutes, codex none. Both say it in their title instead: a Braille spinner
// glyph leads the title while they work ("⠂ Claude Code", "⠸ dir") and goes when they
// wait ("✳ Claude Code", "dir"). codex also sends OSC 7501 "state=working:app=codex"
// and "state=idle:app=codex".

// Claude Code's first title, at its prompt, is already "✳ Claude Code": so the first
// title says something too. A plain title says the app waits: apps that set one are
// interactive (an editor, a shell prompt, an agent), and their silence is their human's.

// activity follows those announcements; seq counts them, idle is the latest.
type activity struct {
	seq      uint64
	idle     bool
	titled   bool   // a title was set
	spinning bool   // the title leads with a spinner
	said     string // the last OSC 7501 payload, as sent (cleaned)
	progress string // the last OSC 9;4 progress ("3", "1;40"; "" after 9;4;0 or none)
}

// title notes a new title: the first one, or a spinner appearing or going, says
// whether the app works or waits.
func (a *activity) title(t string) {
	spin := spinnerTitle(t)
	if !a.titled || spin != a.spinning {
		a.titled, a.spinning = true, spin
		a.set(!spin)
	}
}

// announce reads an OSC 7501 payload: colon-separated key=value fields, of which
// state=idle and state=working count.
func (a *activity) announce(payload []byte) {
	a.said = cleanText(payload)
	for _, f := range bytes.Split(payload, []byte{':'}) {
		switch string(f) {
		case "state=idle":
			a.set(true)
		case "state=working":
			a.set(false)
		}
	}
}

func (a *activity) set(idle bool) {
	a.seq++
	a.idle = idle
}

// spinnerTitle reports whether a title leads with a Braille pattern (U+2801–U+28FF),
// the spinner glyphs of Claude Code, codex and most Node and Rust CLI spinners.
func spinnerTitle(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return r > 0x2800 && r <= 0x28ff
}

// Activity reports the app's announcements so far: how many, and whether the latest
// said it waits for input. Like Attention it does not bring the emulator up to date.
func (s *Screen) Activity() (seq uint64, idle bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.track.activity.seq, s.track.activity.idle
}

// Signals are what an app says about itself besides its screen, as tracked while its
// bytes are scanned: reading them never emulates (the agent-state rules read them
// first and the screen only when a rule needs it).
type Signals struct {
	Title     string // OSC 0/2, cleaned
	Announce  string // the last OSC 7501 payload ("state=working:app=codex")
	Progress  string // the last OSC 9;4 progress: its state and value ("3", "1;40"); "" when none or removed
	Attention uint64 // bells and notifications so far
	Notice    string // the last notification's text; "" after a bare bell
}

// Signals returns the app's signals so far without bringing the emulator up to date.
func (s *Screen) Signals() Signals {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &s.track
	return Signals{Title: t.title, Announce: t.activity.said, Progress: t.activity.progress,
		Attention: t.attention, Notice: t.notice}
}

// progress notes an OSC 9;4 (ConEmu's progress, which Windows Terminal, Ghostty and
// agents use): "9;4;0" removes it.
func (a *activity) setProgress(text []byte) {
	p := cleanText(bytes.TrimPrefix(text, []byte("4;")))
	if p == "0" || strings.HasPrefix(p, "0;") {
		p = ""
	}
	a.progress = p
}
