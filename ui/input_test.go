package ui

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
)

// keyCase is one key press. in, when set, is what the user's terminal sends
// for the key (xterm legacy or kitty CSI u); the test checks that Bubble
// Tea's decoder really turns in into msg, so msg is built as Bubble Tea
// builds it.
type keyCase struct {
	name   string
	in     string
	msg    tea.KeyPressMsg
	modes  keys.Modes
	want   string
	wantOK bool
}

var (
	appCursor = keys.Modes{AppCursor: true}
	noModes   = keys.Modes{}
)

func keyCases() []keyCase {
	ok := func(name, in string, msg tea.KeyPressMsg, want string) keyCase {
		return keyCase{name: name, in: in, msg: msg, want: want, wantOK: true}
	}
	app := func(c keyCase) keyCase { c.name += "/app"; c.modes = appCursor; return c }
	none := func(name, in string, msg tea.KeyPressMsg) keyCase {
		return keyCase{name: name, in: in, msg: msg}
	}
	return []keyCase{
		// Text.
		ok("a", "a", tea.KeyPressMsg{Code: 'a', Text: "a"}, "a"),
		ok("shift+a", "A", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}, "A"),
		ok("!", "!", tea.KeyPressMsg{Code: '!', Text: "!"}, "!"),
		ok("é", "é", tea.KeyPressMsg{Code: 'é', Text: "é"}, "é"),
		ok("中", "中", tea.KeyPressMsg{Code: '中', Text: "中"}, "中"),
		ok("grapheme", "👍🏽", tea.KeyPressMsg{Code: tea.KeyExtended, Text: "👍🏽"}, "👍🏽"),
		ok("space", " ", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, " "),
		ok("kitty shift+a", "\x1b[97:65;2u", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}, "A"),
		ok("kitty shift+1", "\x1b[49:33;2u", tea.KeyPressMsg{Code: '1', ShiftedCode: '!', Text: "!", Mod: tea.ModShift}, "!"),
		ok("kitty caps lock a", "\x1b[97;65u", tea.KeyPressMsg{Code: 'a', Text: "A", Mod: tea.ModCapsLock}, "A"),
		ok("kitty keypad 5", "\x1b[57404u", tea.KeyPressMsg{Code: tea.KeyKp5, Text: "5"}, "5"),

		// Enter, tab, backspace, escape.
		ok("enter", "\r", tea.KeyPressMsg{Code: tea.KeyEnter}, "\r"),
		ok("shift+enter", "\x1b[13;2u", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}, "\x1b\r"),
		ok("alt+enter", "\x1b\r", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}, "\x1b\r"),
		ok("alt+shift+enter", "\x1b[13;4u", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift | tea.ModAlt}, "\x1b\r"),
		ok("kitty keypad enter", "\x1b[57414u", tea.KeyPressMsg{Code: tea.KeyKpEnter}, "\r"),
		ok("tab", "\t", tea.KeyPressMsg{Code: tea.KeyTab}, "\t"),
		ok("shift+tab", "\x1b[Z", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, "\x1b[Z"),
		ok("backspace", "\x7f", tea.KeyPressMsg{Code: tea.KeyBackspace}, "\x7f"),
		ok("alt+backspace", "\x1b\x7f", tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}, "\x1b\x7f"),
		ok("esc", "\x1b", tea.KeyPressMsg{Code: tea.KeyEscape}, "\x1b"),

		// Cursor and editing keys.
		ok("up", "\x1b[A", tea.KeyPressMsg{Code: tea.KeyUp}, "\x1b[A"),
		ok("down", "\x1b[B", tea.KeyPressMsg{Code: tea.KeyDown}, "\x1b[B"),
		ok("right", "\x1b[C", tea.KeyPressMsg{Code: tea.KeyRight}, "\x1b[C"),
		ok("left", "\x1b[D", tea.KeyPressMsg{Code: tea.KeyLeft}, "\x1b[D"),
		app(ok("up", "\x1bOA", tea.KeyPressMsg{Code: tea.KeyUp}, "\x1bOA")),
		app(ok("down", "\x1bOB", tea.KeyPressMsg{Code: tea.KeyDown}, "\x1bOB")),
		app(ok("right", "\x1bOC", tea.KeyPressMsg{Code: tea.KeyRight}, "\x1bOC")),
		app(ok("left", "\x1bOD", tea.KeyPressMsg{Code: tea.KeyLeft}, "\x1bOD")),
		ok("ctrl+left", "\x1b[1;5D", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, "\x1b[1;5D"),
		app(ok("ctrl+left", "\x1b[1;5D", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, "\x1b[1;5D")),
		ok("shift+up", "\x1b[1;2A", tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModShift}, "\x1b[1;2A"),
		ok("home", "\x1b[H", tea.KeyPressMsg{Code: tea.KeyHome}, "\x1b[H"),
		ok("end", "\x1b[F", tea.KeyPressMsg{Code: tea.KeyEnd}, "\x1b[F"),
		app(ok("home", "\x1bOH", tea.KeyPressMsg{Code: tea.KeyHome}, "\x1bOH")),
		app(ok("end", "\x1bOF", tea.KeyPressMsg{Code: tea.KeyEnd}, "\x1bOF")),
		ok("pgup", "\x1b[5~", tea.KeyPressMsg{Code: tea.KeyPgUp}, "\x1b[5~"),
		ok("pgdown", "\x1b[6~", tea.KeyPressMsg{Code: tea.KeyPgDown}, "\x1b[6~"),
		ok("ctrl+pgdown", "\x1b[6;5~", tea.KeyPressMsg{Code: tea.KeyPgDown, Mod: tea.ModCtrl}, "\x1b[6;5~"),
		ok("insert", "\x1b[2~", tea.KeyPressMsg{Code: tea.KeyInsert}, "\x1b[2~"),
		ok("delete", "\x1b[3~", tea.KeyPressMsg{Code: tea.KeyDelete}, "\x1b[3~"),
		ok("kitty keypad up", "\x1b[57419u", tea.KeyPressMsg{Code: tea.KeyKpUp}, "\x1b[A"),

		// Function keys.
		ok("f1", "\x1bOP", tea.KeyPressMsg{Code: tea.KeyF1}, "\x1bOP"),
		ok("f2", "\x1bOQ", tea.KeyPressMsg{Code: tea.KeyF2}, "\x1bOQ"),
		ok("f3", "\x1bOR", tea.KeyPressMsg{Code: tea.KeyF3}, "\x1bOR"),
		ok("f4", "\x1bOS", tea.KeyPressMsg{Code: tea.KeyF4}, "\x1bOS"),
		ok("f5", "\x1b[15~", tea.KeyPressMsg{Code: tea.KeyF5}, "\x1b[15~"),
		ok("f6", "\x1b[17~", tea.KeyPressMsg{Code: tea.KeyF6}, "\x1b[17~"),
		ok("f7", "\x1b[18~", tea.KeyPressMsg{Code: tea.KeyF7}, "\x1b[18~"),
		ok("f8", "\x1b[19~", tea.KeyPressMsg{Code: tea.KeyF8}, "\x1b[19~"),
		ok("f9", "\x1b[20~", tea.KeyPressMsg{Code: tea.KeyF9}, "\x1b[20~"),
		ok("f10", "\x1b[21~", tea.KeyPressMsg{Code: tea.KeyF10}, "\x1b[21~"),
		ok("f11", "\x1b[23~", tea.KeyPressMsg{Code: tea.KeyF11}, "\x1b[23~"),
		ok("f12", "\x1b[24~", tea.KeyPressMsg{Code: tea.KeyF12}, "\x1b[24~"),
		ok("shift+f1", "\x1b[1;2P", tea.KeyPressMsg{Code: tea.KeyF1, Mod: tea.ModShift}, "\x1b[1;2P"),
		ok("ctrl+f5", "\x1b[15;5~", tea.KeyPressMsg{Code: tea.KeyF5, Mod: tea.ModCtrl}, "\x1b[15;5~"),

		// Control and alt.
		ok("ctrl+c", "\x03", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, "\x03"),
		ok("ctrl+a", "\x01", tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}, "\x01"),
		ok("ctrl+h", "\x08", tea.KeyPressMsg{Code: 'h', Mod: tea.ModCtrl}, "\x08"),
		ok("ctrl+\\", "\x1c", tea.KeyPressMsg{Code: '\\', Mod: tea.ModCtrl}, "\x1c"),
		ok("ctrl+[ legacy", "\x1b", tea.KeyPressMsg{Code: tea.KeyEscape}, "\x1b"),
		ok("kitty ctrl+[", "\x1b[91;5u", tea.KeyPressMsg{Code: '[', Mod: tea.ModCtrl}, "\x1b"),
		ok("kitty ctrl+shift+a", "\x1b[97:65;6u", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModCtrl | tea.ModShift}, "\x01"),
		ok("kitty ctrl+c with caps lock", "\x1b[99;69u", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl | tea.ModCapsLock}, "\x03"),
		ok("ctrl+space", "\x00", tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}, "\x00"),
		ok("alt+x", "\x1bx", tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt}, "\x1bx"),
		ok("alt+é", "\x1bé", tea.KeyPressMsg{Code: 'é', Mod: tea.ModAlt}, "\x1bé"),
		ok("ctrl+alt+x", "\x1b\x18", tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl | tea.ModAlt}, "\x1b\x18"),
		ok("kitty alt+shift+1", "\x1b[49:33;4u", tea.KeyPressMsg{Code: '1', ShiftedCode: '!', Mod: tea.ModShift | tea.ModAlt}, "\x1b!"),
		ok("kitty alt+x", "\x1b[120;3u", tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt}, "\x1bx"),
		ok("alt+grapheme", "", tea.KeyPressMsg{Code: tea.KeyExtended, Text: "👍🏽", Mod: tea.ModAlt}, "\x1b👍🏽"),

		// Keys with no encoding.
		none("left shift", "\x1b[57441;2u", tea.KeyPressMsg{Code: tea.KeyLeftShift, Mod: tea.ModShift}),
		none("media play", "\x1b[57428u", tea.KeyPressMsg{Code: tea.KeyMediaPlay}),
		none("caps lock", "\x1b[57358u", tea.KeyPressMsg{Code: tea.KeyCapsLock}),
		none("f13", "\x1b[57376u", tea.KeyPressMsg{Code: tea.KeyF13}),
		none("ctrl+1", "\x1b[49;5u", tea.KeyPressMsg{Code: '1', Mod: tea.ModCtrl}),
		none("ctrl+tab", "\x1b[9;5u", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModCtrl}),
		none("ctrl+shift+enter", "\x1b[13;6u", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModCtrl | tea.ModShift}),
		none("super+a", "\x1b[97;9u", tea.KeyPressMsg{Code: 'a', Mod: tea.ModSuper}),
		none("ctrl+grapheme", "", tea.KeyPressMsg{Code: tea.KeyExtended, Text: "👍🏽", Mod: tea.ModCtrl}),
	}
}

// keyBytes is what a run whose app has modes m writes for the key typed: KeyItem's
// item, encoded as the run encodes it.
func keyBytes(msg tea.KeyPressMsg, m keys.Modes) ([]byte, bool) {
	it, ok := KeyItem(msg)
	if !ok {
		return nil, false
	}
	b, err := keys.EncodeItems([]keys.Item{it}, m)
	return b, err == nil
}

// pasteBytes is what a run whose app has modes m writes for the paste.
func pasteBytes(msg tea.PasteMsg, m keys.Modes) []byte {
	it, ok := PasteItem(msg)
	if !ok {
		return nil
	}
	b, _ := keys.EncodeItems([]keys.Item{it}, m)
	return b
}

func TestKeyBytes(t *testing.T) {
	for _, c := range keyCases() {
		t.Run(c.name, func(t *testing.T) {
			got, ok := keyBytes(c.msg, c.modes)
			if ok != c.wantOK || string(got) != c.want {
				t.Errorf("KeyBytes(%#v, %+v) = %q, %v; want %q, %v", c.msg, c.modes, got, ok, c.want, c.wantOK)
			}
			if !ok && got != nil {
				t.Errorf("KeyBytes returned bytes %q with false", got)
			}
		})
	}
}

// TestKeyCasesAsBubbleTeaDecodes checks that each case's message is what
// Bubble Tea delivers for the bytes the user's terminal sends.
func TestKeyCasesAsBubbleTeaDecodes(t *testing.T) {
	for _, c := range keyCases() {
		if c.in == "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var d uv.EventDecoder
			n, ev := d.Decode([]byte(c.in))
			if n != len(c.in) {
				t.Fatalf("decoded %d of %d bytes of %q into %#v", n, len(c.in), c.in, ev)
			}
			kev, ok := ev.(uv.KeyPressEvent)
			if !ok {
				t.Fatalf("%q decodes to %T %#v, not a key press", c.in, ev, ev)
			}
			if got := tea.KeyPressMsg(kev); !reflect.DeepEqual(got, c.msg) {
				t.Errorf("%q decodes to %#v; the case has %#v", c.in, got, c.msg)
			}
		})
	}
}

// TestKeyBytesLegacyRoundTrip: a key typed on an xterm-like terminal
// without keyboard enhancements reaches the app as the same bytes.
func TestKeyBytesLegacyRoundTrip(t *testing.T) {
	inputs := []string{
		"a", "Z", "~", "ü", "\r", "\t", "\x7f", "\x1b", "\x1b[Z", "\x00", "\x01", "\x03", "\x1a",
		"\x1c", "\x1d", "\x1e", "\x1f", "\x1bx", "\x1bX", "\x1b\r", "\x1b\x01",
		"\x1b[A", "\x1b[1;5D", "\x1b[1;3C", "\x1b[1;2B", "\x1b[1;7A", "\x1b[H", "\x1b[F", "\x1b[1;5H",
		"\x1b[2~", "\x1b[3~", "\x1b[3;5~", "\x1b[5~", "\x1b[6~", "\x1bOP", "\x1b[1;5S", "\x1b[24~", "\x1b[24;2~",
	}
	for _, in := range inputs {
		var d uv.EventDecoder
		n, ev := d.Decode([]byte(in))
		kev, isKey := ev.(uv.KeyPressEvent)
		if n != len(in) || !isKey {
			t.Fatalf("%q: decoded %d bytes into %#v", in, n, ev)
		}
		got, ok := keyBytes(tea.KeyPressMsg(kev), noModes)
		if !ok || string(got) != in {
			t.Errorf("%q (%s) → %q, %v; want it unchanged", in, tea.KeyPressMsg(kev), got, ok)
		}
	}
}

func TestPasteBytes(t *testing.T) {
	cases := []struct {
		name      string
		text      string
		bracketed bool
		want      string
	}{
		{"plain", "echo hi", false, "echo hi"},
		{"plain newlines are enter", "a\nb\r\nc", false, "a\rb\rc"},
		{"bracketed", "echo hi\n", true, "\x1b[200~echo hi\n\x1b[201~"},
		{"bracketed end marker removed", "a\x1b[201~rm -rf ~\n", true, "\x1b[200~arm -rf ~\n\x1b[201~"},
		{"plain end marker kept", "a\x1b[201~b", false, "a\x1b[201~b"},
		{"empty", "", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pasteBytes(tea.PasteMsg{Content: c.text}, keys.Modes{BracketedPaste: c.bracketed})
			if string(got) != c.want {
				t.Errorf("PasteBytes(%q, bracketed=%v) = %q; want %q", c.text, c.bracketed, got, c.want)
			}
			if c.bracketed && bytes.Count(got, []byte("\x1b[201~")) > 1 {
				t.Errorf("more than one end marker in %q", got)
			}
		})
	}
}

// MouseBytes is what a run whose app has st's mouse modes is sent for msg at (x, y):
// the UI's item, encoded there.
func MouseBytes(msg tea.MouseMsg, x, y int, st screen.ScreenState) ([]byte, bool) {
	it, ok := MouseItem(msg, x, y)
	if !ok {
		return nil, false
	}
	b, err := keys.EncodeItems([]keys.Item{it}, keys.Modes{Mouse: st.MouseMode, MouseSGR: st.MouseSGR})
	return b, err == nil && len(b) > 0
}

func TestMouseBytes(t *testing.T) {
	sgr := func(mode int) screen.ScreenState { return screen.ScreenState{MouseMode: mode, MouseSGR: true} }
	legacy := func(mode int) screen.ScreenState { return screen.ScreenState{MouseMode: mode} }
	left := tea.Mouse{Button: tea.MouseLeft}
	noButton := tea.Mouse{}
	// Bubble Tea puts the position in the real terminal into X/Y; MouseBytes
	// must use the pane-relative x, y it is given instead.
	far := tea.Mouse{X: 100, Y: 50, Button: tea.MouseLeft}

	cases := []struct {
		name   string
		msg    tea.MouseMsg
		x, y   int
		st     screen.ScreenState
		want   string
		wantOK bool
	}{
		// SGR.
		{"sgr press", tea.MouseClickMsg(far), 0, 0, sgr(1000), "\x1b[<0;1;1M", true},
		{"sgr press middle", tea.MouseClickMsg{Button: tea.MouseMiddle}, 9, 4, sgr(1000), "\x1b[<1;10;5M", true},
		{"sgr press right", tea.MouseClickMsg{Button: tea.MouseRight}, 9, 4, sgr(1000), "\x1b[<2;10;5M", true},
		{"sgr release", tea.MouseReleaseMsg(left), 4, 2, sgr(1000), "\x1b[<0;5;3m", true},
		{"sgr release right", tea.MouseReleaseMsg{Button: tea.MouseRight}, 4, 2, sgr(1000), "\x1b[<2;5;3m", true},
		{"sgr release unknown button", tea.MouseReleaseMsg(noButton), 4, 2, sgr(1000), "\x1b[<3;5;3m", true},
		{"sgr wheel up", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, 3, 7, sgr(1000), "\x1b[<64;4;8M", true},
		{"sgr wheel down", tea.MouseWheelMsg{Button: tea.MouseWheelDown}, 3, 7, sgr(1002), "\x1b[<65;4;8M", true},
		{"sgr wheel right", tea.MouseWheelMsg{Button: tea.MouseWheelRight}, 3, 7, sgr(1003), "\x1b[<67;4;8M", true},
		{"sgr button 8", tea.MouseClickMsg{Button: tea.MouseBackward}, 0, 0, sgr(1000), "\x1b[<128;1;1M", true},
		{"sgr large coordinates", tea.MouseClickMsg(left), 499, 300, sgr(1000), "\x1b[<0;500;301M", true},
		{"sgr drag 1002", tea.MouseMotionMsg(left), 5, 5, sgr(1002), "\x1b[<32;6;6M", true},
		{"sgr drag 1003", tea.MouseMotionMsg(left), 5, 5, sgr(1003), "\x1b[<32;6;6M", true},
		{"sgr hover 1003", tea.MouseMotionMsg(noButton), 5, 5, sgr(1003), "\x1b[<35;6;6M", true},
		{"sgr hover 1002 not asked", tea.MouseMotionMsg(noButton), 5, 5, sgr(1002), "", false},
		{"sgr drag 1000 not asked", tea.MouseMotionMsg(left), 5, 5, sgr(1000), "", false},

		// Modifiers.
		{"shift", tea.MouseClickMsg{Button: tea.MouseLeft, Mod: tea.ModShift}, 0, 0, sgr(1000), "\x1b[<4;1;1M", true},
		{"alt", tea.MouseClickMsg{Button: tea.MouseRight, Mod: tea.ModAlt}, 0, 0, sgr(1000), "\x1b[<10;1;1M", true},
		{"ctrl", tea.MouseClickMsg{Button: tea.MouseLeft, Mod: tea.ModCtrl}, 0, 0, sgr(1000), "\x1b[<16;1;1M", true},
		{"ctrl+shift wheel", tea.MouseWheelMsg{Button: tea.MouseWheelDown, Mod: tea.ModCtrl | tea.ModShift}, 0, 0, sgr(1000), "\x1b[<85;1;1M", true},
		{"alt drag", tea.MouseMotionMsg{Button: tea.MouseLeft, Mod: tea.ModAlt}, 0, 0, sgr(1002), "\x1b[<40;1;1M", true},
		{"ctrl release legacy", tea.MouseReleaseMsg{Button: tea.MouseLeft, Mod: tea.ModCtrl}, 0, 0, legacy(1000), "\x1b[M3!!", true},
		{"caps lock ignored", tea.MouseClickMsg{Button: tea.MouseLeft, Mod: tea.ModCapsLock}, 0, 0, sgr(1000), "\x1b[<0;1;1M", true},

		// Legacy.
		{"legacy press", tea.MouseClickMsg(far), 0, 0, legacy(1000), "\x1b[M !!", true},
		{"legacy press right", tea.MouseClickMsg{Button: tea.MouseRight}, 1, 2, legacy(1000), "\x1b[M\"\"#", true},
		{"legacy release", tea.MouseReleaseMsg(left), 0, 0, legacy(1000), "\x1b[M#!!", true},
		{"legacy release unknown button", tea.MouseReleaseMsg(noButton), 0, 0, legacy(1002), "\x1b[M#!!", true},
		{"legacy wheel up", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, 1, 2, legacy(1000), "\x1b[M`\"#", true},
		{"legacy wheel down", tea.MouseWheelMsg{Button: tea.MouseWheelDown}, 1, 2, legacy(1000), "\x1b[Ma\"#", true},
		{"legacy drag", tea.MouseMotionMsg(left), 0, 0, legacy(1002), "\x1b[M@!!", true},
		{"legacy hover", tea.MouseMotionMsg(noButton), 0, 0, legacy(1003), "\x1b[MC!!", true},
		{"legacy max coordinate", tea.MouseClickMsg(left), 222, 222, legacy(1000), "\x1b[M \xff\xff", true},
		{"legacy x out of range", tea.MouseClickMsg(left), 223, 0, legacy(1000), "", false},
		{"legacy y out of range", tea.MouseClickMsg(left), 0, 223, legacy(1000), "", false},

		// Mode 9 (X10): presses only, no modifiers.
		{"x10 press", tea.MouseClickMsg(left), 0, 0, legacy(9), "\x1b[M !!", true},
		{"x10 press drops modifiers", tea.MouseClickMsg{Button: tea.MouseLeft, Mod: tea.ModCtrl}, 0, 0, legacy(9), "\x1b[M !!", true},
		{"x10 wheel", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, 0, 0, legacy(9), "\x1b[M`!!", true},
		{"x10 release ignored", tea.MouseReleaseMsg(left), 0, 0, legacy(9), "", false},
		{"x10 sgr release ignored", tea.MouseReleaseMsg(left), 0, 0, sgr(9), "", false},
		{"x10 drag ignored", tea.MouseMotionMsg(left), 0, 0, legacy(9), "", false},

		// Not reported.
		{"mouse off", tea.MouseClickMsg(left), 0, 0, sgr(0), "", false},
		{"unknown mode", tea.MouseClickMsg(left), 0, 0, sgr(1001), "", false},
		{"negative x", tea.MouseClickMsg(left), -1, 0, sgr(1003), "", false},
		{"negative y", tea.MouseClickMsg(left), 0, -1, legacy(1003), "", false},
		{"press of no button", tea.MouseClickMsg(noButton), 0, 0, sgr(1003), "", false},
		{"wheel release", tea.MouseReleaseMsg{Button: tea.MouseWheelUp}, 0, 0, sgr(1003), "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := MouseBytes(c.msg, c.x, c.y, c.st)
			if ok != c.wantOK || string(got) != c.want {
				t.Errorf("MouseBytes(%T%+v, %d, %d, mode %d sgr %v) = %q, %v; want %q, %v",
					c.msg, c.msg.Mouse(), c.x, c.y, c.st.MouseMode, c.st.MouseSGR, got, ok, c.want, c.wantOK)
			}
		})
	}
}

// TestMouseBytesAsTerminalSends: encoding an event Bubble Tea decoded from a
// terminal's report gives that report back (the pane at the screen origin).
func TestMouseBytesAsTerminalSends(t *testing.T) {
	for _, c := range []struct {
		in string
		st screen.ScreenState
	}{
		{"\x1b[<0;3;4M", screen.ScreenState{MouseMode: 1000, MouseSGR: true}},
		{"\x1b[<0;3;4m", screen.ScreenState{MouseMode: 1000, MouseSGR: true}},
		{"\x1b[<18;3;4M", screen.ScreenState{MouseMode: 1000, MouseSGR: true}},
		{"\x1b[<65;3;4M", screen.ScreenState{MouseMode: 1000, MouseSGR: true}},
		{"\x1b[<32;3;4M", screen.ScreenState{MouseMode: 1002, MouseSGR: true}},
		{"\x1b[<35;3;4M", screen.ScreenState{MouseMode: 1003, MouseSGR: true}},
		{"\x1b[M !!", screen.ScreenState{MouseMode: 1000}},
		{"\x1b[M#!!", screen.ScreenState{MouseMode: 1000}},
		{"\x1b[M4%&", screen.ScreenState{MouseMode: 1000}},
		{"\x1b[Ma!!", screen.ScreenState{MouseMode: 1000}},
		{"\x1b[MC!!", screen.ScreenState{MouseMode: 1003}},
	} {
		t.Run(fmt.Sprintf("%q", c.in), func(t *testing.T) {
			var d uv.EventDecoder
			n, ev := d.Decode([]byte(c.in))
			var msg tea.MouseMsg
			switch ev := ev.(type) {
			case uv.MouseClickEvent:
				msg = tea.MouseClickMsg(ev)
			case uv.MouseReleaseEvent:
				msg = tea.MouseReleaseMsg(ev)
			case uv.MouseWheelEvent:
				msg = tea.MouseWheelMsg(ev)
			case uv.MouseMotionEvent:
				msg = tea.MouseMotionMsg(ev)
			}
			if n != len(c.in) || msg == nil {
				t.Fatalf("decoded %d of %d bytes into %#v", n, len(c.in), ev)
			}
			m := msg.Mouse()
			got, ok := MouseBytes(msg, m.X, m.Y, c.st)
			if !ok || string(got) != c.in {
				t.Errorf("%T%+v → %q, %v; want %q", msg, m, got, ok, c.in)
			}
		})
	}
}
