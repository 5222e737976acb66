package ui

import (
	"fmt"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost"
	"corral/ptyhost/screen"
)

// Input translation for focus mode: Bubble Tea's decoded key, paste and mouse
// messages become what an xterm would have sent to the hosted app. Keys and pastes
// become input items, encoded at the run with the modes its app has when they arrive
// (issue 21: a frame here may be older than a mode switch); mouse reports are bytes,
// encoded here for the pane's cells with the mouse modes its screen shows.

// lockMods are key lock states; they never change the bytes of a key (caps
// lock is already applied to Key.Text).
const lockMods = tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock

// namedKeys maps Bubble Tea's codes for non-character keys to ptyhost's.
// Keypad navigation keys (kitty protocol, num lock off) send what their main
// keyboard twins send.
var namedKeys = map[rune]ptyhost.KeyCode{
	tea.KeyEnter: ptyhost.KeyEnter, tea.KeyKpEnter: ptyhost.KeyEnter,
	tea.KeyTab:       ptyhost.KeyTab,
	tea.KeyBackspace: ptyhost.KeyBackspace,
	tea.KeyEscape:    ptyhost.KeyEscape,
	tea.KeySpace:     ptyhost.KeySpace,
	tea.KeyUp:        ptyhost.KeyUp, tea.KeyKpUp: ptyhost.KeyUp,
	tea.KeyDown: ptyhost.KeyDown, tea.KeyKpDown: ptyhost.KeyDown,
	tea.KeyRight: ptyhost.KeyRight, tea.KeyKpRight: ptyhost.KeyRight,
	tea.KeyLeft: ptyhost.KeyLeft, tea.KeyKpLeft: ptyhost.KeyLeft,
	tea.KeyHome: ptyhost.KeyHome, tea.KeyKpHome: ptyhost.KeyHome,
	tea.KeyEnd: ptyhost.KeyEnd, tea.KeyKpEnd: ptyhost.KeyEnd,
	tea.KeyInsert: ptyhost.KeyInsert, tea.KeyKpInsert: ptyhost.KeyInsert,
	tea.KeyDelete: ptyhost.KeyDelete, tea.KeyKpDelete: ptyhost.KeyDelete,
	tea.KeyPgUp: ptyhost.KeyPgUp, tea.KeyKpPgUp: ptyhost.KeyPgUp,
	tea.KeyPgDown: ptyhost.KeyPgDown, tea.KeyKpPgDown: ptyhost.KeyPgDown,
	tea.KeyF1: ptyhost.KeyF1, tea.KeyF2: ptyhost.KeyF2, tea.KeyF3: ptyhost.KeyF3,
	tea.KeyF4: ptyhost.KeyF4, tea.KeyF5: ptyhost.KeyF5, tea.KeyF6: ptyhost.KeyF6,
	tea.KeyF7: ptyhost.KeyF7, tea.KeyF8: ptyhost.KeyF8, tea.KeyF9: ptyhost.KeyF9,
	tea.KeyF10: ptyhost.KeyF10, tea.KeyF11: ptyhost.KeyF11, tea.KeyF12: ptyhost.KeyF12,
}

// keypadRunes maps the keypad's character keys (reported as their own codes
// under the kitty protocol or in application keypad mode) to the characters
// they type.
var keypadRunes = map[rune]rune{
	tea.KeyKp0: '0', tea.KeyKp1: '1', tea.KeyKp2: '2', tea.KeyKp3: '3', tea.KeyKp4: '4',
	tea.KeyKp5: '5', tea.KeyKp6: '6', tea.KeyKp7: '7', tea.KeyKp8: '8', tea.KeyKp9: '9',
	tea.KeyKpEqual: '=', tea.KeyKpMultiply: '*', tea.KeyKpPlus: '+', tea.KeyKpComma: ',',
	tea.KeyKpMinus: '-', tea.KeyKpDecimal: '.', tea.KeyKpDivide: '/', tea.KeyKpSep: ',',
}

// KeyItem translates a key press into the input item that types it. The item is
// encoded at the run (runs.Supervisor.SendKeys, ptyhost.EncodeItems) with the modes
// its app has set by then, never with the modes of a frame this UI drew: named keys
// and modified keys are keys for ptyhost.EncodeKey, so the UI and send-keys share
// one encoder (alt+key is an ESC prefix, ctrl+letter is letter & 0x1f, arrows honour
// app cursor mode, and so on). Printable text (msg.Text non-empty, no ctrl or alt) is
// text, which covers shifted characters, caps lock, keyboard layouts and multi-rune
// graphemes.
//
// shift+enter, which agent TUIs (Claude Code, codex) take as "newline", has
// no legacy encoding: a bare CR would submit instead. It is sent as alt+enter
// (ESC CR), which those agents accept as newline too (research vt.md §5.4).
//
// It returns false for keys with no encoding, which the caller then ignores:
// bare modifier presses, media and lock keys, F13 and up, and combinations a
// legacy terminal cannot express (ctrl+1, ctrl+tab, super+x, …).
func KeyItem(msg tea.KeyPressMsg) (ptyhost.Item, bool) {
	mod := msg.Mod &^ lockMods
	if mod&^(tea.ModShift|tea.ModAlt|tea.ModCtrl) != 0 {
		return ptyhost.Item{}, false // meta, hyper, super: not expressible without kitty's protocol
	}
	_, named := namedKeys[msg.Code]
	if msg.Text != "" && !named && mod&^tea.ModShift == 0 {
		return textItem(msg.Text), true
	}
	if msg.Code == tea.KeyExtended {
		// A multi-rune grapheme (emoji with modifiers, combining marks): only
		// alt can be added to it.
		if msg.Text == "" || mod&^tea.ModShift != tea.ModAlt {
			return ptyhost.Item{}, false
		}
		return textItem("\x1b" + msg.Text), true
	}
	k, ok := ptyKey(msg, mod)
	if !ok {
		return ptyhost.Item{}, false
	}
	// Whether a key has an encoding does not depend on the modes.
	if _, err := ptyhost.EncodeKey(k, ptyhost.Modes{}); err != nil {
		return ptyhost.Item{}, false
	}
	return ptyhost.Item{Key: k}, true
}

func textItem(s string) ptyhost.Item { return ptyhost.Item{Text: s, IsText: true} }

// ptyKey converts a Bubble Tea key with modifiers mod (shift, alt and ctrl
// only) to a ptyhost.Key.
func ptyKey(msg tea.KeyPressMsg, mod tea.KeyMod) (ptyhost.Key, bool) {
	var k ptyhost.Key
	if code, ok := namedKeys[msg.Code]; ok {
		k.Code = code
		if code == ptyhost.KeyEnter && mod&tea.ModShift != 0 {
			// shift+enter → alt+enter (ESC CR): see KeyBytes.
			mod = mod&^tea.ModShift | tea.ModAlt
		}
	} else {
		r, ok := keypadRunes[msg.Code]
		if !ok {
			r = msg.Code
		}
		if !isCharacter(r) {
			return k, false // modifier keys, media keys, F13+, control codes
		}
		if mod&tea.ModShift != 0 && isCharacter(msg.ShiftedCode) {
			// The kitty protocol says what shift makes of the key
			// (shift+1 = '!'); EncodeKey can only upper-case.
			r = msg.ShiftedCode
			mod &^= tea.ModShift
		}
		k.Code, k.Rune = ptyhost.KeyRune, r
	}
	if mod&tea.ModShift != 0 {
		k.Mod |= ptyhost.ModShift
	}
	if mod&tea.ModAlt != 0 {
		k.Mod |= ptyhost.ModAlt
	}
	if mod&tea.ModCtrl != 0 {
		k.Mod |= ptyhost.ModCtrl
	}
	return k, true
}

// isCharacter reports whether r is a character a key can type: a valid
// rune, not a C0 or C1 control, and not one of Bubble Tea's special key
// codes (which lie above unicode.MaxRune).
func isCharacter(r rune) bool {
	return r > 0x1f && r != 0x7f && r <= unicode.MaxRune && !unicode.IsControl(r)
}

// PasteItem is the item that pastes msg's text into the app, encoded at the run
// (ptyhost.EncodePaste): wrapped in bracketed-paste markers, with any marker inside
// the text removed, when the app enabled mode 2004 by then, else the text with
// newlines sent as Enter (CR). An empty paste is no item.
func PasteItem(msg tea.PasteMsg) (ptyhost.Item, bool) {
	return ptyhost.Item{Text: msg.Content, Paste: true}, msg.Content != ""
}

// dataItem is input already encoded here (mouse and focus reports).
func dataItem(b []byte) ptyhost.Item { return ptyhost.Item{Data: b} }

// xterm mouse button codes: the low bits name the button, the rest are flags.
const (
	mouseCodeRelease = 3 // legacy release (button unknown); also "no button" in motion
	mouseFlagShift   = 4
	mouseFlagAlt     = 8
	mouseFlagCtrl    = 16
	mouseFlagMotion  = 32
	mouseLegacyMax   = 222 // largest 0-based coordinate the legacy form can carry: 222+33 = 255
)

// mouseButtonCodes are xterm's codes for the buttons: 0–2 the main buttons,
// 64–67 the wheel, 128–131 buttons 8–11.
var mouseButtonCodes = map[tea.MouseButton]int{
	tea.MouseLeft: 0, tea.MouseMiddle: 1, tea.MouseRight: 2,
	tea.MouseWheelUp: 64, tea.MouseWheelDown: 65, tea.MouseWheelLeft: 66, tea.MouseWheelRight: 67,
	tea.MouseBackward: 128, tea.MouseForward: 129, tea.MouseButton10: 130, tea.MouseButton11: 131,
}

// isWheel reports whether b is a wheel "button", which has presses only.
func isWheel(b tea.MouseButton) bool {
	switch b {
	case tea.MouseWheelUp, tea.MouseWheelDown, tea.MouseWheelLeft, tea.MouseWheelRight:
		return true
	}
	return false
}

// MouseBytes encodes a mouse event at pane-relative cell (x, y), 0-based, for
// an app that asked for mouse reporting (st.MouseMode != 0), as xterm does:
// SGR (CSI < b ; x+1 ; y+1 M, or m for a release) when st.MouseSGR, else the
// legacy form CSI M b+32 x+33 y+33, which cannot carry a coordinate above 222.
//
// b is xterm's button code (0 left, 1 middle, 2 right, 64–67 wheel, 128–131
// buttons 8–11; 3 for a legacy release and for motion without a button), plus
// 32 for motion and 4/8/16 for shift/alt/ctrl. Mode 9 (X10) reports presses
// only and, like xterm, without modifiers; 1000 adds releases (wheel events
// are presses); 1002 adds motion while a button is held; 1003 all motion.
//
// It returns false when the app did not ask for this kind of event, when x or
// y is negative (outside the pane) or does not fit the legacy form, and for
// events with no encoding (a press of no button, a wheel release).
func MouseBytes(msg tea.MouseMsg, x, y int, st screen.ScreenState) ([]byte, bool) {
	if x < 0 || y < 0 {
		return nil, false
	}
	ev := msg.Mouse()
	var release, motion bool
	switch msg.(type) {
	case tea.MouseClickMsg, tea.MouseWheelMsg:
	case tea.MouseReleaseMsg:
		release = true
	case tea.MouseMotionMsg:
		motion = true
	default:
		return nil, false
	}
	if !mouseModeReports(st.MouseMode, release, motion, ev.Button) {
		return nil, false
	}

	code, known := mouseButtonCodes[ev.Button]
	switch {
	case ev.Button == tea.MouseNone && (release || motion):
		code = mouseCodeRelease
	case !known, release && isWheel(ev.Button):
		return nil, false
	}
	if release && !st.MouseSGR {
		code = mouseCodeRelease // the legacy form cannot say which button went up
	}
	if motion {
		code += mouseFlagMotion
	}
	if st.MouseMode != 9 {
		code += mouseModFlags(ev.Mod)
	}

	if st.MouseSGR {
		final := 'M'
		if release {
			final = 'm'
		}
		return fmt.Appendf(nil, "\x1b[<%d;%d;%d%c", code, x+1, y+1, final), true
	}
	if x > mouseLegacyMax || y > mouseLegacyMax {
		return nil, false
	}
	return []byte{0x1b, '[', 'M', byte(code + 32), byte(x + 33), byte(y + 33)}, true
}

// mouseModeReports reports whether xterm mouse mode mode sends an event of
// this kind.
func mouseModeReports(mode int, release, motion bool, button tea.MouseButton) bool {
	switch mode {
	case 9:
		return !release && !motion
	case 1000:
		return !motion
	case 1002:
		return !motion || button != tea.MouseNone
	case 1003:
		return true
	}
	return false
}

func mouseModFlags(mod tea.KeyMod) int {
	var f int
	if mod&tea.ModShift != 0 {
		f += mouseFlagShift
	}
	if mod&tea.ModAlt != 0 {
		f += mouseFlagAlt
	}
	if mod&tea.ModCtrl != 0 {
		f += mouseFlagCtrl
	}
	return f
}
