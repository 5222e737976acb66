package ui

import (
	"unicode"

	"corral/ptyhost/keys"

	tea "charm.land/bubbletea/v2"
)

// Input translation for focus mode: Bubble Tea's decoded key, paste and mouse
// messages become what an xterm would have sent to the hosted app. Keys and pastes
// become input items, encoded at the run with the modes its app has when they arrive
// (a frame here may be older than a mode switch); mouse reports are bytes,
// encoded here for the pane's cells with the mouse modes its screen shows.

// lockMods are key lock states; they never change the bytes of a key (caps
// lock is already applied to Key.Text).
const lockMods = tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock

// namedKeys maps Bubble Tea's codes for non-character keys to package keys'.
// Keypad navigation keys (kitty protocol, num lock off) send what their main
// keyboard twins send.
var namedKeys = map[rune]keys.KeyCode{
	tea.KeyEnter: keys.KeyEnter, tea.KeyKpEnter: keys.KeyEnter,
	tea.KeyTab:       keys.KeyTab,
	tea.KeyBackspace: keys.KeyBackspace,
	tea.KeyEscape:    keys.KeyEscape,
	tea.KeySpace:     keys.KeySpace,
	tea.KeyUp:        keys.KeyUp, tea.KeyKpUp: keys.KeyUp,
	tea.KeyDown: keys.KeyDown, tea.KeyKpDown: keys.KeyDown,
	tea.KeyRight: keys.KeyRight, tea.KeyKpRight: keys.KeyRight,
	tea.KeyLeft: keys.KeyLeft, tea.KeyKpLeft: keys.KeyLeft,
	tea.KeyHome: keys.KeyHome, tea.KeyKpHome: keys.KeyHome,
	tea.KeyEnd: keys.KeyEnd, tea.KeyKpEnd: keys.KeyEnd,
	tea.KeyInsert: keys.KeyInsert, tea.KeyKpInsert: keys.KeyInsert,
	tea.KeyDelete: keys.KeyDelete, tea.KeyKpDelete: keys.KeyDelete,
	tea.KeyPgUp: keys.KeyPgUp, tea.KeyKpPgUp: keys.KeyPgUp,
	tea.KeyPgDown: keys.KeyPgDown, tea.KeyKpPgDown: keys.KeyPgDown,
	tea.KeyF1: keys.KeyF1, tea.KeyF2: keys.KeyF2, tea.KeyF3: keys.KeyF3,
	tea.KeyF4: keys.KeyF4, tea.KeyF5: keys.KeyF5, tea.KeyF6: keys.KeyF6,
	tea.KeyF7: keys.KeyF7, tea.KeyF8: keys.KeyF8, tea.KeyF9: keys.KeyF9,
	tea.KeyF10: keys.KeyF10, tea.KeyF11: keys.KeyF11, tea.KeyF12: keys.KeyF12,
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
// encoded at the run (runs.Supervisor.SendKeys, keys.EncodeItems) with the modes
// its app has set by then, never with the modes of a frame this UI drew: named keys
// and modified keys are keys for keys.EncodeKey, so the UI and send-keys share
// one encoder (alt+key is an ESC prefix, ctrl+letter is letter & 0x1f, arrows honour
// app cursor mode, and so on). Printable text (msg.Text non-empty, no ctrl or alt) is
// text, which covers shifted characters, caps lock, keyboard layouts and multi-rune
// graphemes.
//
// shift+enter, which agent TUIs (Claude Code, codex) take as "newline", has
// no legacy encoding: a bare CR would submit instead. It is sent as alt+enter
// (ESC CR), which those agents accept as newline too.
//
// It returns false for keys with no encoding, which the caller then ignores:
// bare modifier presses, media and lock keys, F13 and up, and combinations a
// legacy terminal cannot express (ctrl+1, ctrl+tab, super+x, …).
func KeyItem(msg tea.KeyPressMsg) (keys.Item, bool) {
	mod := msg.Mod &^ lockMods
	if mod&^(tea.ModShift|tea.ModAlt|tea.ModCtrl) != 0 {
		return keys.Item{}, false // meta, hyper, super: not expressible without kitty's protocol
	}
	_, named := namedKeys[msg.Code]
	if msg.Text != "" && !named && mod&^tea.ModShift == 0 {
		return textItem(msg.Text), true
	}
	if msg.Code == tea.KeyExtended {
		// A multi-rune grapheme (emoji with modifiers, combining marks): only
		// alt can be added to it.
		if msg.Text == "" || mod&^tea.ModShift != tea.ModAlt {
			return keys.Item{}, false
		}
		return textItem("\x1b" + msg.Text), true
	}
	k, ok := ptyKey(msg, mod)
	if !ok {
		return keys.Item{}, false
	}
	// Whether a key has an encoding does not depend on the modes.
	if _, err := keys.EncodeKey(k, keys.Modes{}); err != nil {
		return keys.Item{}, false
	}
	return keys.Item{Key: k}, true
}

func textItem(s string) keys.Item { return keys.Item{Text: s, IsText: true} }

// ptyKey converts a Bubble Tea key with modifiers mod (shift, alt and ctrl
// only) to a keys.Key.
func ptyKey(msg tea.KeyPressMsg, mod tea.KeyMod) (keys.Key, bool) {
	var k keys.Key
	if code, ok := namedKeys[msg.Code]; ok {
		k.Code = code
		if code == keys.KeyEnter && mod&tea.ModShift != 0 {
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
		k.Code, k.Rune = keys.KeyRune, r
	}
	if mod&tea.ModShift != 0 {
		k.Mod |= keys.ModShift
	}
	if mod&tea.ModAlt != 0 {
		k.Mod |= keys.ModAlt
	}
	if mod&tea.ModCtrl != 0 {
		k.Mod |= keys.ModCtrl
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
// (keys.EncodePaste): wrapped in bracketed-paste markers, with any marker inside
// the text removed, when the app enabled mode 2004 by then, else the text with
// newlines sent as Enter (CR). An empty paste is no item.
func PasteItem(msg tea.PasteMsg) (keys.Item, bool) {
	return keys.Item{Text: msg.Content, Paste: true}, msg.Content != ""
}

// dataItem is input already encoded here (focus reports).
func dataItem(b []byte) keys.Item { return keys.Item{Data: b} }

// mouseButtonCodes are xterm's codes for Bubble Tea's buttons: 0–2 the main
// buttons, 64–67 the wheel, 128–131 buttons 8–11.
var mouseButtonCodes = map[tea.MouseButton]int{
	tea.MouseNone: keys.MouseNone, tea.MouseLeft: 0, tea.MouseMiddle: 1, tea.MouseRight: 2,
	tea.MouseWheelUp: 64, tea.MouseWheelDown: 65, tea.MouseWheelLeft: 66, tea.MouseWheelRight: 67,
	tea.MouseBackward: 128, tea.MouseForward: 129, tea.MouseButton10: 130, tea.MouseButton11: 131,
}

// MouseItem is a mouse event at pane-relative cell (x, y), 0-based, as an item for a
// run: encoded there with its app's mouse modes (keys.EncodeMouse), as a key is.
// It reports false for an event Bubble Tea gave no kind or button xterm has a code
// for.
func MouseItem(msg tea.MouseMsg, x, y int) (keys.Item, bool) {
	ev := msg.Mouse()
	var kind keys.MouseKind
	switch msg.(type) {
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		kind = keys.MousePress
	case tea.MouseReleaseMsg:
		kind = keys.MouseRelease
	case tea.MouseMotionMsg:
		kind = keys.MouseMotion
	default:
		return keys.Item{}, false
	}
	button, known := mouseButtonCodes[ev.Button]
	if !known {
		return keys.Item{}, false
	}
	return keys.Item{Mouse: &keys.Mouse{Kind: kind, Button: button, X: x, Y: y,
		Shift: ev.Mod&tea.ModShift != 0, Alt: ev.Mod&tea.ModAlt != 0, Ctrl: ev.Mod&tea.ModCtrl != 0}}, true
}
