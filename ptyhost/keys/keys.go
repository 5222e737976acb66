package keys

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mod is a set of key modifiers. The bit values are xterm's modifier weights,
// so the parameter of a modified key ("ESC [ 1 ; m A") is simply 1 + Mod.
type Mod uint8

const (
	ModShift Mod = 1 << iota
	ModAlt
	ModCtrl
)

// modAll is every modifier EncodeKey knows how to express.
const modAll = ModShift | ModAlt | ModCtrl

// KeyCode names a key on the keyboard; printable characters are KeyRune.
type KeyCode int

const (
	KeyRune KeyCode = iota // Key.Rune holds the character
	KeyEnter
	KeyTab
	KeyBackspace
	KeyEscape
	KeySpace
	KeyUp
	KeyDown
	KeyRight
	KeyLeft
	KeyHome
	KeyEnd
	KeyInsert
	KeyDelete
	KeyPgUp
	KeyPgDown
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
)

// Key is one key press to send to a run.
type Key struct {
	Code KeyCode `json:"code"`
	Rune rune    `json:"rune"` // for KeyRune
	Mod  Mod     `json:"mod"`
}

// Modes are the terminal modes of the hosted app that change encoding
// (tracked by the screen emulator elsewhere).
type Modes struct {
	AppCursor      bool `json:"app_cursor"`      // DECCKM: arrows as ESC O A..D
	BracketedPaste bool `json:"bracketed_paste"` // mode 2004
	// Mouse is the xterm mouse mode last enabled (9, 1000, 1002 or 1003; 0: off),
	// MouseSGR mode 1006: how a mouse event is reported (EncodeMouse).
	Mouse    int  `json:"mouse,omitempty"`
	MouseSGR bool `json:"mouse_sgr,omitempty"`
}

const escByte = 0x1b

// EncodeKey returns the bytes an xterm sends for k while the hosted app has
// modes m:
//   - arrows ESC[A..D, or ESC O A..D in app cursor mode; with modifiers
//     ESC[1;mX where m = 1 + shift(1) + alt(2) + ctrl(4);
//   - Home/End ESC[H/ESC[F (ESC O H/F in app cursor mode), ESC[1;mH modified;
//   - Insert/Delete/PgUp/PgDn ESC[2~ 3~ 5~ 6~, ESC[n;m~ modified;
//   - F1–F4 ESC O P..S (ESC[1;mP.. modified), F5–F12 ESC[15~ 17 18 19 20 21
//     23 24 ~ (ESC[n;m~ modified);
//   - ctrl+letter = letter & 0x1f, also ctrl+@ [ \ ] ^ _ /, ctrl+space = 0x00,
//     ctrl+? = 0x7f; shift upper-cases a rune;
//   - alt is an ESC prefix on everything but the CSI keys above;
//   - Enter "\r"; Backspace 0x7f (ctrl+backspace 0x08); Tab "\t", shift+tab
//     ESC[Z; Escape 0x1b; Space " ". Runes are UTF-8 encoded.
//
// A combination a legacy terminal cannot express (ctrl+1, ctrl+tab,
// shift+enter, …) is ErrUnencodable rather than a guess: dropping the modifier
// would silently change what the app sees (shift+enter is "newline" to agent
// TUIs, a bare "\r" submits).
func EncodeKey(k Key, m Modes) ([]byte, error) {
	if k.Mod&^modAll != 0 {
		return nil, unencodable(k)
	}
	if ck, ok := csiKeyOf(k.Code); ok {
		return ck.encode(k.Mod, m.AppCursor), nil
	}
	b, ok := legacyBytes(k.Code, k.Rune, k.Mod&^ModAlt)
	if !ok {
		return nil, unencodable(k)
	}
	if k.Mod&ModAlt != 0 {
		b = append([]byte{escByte}, b...)
	}
	return b, nil
}

func unencodable(k Key) error {
	return fmt.Errorf("key %s: %w", k, ErrUnencodable)
}

// ss3Rule says when an unmodified key is sent as SS3 (ESC O x) instead of
// CSI (ESC [ x).
type ss3Rule uint8

const (
	ss3Never       ss3Rule = iota
	ss3InAppCursor         // arrows, Home, End: switched by DECCKM
	ss3Always              // F1–F4
)

// csiKey describes a key sent as a CSI or SS3 sequence. Modifiers always
// select the CSI form with the modifier as second parameter.
type csiKey struct {
	final byte // 'A'.., or '~' for the "ESC [ num ~" keys
	num   int  // first parameter of the '~' keys
	ss3   ss3Rule
}

func csiKeyOf(c KeyCode) (csiKey, bool) {
	switch c {
	case KeyUp, KeyDown, KeyRight, KeyLeft:
		return csiKey{final: "ABCD"[c-KeyUp], ss3: ss3InAppCursor}, true
	case KeyHome, KeyEnd:
		return csiKey{final: "HF"[c-KeyHome], ss3: ss3InAppCursor}, true
	case KeyF1, KeyF2, KeyF3, KeyF4:
		return csiKey{final: "PQRS"[c-KeyF1], ss3: ss3Always}, true
	case KeyInsert, KeyDelete, KeyPgUp, KeyPgDown:
		return csiKey{final: '~', num: [...]int{2, 3, 5, 6}[c-KeyInsert]}, true
	case KeyF5, KeyF6, KeyF7, KeyF8, KeyF9, KeyF10, KeyF11, KeyF12:
		// 16 and 22 are skipped: the VT220 left gaps between key groups.
		return csiKey{final: '~', num: [...]int{15, 17, 18, 19, 20, 21, 23, 24}[c-KeyF5]}, true
	}
	return csiKey{}, false
}

func (ck csiKey) encode(mod Mod, appCursor bool) []byte {
	switch {
	case mod != 0 && ck.final == '~':
		return fmt.Appendf(nil, "\x1b[%d;%d~", ck.num, 1+int(mod))
	case mod != 0:
		return fmt.Appendf(nil, "\x1b[1;%d%c", 1+int(mod), ck.final)
	case ck.final == '~':
		return fmt.Appendf(nil, "\x1b[%d~", ck.num)
	case ck.ss3 == ss3Always, ck.ss3 == ss3InAppCursor && appCursor:
		return []byte{escByte, 'O', ck.final}
	}
	return []byte{escByte, '[', ck.final}
}

// legacyBytes encodes the keys that predate CSI sequences, without alt.
func legacyBytes(c KeyCode, r rune, mod Mod) ([]byte, bool) {
	switch c {
	case KeyRune:
		return runeBytes(r, mod)
	case KeySpace:
		return runeBytes(' ', mod)
	case KeyEnter:
		return []byte{'\r'}, mod == 0
	case KeyEscape:
		return []byte{escByte}, mod == 0
	case KeyTab:
		return tabBytes(mod)
	case KeyBackspace:
		return backspaceBytes(mod), true
	}
	return nil, false
}

func tabBytes(mod Mod) ([]byte, bool) {
	switch mod {
	case 0:
		return []byte{'\t'}, true
	case ModShift:
		return []byte("\x1b[Z"), true
	}
	return nil, false
}

// backspaceBytes ignores shift: xterm sends the same byte, and holding shift
// while deleting a run of capitals must still delete.
func backspaceBytes(mod Mod) []byte {
	if mod&ModCtrl != 0 {
		return []byte{0x08}
	}
	return []byte{0x7f}
}

// runeBytes encodes a character. Shift upper-cases it (a shifted symbol such
// as '!' already carries the shift); ctrl maps it to a C0 control.
func runeBytes(r rune, mod Mod) ([]byte, bool) {
	if !utf8.ValidRune(r) {
		return nil, false
	}
	if mod&ModShift != 0 {
		r = unicode.ToUpper(r)
	}
	if mod&ModCtrl == 0 {
		return utf8.AppendRune(nil, r), true
	}
	c, ok := ctrlByte(r)
	if !ok {
		return nil, false
	}
	return []byte{c}, true
}

// ctrlByte is the control character ctrl+r types, as xterm sends it.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z', r >= '@' && r <= '_': // @ A–Z [ \ ] ^ _
		return byte(r) & 0x1f, true
	case r == ' ':
		return 0, true
	case r == '?':
		return 0x7f, true
	case r == '/': // xterm and its descendants send US; emacs and readline undo
		return 0x1f, true
	}
	return 0, false
}

// String names k the way send-keys spells it, e.g. "C-M-a", "S-Up", "F5".
func (k Key) String() string {
	var b strings.Builder
	for _, p := range [...]struct {
		mod    Mod
		prefix string
	}{{ModCtrl, "C-"}, {ModAlt, "M-"}, {ModShift, "S-"}} {
		if k.Mod&p.mod != 0 {
			b.WriteString(p.prefix)
		}
	}
	b.WriteString(k.baseName())
	return b.String()
}

func (k Key) baseName() string {
	if k.Code == KeyRune {
		if unicode.IsPrint(k.Rune) && k.Rune != ' ' {
			return string(k.Rune)
		}
		return fmt.Sprintf("U+%04X", k.Rune)
	}
	if name := keyName(k.Code); name != "" {
		return name
	}
	return "KeyCode(" + strconv.Itoa(int(k.Code)) + ")"
}

// keyName is the canonical send-keys name of c, or "" for KeyRune and
// unknown codes.
func keyName(c KeyCode) string {
	if c >= KeyF1 && c <= KeyF12 {
		return "F" + strconv.Itoa(int(c-KeyF1)+1)
	}
	names := [...]string{
		KeyEnter: "Enter", KeyTab: "Tab", KeyBackspace: "BSpace", KeyEscape: "Escape",
		KeySpace: "Space", KeyUp: "Up", KeyDown: "Down", KeyRight: "Right", KeyLeft: "Left",
		KeyHome: "Home", KeyEnd: "End", KeyInsert: "Insert", KeyDelete: "Delete",
		KeyPgUp: "PageUp", KeyPgDown: "PageDown",
	}
	if c < 0 || int(c) >= len(names) {
		return ""
	}
	return names[c]
}
