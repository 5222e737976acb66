package screen

import (
	"bytes"
	"unicode/utf8"
)

// What an agent says about itself, for the no-output watchdog (issue 14.5). Measured
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
	titled   bool // a title was set
	spinning bool // the title leads with a spinner
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
