package keys

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func itemText(s string) Item           { return Item{Text: s, IsText: true} }
func itemKey(c KeyCode) Item           { return Item{Key: Key{Code: c}} }
func itemModKey(c KeyCode, m Mod) Item { return Item{Key: Key{Code: c, Mod: m}} }
func itemRune(r rune, m Mod) Item      { return Item{Key: Key{Code: KeyRune, Rune: r, Mod: m}} }

func TestParseSendKeys(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []Item
	}{
		{"", []Item{}},
		{"   \t ", []Item{}},
		{"Enter", []Item{itemKey(KeyEnter)}},
		{`"echo hi" Enter`, []Item{itemText("echo hi"), itemKey(KeyEnter)}},
		{"echo hi", []Item{itemText("echo"), itemText("hi")}},
		{"  ls\tEnter  ", []Item{itemText("ls"), itemKey(KeyEnter)}},
		{`"Enter"`, []Item{itemText("Enter")}},
		{`'Enter'`, []Item{itemText("Enter")}},
		{`'C-c'`, []Item{itemText("C-c")}},
		{`a"b c"d`, []Item{itemText("ab cd")}},
		{`""`, []Item{}},
		{`'' Tab`, []Item{itemKey(KeyTab)}},
		{`"a\"b\\c\nd\te\rf\eg"`, []Item{itemText("a\"b\\c\nd\te\rf\x1bg")}},
		{`"\x \$ \"`, nil}, // unterminated: the last quote is escaped
		{`"\x \$"`, []Item{itemText(`\x \$`)}},
		{`'a\nb "c"'`, []Item{itemText(`a\nb "c"`)}},
		{`"it's"`, []Item{itemText("it's")}},
		{`'say "hi"'`, []Item{itemText(`say "hi"`)}},
		{`a\b`, []Item{itemText(`a\b`)}},
		{"héllo 你好", []Item{itemText("héllo"), itemText("你好")}},
		{"enter ENTER eNtEr", []Item{itemKey(KeyEnter), itemKey(KeyEnter), itemKey(KeyEnter)}},
		{"Tab BTab Escape Esc Space BSpace", []Item{
			itemKey(KeyTab), itemModKey(KeyTab, ModShift), itemKey(KeyEscape), itemKey(KeyEscape), itemKey(KeySpace), itemKey(KeyBackspace),
		}},
		{"Up Down Left Right Home End", []Item{
			itemKey(KeyUp), itemKey(KeyDown), itemKey(KeyLeft), itemKey(KeyRight), itemKey(KeyHome), itemKey(KeyEnd),
		}},
		{"IC Insert DC Delete", []Item{itemKey(KeyInsert), itemKey(KeyInsert), itemKey(KeyDelete), itemKey(KeyDelete)}},
		{"PageUp PgUp PPage PageDown PgDn NPage", []Item{
			itemKey(KeyPgUp), itemKey(KeyPgUp), itemKey(KeyPgUp), itemKey(KeyPgDown), itemKey(KeyPgDown), itemKey(KeyPgDown),
		}},
		{"F1 f2 F10 f12", []Item{itemKey(KeyF1), itemKey(KeyF2), itemKey(KeyF10), itemKey(KeyF12)}},
		{"F13 F0 F01 Return Backspace", []Item{itemText("F13"), itemText("F0"), itemText("F01"), itemText("Return"), itemText("Backspace")}},
		{"C-c", []Item{itemRune('c', ModCtrl)}},
		{"c-C", []Item{itemRune('C', ModCtrl)}},
		{"M-x", []Item{itemRune('x', ModAlt)}},
		{"S-a", []Item{itemRune('a', ModShift)}},
		{"C-M-x m-c-X", []Item{itemRune('x', ModCtrl|ModAlt), itemRune('X', ModCtrl|ModAlt)}},
		{"C-Up S-Up M-Enter", []Item{itemModKey(KeyUp, ModCtrl), itemModKey(KeyUp, ModShift), itemModKey(KeyEnter, ModAlt)}},
		{"C-M-S-F5", []Item{itemModKey(KeyF5, ModCtrl|ModAlt|ModShift)}},
		{"S-Tab M-BTab", []Item{itemModKey(KeyTab, ModShift), itemModKey(KeyTab, ModShift|ModAlt)}},
		{"C-Space C-@", []Item{itemModKey(KeySpace, ModCtrl), itemRune('@', ModCtrl)}},
		{"M--", []Item{itemRune('-', ModAlt)}},
		{"M-é", []Item{itemRune('é', ModAlt)}},
		{"^c ^[ ^? ^^ ^@", []Item{
			itemRune('c', ModCtrl), itemRune('[', ModCtrl), itemRune('?', ModCtrl), itemRune('^', ModCtrl), itemRune('@', ModCtrl),
		}},
		{"M-^c", []Item{itemRune('c', ModCtrl|ModAlt)}},
		{"^ ^ab a-b - x-", []Item{itemText("^"), itemText("^ab"), itemText("a-b"), itemText("-"), itemText("x-")}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			got, err := ParseSendKeys(tc.line)
			if tc.want == nil {
				if !errors.Is(err, ErrUnterminatedQuote) {
					t.Fatalf("ParseSendKeys(%q) = %+v, %v; want ErrUnterminatedQuote", tc.line, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseSendKeys(%q) error: %v", tc.line, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseSendKeys(%q) =\n  %+v\nwant\n  %+v", tc.line, got, tc.want)
			}
		})
	}
}

func TestParseSendKeysErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []error
		word string // named in the message
	}{
		{`"abc`, []error{ErrUnterminatedQuote}, ""},
		{`'abc`, []error{ErrUnterminatedQuote}, ""},
		{`ok "a\"`, []error{ErrUnterminatedQuote}, ""},
		{`"a" 'b`, []error{ErrUnterminatedQuote}, ""},
		{"C-", []error{ErrBadKey}, `"C-"`},
		{"M-", []error{ErrBadKey}, `"M-"`},
		{"C-M-", []error{ErrBadKey}, `"C-M-"`},
		{"Enter C-Foo", []error{ErrBadKey}, `"C-Foo"`},
		{"s-expression", []error{ErrBadKey}, `"s-expression"`},
		{"C-\xff", []error{ErrBadKey}, `"C-\xff"`},
		{"C-1", []error{ErrBadKey, ErrUnencodable}, `"C-1"`},
		{"^1", []error{ErrBadKey, ErrUnencodable}, `"^1"`},
		{"C-é", []error{ErrBadKey, ErrUnencodable}, `"C-é"`},
		{"S-Enter", []error{ErrBadKey, ErrUnencodable}, `"S-Enter"`},
		{"C-Tab", []error{ErrBadKey, ErrUnencodable}, `"C-Tab"`},
		{"C-BTab", []error{ErrBadKey, ErrUnencodable}, `"C-BTab"`},
		{"C-Escape", []error{ErrBadKey, ErrUnencodable}, `"C-Escape"`},
	} {
		t.Run(tc.line, func(t *testing.T) {
			got, err := ParseSendKeys(tc.line)
			if err == nil {
				t.Fatalf("ParseSendKeys(%q) = %+v, want an error", tc.line, got)
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("ParseSendKeys(%q) error %q is not %q", tc.line, err, w)
				}
			}
			if !strings.Contains(err.Error(), tc.word) {
				t.Errorf("error %q does not name %s", err, tc.word)
			}
		})
	}
}

func TestParseSendKeysArgs(t *testing.T) {
	got, err := ParseSendKeysArgs([]string{"echo hi", "Enter", `"quoted"`, "", "C-c", "it's", "^d", "up"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		itemText("echo hi"), itemKey(KeyEnter), itemText(`"quoted"`), itemRune('c', ModCtrl), itemText("it's"), itemRune('d', ModCtrl), itemKey(KeyUp),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseSendKeysArgs =\n  %+v\nwant\n  %+v", got, want)
	}
	if _, err := ParseSendKeysArgs([]string{"ok", "C-Foo"}); !errors.Is(err, ErrBadKey) || !strings.Contains(err.Error(), `"C-Foo"`) {
		t.Errorf("ParseSendKeysArgs(C-Foo) error = %v, want ErrBadKey naming the word", err)
	}
	if _, err := ParseSendKeysArgs([]string{`"open`}); err != nil {
		t.Errorf("ParseSendKeysArgs does quote processing: %v", err)
	}
}

func TestEncodeItems(t *testing.T) {
	for _, tc := range []struct {
		line string
		app  bool
		want string
	}{
		{`"echo hi" Enter`, false, "echo hi\r"},
		{"C-c", false, "\x03"},
		{"^[ :wq Enter", false, "\x1b:wq\r"},
		{"Up Down", false, "\x1b[A\x1b[B"},
		{"Up Down", true, "\x1bOA\x1bOB"},
		{"C-Up", true, "\x1b[1;5A"},
		{"M-Enter", false, "\x1b\r"},
		{"BTab S-Tab", false, "\x1b[Z\x1b[Z"},
		{"C-Space", false, "\x00"},
		{"S-a M-x", false, "A\x1bx"},
		{`"a\nb" 'c\n'`, false, "a\nbc\\n"},
		{"F1 F5 C-F5 S-F1", false, "\x1bOP\x1b[15~\x1b[15;5~\x1b[1;2P"},
		{"PgUp NPage IC DC Home End", true, "\x1b[5~\x1b[6~\x1b[2~\x1b[3~\x1bOH\x1bOF"},
		{"BSpace C-BSpace Escape Space", false, "\x7f\x08\x1b "},
		{"", false, ""},
	} {
		items, err := ParseSendKeys(tc.line)
		if err != nil {
			t.Fatalf("ParseSendKeys(%q): %v", tc.line, err)
		}
		got, err := EncodeItems(items, Modes{AppCursor: tc.app})
		if err != nil || string(got) != tc.want {
			t.Errorf("EncodeItems(%q, app=%v) = %q, %v; want %q", tc.line, tc.app, got, err, tc.want)
		}
	}
}

func TestEncodeItemsError(t *testing.T) {
	items := []Item{itemText("x"), itemModKey(KeyEnter, ModCtrl)}
	got, err := EncodeItems(items, Modes{})
	if !errors.Is(err, ErrUnencodable) || got != nil {
		t.Fatalf("EncodeItems = %q, %v; want ErrUnencodable", got, err)
	}
	if !strings.Contains(err.Error(), "item 2") || !strings.Contains(err.Error(), "C-Enter") {
		t.Errorf("error %q does not locate the item", err)
	}
}

// FuzzParseSendKeys: parsing never panics, and whatever parses also encodes,
// in either cursor mode, with no empty text items.
func FuzzParseSendKeys(f *testing.F) {
	for _, s := range []string{
		"", `"echo hi" Enter`, "C-M-x S-Up ^c", `"a\"b\\c\n"`, `'lit'eral"`, "C-", "C-Foo", "^", "M--",
		"F12 PgDn BTab", "\xff\xfe", `"unterminated`, "C-\xc3", "S-\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		items, err := ParseSendKeys(line)
		if err != nil {
			if !errors.Is(err, ErrBadKey) && !errors.Is(err, ErrUnterminatedQuote) {
				t.Fatalf("ParseSendKeys(%q): unexpected error %v", line, err)
			}
			return
		}
		for _, it := range items {
			if it.IsText && it.Text == "" {
				t.Fatalf("ParseSendKeys(%q): empty text item", line)
			}
		}
		for _, m := range []Modes{{}, {AppCursor: true}} {
			if _, err := EncodeItems(items, m); err != nil {
				t.Fatalf("ParseSendKeys(%q) = %+v, but EncodeItems: %v", line, items, err)
			}
		}
		_, _ = ParseSendKeysArgs(strings.Fields(line))
	})
}

// TestEncodeItemsUIInput: what a UI sends (keys, typed text, pastes, mouse reports
// already encoded) is encoded with the modes given, keys and pastes alike, and comes
// through the protocol's JSON unchanged (a legacy mouse report holds bytes above 0x7f).
func TestEncodeItemsUIInput(t *testing.T) {
	mouse := []byte{0x1b, '[', 'M', 32, 200, 255}
	items := []Item{itemText("é"), itemKey(KeyUp), {Text: "a\nb", Paste: true}, {Data: mouse}, itemRune('x', ModAlt)}
	b, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	var back []Item
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    Modes
		want string
	}{
		{Modes{}, "é\x1b[Aa\rb" + string(mouse) + "\x1bx"},
		{Modes{AppCursor: true, BracketedPaste: true}, "é\x1bOA\x1b[200~a\nb\x1b[201~" + string(mouse) + "\x1bx"},
	} {
		got, err := EncodeItems(back, c.m)
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeItems(%+v) = %q, %v; want %q", c.m, got, err, c.want)
		}
	}
}
