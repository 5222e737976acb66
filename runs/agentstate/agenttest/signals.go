package agenttest

import (
	"bytes"
	"strings"
)

// Signal is something an agent said about itself in its output, outside the screen
// text: a title (OSC 0/2), a state announcement (OSC 7501), a notification (OSC 9,
// 777, 99), progress (OSC 9;4), or a bare bell. At is its offset in the stream.
type Signal struct {
	At   int    `json:"at"`
	Kind string `json:"kind"` // title, osc7501, osc9, osc9;4, osc777, osc99, bel
	Text string `json:"text"` // the payload after the command number ("" for a bell)
}

// Signals lists the signals in an output stream, in order. It follows just enough of
// ECMA-48 to tell a BEL that ends an OSC from a bell, and to skip other strings.
func Signals(stream []byte) []Signal {
	var out []Signal
	for i := 0; i < len(stream); i++ {
		switch {
		case stream[i] == 0x07:
			out = append(out, Signal{At: i, Kind: "bel"})
		case stream[i] == 0x1b && i+1 < len(stream) && isStringIntro(stream[i+1]):
			end, body := stringEnd(stream, i+2)
			if stream[i+1] == ']' {
				if s, ok := oscSignal(i, body); ok {
					out = append(out, s)
				}
			}
			i = end - 1
		}
	}
	return out
}

// isStringIntro: OSC (]), DCS (P), SOS (X), PM (^), APC (_) open a string.
func isStringIntro(b byte) bool { return strings.IndexByte("]PX^_", b) >= 0 }

// stringEnd finds the end of a control string starting at i: after its BEL or ESC \
// terminator (or the end of the stream), and the string's body.
func stringEnd(b []byte, i int) (end int, body []byte) {
	for j := i; j < len(b); j++ {
		switch {
		case b[j] == 0x07:
			return j + 1, b[i:j]
		case b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\':
			return j + 2, b[i:j]
		}
	}
	return len(b), b[i:]
}

func oscSignal(at int, body []byte) (Signal, bool) {
	cmd, text, _ := bytes.Cut(body, []byte{';'})
	kind := ""
	switch string(cmd) {
	case "0", "2":
		kind = "title"
	case "7501", "777", "99":
		kind = "osc" + string(cmd)
	case "9":
		kind = "osc9"
		if bytes.HasPrefix(text, []byte("4;")) {
			kind, text = "osc9;4", text[2:]
		}
	default:
		return Signal{}, false
	}
	return Signal{At: at, Kind: kind, Text: string(text)}, true
}
