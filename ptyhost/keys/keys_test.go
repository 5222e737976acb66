package keys

import (
	"errors"
	"fmt"
	"testing"
)

type keyCase struct {
	name string
	key  Key
	app  bool // Modes.AppCursor
	want string
}

func runKeyCases(t *testing.T, cases []keyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeKey(tc.key, Modes{AppCursor: tc.app})
			if err != nil {
				t.Fatalf("EncodeKey(%v) error: %v", tc.key, err)
			}
			if string(got) != tc.want {
				t.Errorf("EncodeKey(%v, app=%v) = %q, want %q", tc.key, tc.app, got, tc.want)
			}
		})
	}
}

func TestEncodeKeyUnmodified(t *testing.T) {
	runKeyCases(t, []keyCase{
		{"rune", Key{Code: KeyRune, Rune: 'a'}, false, "a"},
		{"rune upper", Key{Code: KeyRune, Rune: 'Z'}, false, "Z"},
		{"rune utf8", Key{Code: KeyRune, Rune: 'é'}, false, "é"},
		{"rune wide", Key{Code: KeyRune, Rune: '你'}, false, "你"},
		{"rune emoji", Key{Code: KeyRune, Rune: '😀'}, false, "😀"},
		{"enter", Key{Code: KeyEnter}, false, "\r"},
		{"tab", Key{Code: KeyTab}, false, "\t"},
		{"backspace", Key{Code: KeyBackspace}, false, "\x7f"},
		{"escape", Key{Code: KeyEscape}, false, "\x1b"},
		{"space", Key{Code: KeySpace}, false, " "},
		{"up", Key{Code: KeyUp}, false, "\x1b[A"},
		{"down", Key{Code: KeyDown}, false, "\x1b[B"},
		{"right", Key{Code: KeyRight}, false, "\x1b[C"},
		{"left", Key{Code: KeyLeft}, false, "\x1b[D"},
		{"home", Key{Code: KeyHome}, false, "\x1b[H"},
		{"end", Key{Code: KeyEnd}, false, "\x1b[F"},
		{"insert", Key{Code: KeyInsert}, false, "\x1b[2~"},
		{"delete", Key{Code: KeyDelete}, false, "\x1b[3~"},
		{"pgup", Key{Code: KeyPgUp}, false, "\x1b[5~"},
		{"pgdown", Key{Code: KeyPgDown}, false, "\x1b[6~"},
		{"f1", Key{Code: KeyF1}, false, "\x1bOP"},
		{"f2", Key{Code: KeyF2}, false, "\x1bOQ"},
		{"f3", Key{Code: KeyF3}, false, "\x1bOR"},
		{"f4", Key{Code: KeyF4}, false, "\x1bOS"},
		{"f5", Key{Code: KeyF5}, false, "\x1b[15~"},
		{"f6", Key{Code: KeyF6}, false, "\x1b[17~"},
		{"f7", Key{Code: KeyF7}, false, "\x1b[18~"},
		{"f8", Key{Code: KeyF8}, false, "\x1b[19~"},
		{"f9", Key{Code: KeyF9}, false, "\x1b[20~"},
		{"f10", Key{Code: KeyF10}, false, "\x1b[21~"},
		{"f11", Key{Code: KeyF11}, false, "\x1b[23~"},
		{"f12", Key{Code: KeyF12}, false, "\x1b[24~"},
	})
}

// DECCKM switches only the unmodified arrows, Home and End to SS3.
func TestEncodeKeyAppCursor(t *testing.T) {
	runKeyCases(t, []keyCase{
		{"up", Key{Code: KeyUp}, true, "\x1bOA"},
		{"down", Key{Code: KeyDown}, true, "\x1bOB"},
		{"right", Key{Code: KeyRight}, true, "\x1bOC"},
		{"left", Key{Code: KeyLeft}, true, "\x1bOD"},
		{"home", Key{Code: KeyHome}, true, "\x1bOH"},
		{"end", Key{Code: KeyEnd}, true, "\x1bOF"},
		{"ctrl up stays CSI", Key{Code: KeyUp, Mod: ModCtrl}, true, "\x1b[1;5A"},
		{"shift home stays CSI", Key{Code: KeyHome, Mod: ModShift}, true, "\x1b[1;2H"},
		{"insert unaffected", Key{Code: KeyInsert}, true, "\x1b[2~"},
		{"pgdown unaffected", Key{Code: KeyPgDown}, true, "\x1b[6~"},
		{"f1 unaffected", Key{Code: KeyF1}, true, "\x1bOP"},
		{"f5 unaffected", Key{Code: KeyF5}, true, "\x1b[15~"},
		{"enter unaffected", Key{Code: KeyEnter}, true, "\r"},
		{"rune unaffected", Key{Code: KeyRune, Rune: 'k'}, true, "k"},
	})
}

// Every modifier combination on every CSI-style key: the parameter is
// 1 + shift(1) + alt(2) + ctrl(4), alt included (no ESC prefix).
func TestEncodeKeyModifiedCSI(t *testing.T) {
	letters := map[KeyCode]string{
		KeyUp: "A", KeyDown: "B", KeyRight: "C", KeyLeft: "D", KeyHome: "H", KeyEnd: "F",
		KeyF1: "P", KeyF2: "Q", KeyF3: "R", KeyF4: "S",
	}
	tildes := map[KeyCode]int{
		KeyInsert: 2, KeyDelete: 3, KeyPgUp: 5, KeyPgDown: 6,
		KeyF5: 15, KeyF6: 17, KeyF7: 18, KeyF8: 19, KeyF9: 20, KeyF10: 21, KeyF11: 23, KeyF12: 24,
	}
	var cases []keyCase
	for mod := Mod(1); mod <= modAll; mod++ {
		m := 1
		if mod&ModShift != 0 {
			m++
		}
		if mod&ModAlt != 0 {
			m += 2
		}
		if mod&ModCtrl != 0 {
			m += 4
		}
		for code, fin := range letters {
			k := Key{Code: code, Mod: mod}
			want := fmt.Sprintf("\x1b[1;%d%s", m, fin)
			cases = append(cases, keyCase{k.String(), k, false, want}, keyCase{k.String() + "/app", k, true, want})
		}
		for code, n := range tildes {
			k := Key{Code: code, Mod: mod}
			cases = append(cases, keyCase{k.String(), k, false, fmt.Sprintf("\x1b[%d;%d~", n, m)})
		}
	}
	if len(cases) != 7*(2*10+12) {
		t.Fatalf("built %d cases", len(cases))
	}
	runKeyCases(t, cases)
}

func TestEncodeKeyModifiedSpotChecks(t *testing.T) {
	runKeyCases(t, []keyCase{
		{"ctrl left", Key{Code: KeyLeft, Mod: ModCtrl}, false, "\x1b[1;5D"},
		{"alt left", Key{Code: KeyLeft, Mod: ModAlt}, false, "\x1b[1;3D"},
		{"shift up", Key{Code: KeyUp, Mod: ModShift}, false, "\x1b[1;2A"},
		{"ctrl delete", Key{Code: KeyDelete, Mod: ModCtrl}, false, "\x1b[3;5~"},
		{"ctrl shift end", Key{Code: KeyEnd, Mod: ModCtrl | ModShift}, false, "\x1b[1;6F"},
		{"shift f1", Key{Code: KeyF1, Mod: ModShift}, false, "\x1b[1;2P"},
		{"ctrl f5", Key{Code: KeyF5, Mod: ModCtrl}, false, "\x1b[15;5~"},
		{"all f12", Key{Code: KeyF12, Mod: ModCtrl | ModAlt | ModShift}, false, "\x1b[24;8~"},
	})
}

func TestEncodeKeyCtrlLetters(t *testing.T) {
	var cases []keyCase
	for r := 'a'; r <= 'z'; r++ {
		want := string(rune(r - 'a' + 1))
		cases = append(cases,
			keyCase{"ctrl " + string(r), Key{Code: KeyRune, Rune: r, Mod: ModCtrl}, false, want},
			keyCase{"ctrl " + string(r-32), Key{Code: KeyRune, Rune: r - 32, Mod: ModCtrl}, false, want},
			keyCase{"ctrl shift " + string(r), Key{Code: KeyRune, Rune: r, Mod: ModCtrl | ModShift}, false, want},
			keyCase{"ctrl alt " + string(r), Key{Code: KeyRune, Rune: r, Mod: ModCtrl | ModAlt}, false, "\x1b" + want},
		)
	}
	runKeyCases(t, cases)
}

func TestEncodeKeyCtrlSymbols(t *testing.T) {
	runKeyCases(t, []keyCase{
		{"ctrl @", Key{Code: KeyRune, Rune: '@', Mod: ModCtrl}, false, "\x00"},
		{"ctrl [", Key{Code: KeyRune, Rune: '[', Mod: ModCtrl}, false, "\x1b"},
		{"ctrl backslash", Key{Code: KeyRune, Rune: '\\', Mod: ModCtrl}, false, "\x1c"},
		{"ctrl ]", Key{Code: KeyRune, Rune: ']', Mod: ModCtrl}, false, "\x1d"},
		{"ctrl ^", Key{Code: KeyRune, Rune: '^', Mod: ModCtrl}, false, "\x1e"},
		{"ctrl _", Key{Code: KeyRune, Rune: '_', Mod: ModCtrl}, false, "\x1f"},
		{"ctrl /", Key{Code: KeyRune, Rune: '/', Mod: ModCtrl}, false, "\x1f"},
		{"ctrl ?", Key{Code: KeyRune, Rune: '?', Mod: ModCtrl}, false, "\x7f"},
		{"ctrl space rune", Key{Code: KeyRune, Rune: ' ', Mod: ModCtrl}, false, "\x00"},
		{"ctrl space", Key{Code: KeySpace, Mod: ModCtrl}, false, "\x00"},
		{"ctrl shift space", Key{Code: KeySpace, Mod: ModCtrl | ModShift}, false, "\x00"},
	})
}

func TestEncodeKeyAltAndShift(t *testing.T) {
	runKeyCases(t, []keyCase{
		{"alt a", Key{Code: KeyRune, Rune: 'a', Mod: ModAlt}, false, "\x1ba"},
		{"alt utf8", Key{Code: KeyRune, Rune: 'é', Mod: ModAlt}, false, "\x1bé"},
		{"alt shift a", Key{Code: KeyRune, Rune: 'a', Mod: ModAlt | ModShift}, false, "\x1bA"},
		{"alt enter", Key{Code: KeyEnter, Mod: ModAlt}, false, "\x1b\r"},
		{"alt tab", Key{Code: KeyTab, Mod: ModAlt}, false, "\x1b\t"},
		{"alt backspace", Key{Code: KeyBackspace, Mod: ModAlt}, false, "\x1b\x7f"},
		{"alt escape", Key{Code: KeyEscape, Mod: ModAlt}, false, "\x1b\x1b"},
		{"alt space", Key{Code: KeySpace, Mod: ModAlt}, false, "\x1b "},
		{"alt ctrl space", Key{Code: KeySpace, Mod: ModAlt | ModCtrl}, false, "\x1b\x00"},
		{"shift a", Key{Code: KeyRune, Rune: 'a', Mod: ModShift}, false, "A"},
		{"shift é", Key{Code: KeyRune, Rune: 'é', Mod: ModShift}, false, "É"},
		{"shift bang", Key{Code: KeyRune, Rune: '!', Mod: ModShift}, false, "!"},
		{"shift space", Key{Code: KeySpace, Mod: ModShift}, false, " "},
		{"shift tab", Key{Code: KeyTab, Mod: ModShift}, false, "\x1b[Z"},
		{"shift tab app", Key{Code: KeyTab, Mod: ModShift}, true, "\x1b[Z"},
		{"alt shift tab", Key{Code: KeyTab, Mod: ModShift | ModAlt}, false, "\x1b\x1b[Z"},
		{"shift backspace", Key{Code: KeyBackspace, Mod: ModShift}, false, "\x7f"},
		{"ctrl backspace", Key{Code: KeyBackspace, Mod: ModCtrl}, false, "\x08"},
		{"ctrl alt backspace", Key{Code: KeyBackspace, Mod: ModCtrl | ModAlt}, false, "\x1b\x08"},
	})
}

func TestEncodeKeyUnencodable(t *testing.T) {
	for _, k := range []Key{
		{Code: KeyRune, Rune: '1', Mod: ModCtrl},
		{Code: KeyRune, Rune: 'é', Mod: ModCtrl},
		{Code: KeyRune, Rune: '\t', Mod: ModCtrl},
		{Code: KeyRune, Rune: -1},
		{Code: KeyRune, Rune: 0xD800}, // surrogate
		{Code: KeyRune, Rune: 0x110000},
		{Code: KeyEnter, Mod: ModShift},
		{Code: KeyEnter, Mod: ModCtrl},
		{Code: KeyEnter, Mod: ModShift | ModAlt},
		{Code: KeyTab, Mod: ModCtrl},
		{Code: KeyTab, Mod: ModCtrl | ModShift},
		{Code: KeyEscape, Mod: ModCtrl},
		{Code: KeyEscape, Mod: ModShift},
		{Code: KeyUp, Mod: 8},
		{Code: KeyRune, Rune: 'a', Mod: 0x80},
		{Code: KeyF12 + 1},
		{Code: -1},
	} {
		got, err := EncodeKey(k, Modes{})
		if !errors.Is(err, ErrUnencodable) {
			t.Errorf("EncodeKey(%v) = %q, %v; want ErrUnencodable", k, got, err)
		}
	}
}

func TestKeyString(t *testing.T) {
	for _, tc := range []struct {
		key  Key
		want string
	}{
		{Key{Code: KeyRune, Rune: 'a'}, "a"},
		{Key{Code: KeyRune, Rune: 'x', Mod: ModCtrl | ModAlt}, "C-M-x"},
		{Key{Code: KeyUp, Mod: ModShift}, "S-Up"},
		{Key{Code: KeyF5}, "F5"},
		{Key{Code: KeyF12, Mod: modAll}, "C-M-S-F12"},
		{Key{Code: KeyBackspace}, "BSpace"},
		{Key{Code: KeyRune, Rune: ' '}, "U+0020"},
		{Key{Code: KeyRune, Rune: '\x01'}, "U+0001"},
		{Key{Code: 99}, "KeyCode(99)"},
	} {
		if got := tc.key.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.key, got, tc.want)
		}
	}
}

// Every named code has a distinct name that parses back to the same key.
func TestKeyNamesRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for c := KeyEnter; c <= KeyF12; c++ {
		name := keyName(c)
		if name == "" || seen[name] {
			t.Fatalf("keyName(%d) = %q (empty or duplicate)", c, name)
		}
		seen[name] = true
		items, err := ParseSendKeys(name)
		if err != nil || len(items) != 1 || items[0].IsText || items[0].Key != (Key{Code: c}) {
			t.Errorf("ParseSendKeys(%q) = %+v, %v", name, items, err)
		}
	}
	if keyName(KeyRune) != "" || keyName(-1) != "" || keyName(KeyF12+1) != "" {
		t.Error("keyName of a non-named code is not empty")
	}
}
