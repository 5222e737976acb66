package screen

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Operating system commands the scanner keeps (the title, notifications) and the
// bell; every other string is dropped (screen_scan.go).

// oscDone handles a complete OSC: the title (0 and 2; 1 is only the icon name),
// notifications (9, 777, 99), progress (9;4) and an agent's state (7501,
// screen_activity.go).
// Everything else is dropped: OSC 52 clipboard writes, OSC 4/10/11 colour changes
// (vt10x would apply them to every cell it returns) and their queries (vt10x
// answers black on black), hyperlinks (the linked text stays), prompt marks.
func (s *Screen) oscDone() {
	cmd, text, _ := bytes.Cut(s.scan.osc, []byte{';'})
	switch string(cmd) {
	case "0", "2":
		s.track.title = cleanText(text)
		s.track.activity.title(s.track.title)
	case "7501":
		s.track.activity.announce(text)
	case "9":
		switch {
		case bytes.HasPrefix(text, []byte("4;")):
			s.track.activity.setProgress(text)
		case !conEmuCommand(text):
			s.notify(cleanText(text))
		}
	case "777":
		s.notify777(text)
	case "99":
		s.notify99(text)
	}
}

// notify99 handles kitty's desktop notifications, "OSC 99 ; metadata ; payload": a
// notification may come in parts (d=0 until the last), and its payload may be
// base64 (e=1) or a query (p=?); the done part's plain payload is what is shown.
func (s *Screen) notify99(text []byte) {
	meta, payload, _ := bytes.Cut(text, []byte{';'})
	done := true
	for _, kv := range bytes.Split(meta, []byte{':'}) {
		switch string(kv) {
		case "d=0":
			done = false
		case "e=1", "p=?":
			return
		}
	}
	if msg := cleanText(payload); done && msg != "" {
		s.notify(msg)
	}
}

// conEmuCommand reports whether an OSC 9 payload is one of ConEmu's numbered
// commands (OSC 9;4 progress is common) rather than an iTerm2 notification.
func conEmuCommand(text []byte) bool {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i > 0 && (i == len(text) || text[i] == ';')
}

// notify777 handles urxvt's "OSC 777 ; notify ; title ; body".
func (s *Screen) notify777(text []byte) {
	kind, rest, _ := bytes.Cut(text, []byte{';'})
	if string(kind) != "notify" {
		return
	}
	title, body, _ := bytes.Cut(rest, []byte{';'})
	t, b := cleanText(title), cleanText(body)
	switch {
	case t == "":
		s.notify(b)
	case b == "":
		s.notify(t)
	default:
		s.notify(t + ": " + b)
	}
}

func (s *Screen) notify(msg string) {
	s.track.attention++
	s.track.notice = msg
}

func (s *Screen) bell() {
	s.track.attention++
	s.track.notice = ""
}

// cleanText makes text from the run safe to show anywhere: valid UTF-8 without
// C0/C1 controls or format characters (bidi overrides could reorder the UI).
func cleanText(b []byte) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == utf8.RuneError || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, string(b))
}
