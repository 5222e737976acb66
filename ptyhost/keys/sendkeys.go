package keys

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Key and send-keys errors. They live here rather than in errors.go because
// that file is owned by the host; move them there when convenient.
var (
	// ErrUnencodable: the key has no encoding a legacy terminal can send.
	ErrUnencodable = errors.New("no terminal encoding")
	// ErrBadKey: a send-keys word looks like a modified key but is not one.
	ErrBadKey = errors.New("bad key")
	// ErrUnterminatedQuote: a send-keys line opens a quote it never closes.
	ErrUnterminatedQuote = errors.New("unterminated quote")
)

// Item is one piece of input for a run, encoded for the app's modes only when it is
// written (EncodeItems): a key; literal text when IsText (a parsed send-keys word, or
// what a UI's key typed); text pasted when Paste (bracketed if the app enabled mode
// 2004); or, when Data is set, bytes already encoded (a UI's mouse and focus reports).
type Item struct {
	Key    Key    `json:"key"`
	Text   string `json:"text"` // literal text when IsText, pasted text when Paste
	IsText bool   `json:"is_text"`
	Paste  bool   `json:"paste,omitempty"`
	Data   []byte `json:"data,omitempty"`
	Mouse  *Mouse `json:"mouse,omitempty"` // a mouse event, reported as the app asked (EncodeMouse)
}

// ParseSendKeys parses a send-keys line, tmux style. Words are split on
// unquoted whitespace; "..." and '...' quote, and quoted parts join the
// surrounding word. Inside "..." the escapes \" \\ \n \t \e \r work (any other
// backslash is kept); '...' is literal. A word with a quoted part is literal
// text; a bare word is a key if it names one, otherwise literal text (so
// `"echo hi" Enter` types the command and runs it, while `echo hi` types
// "echohi", as in tmux).
//
// Key names, case-insensitive: Enter, Tab, BTab (shift+tab), Escape/Esc,
// Space, BSpace, Up, Down, Left, Right, Home, End, IC/Insert, DC/Delete,
// PageUp/PgUp/PPage, PageDown/PgDn/NPage, F1..F12; any of them or a single
// character after modifier prefixes C- M- S- (C-M-x, C-Up, S-Up, M-Enter);
// ^x for ctrl+x. A word with a modifier prefix that is not a key ("C-",
// "C-Foo") is ErrBadKey, as is a key with no terminal encoding ("C-Tab",
// which also matches ErrUnencodable): quote such a word to send it as text.
// Empty words send nothing and are dropped.
func ParseSendKeys(line string) ([]Item, error) {
	words, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(words))
	for _, w := range words {
		if w.text == "" {
			continue
		}
		if w.quoted {
			items = append(items, Item{Text: w.text, IsText: true})
			continue
		}
		it, err := parseWord(w.text)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// ParseSendKeysArgs parses words a shell already split: each arg is one
// word, with no quote processing inside it; an arg that names a key is that
// key, anything else is literal text.
func ParseSendKeysArgs(args []string) ([]Item, error) {
	items := make([]Item, 0, len(args))
	for _, a := range args {
		if a == "" {
			continue
		}
		it, err := parseWord(a)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// EncodeItems turns items into the bytes to write to a run whose app has modes m:
// keys as EncodeKey encodes them, text as is (like tmux send-keys -l), pastes as
// EncodePaste does, mouse events as EncodeMouse reports them (nothing for one the app
// did not ask for) and data unchanged.
func EncodeItems(items []Item, m Modes) ([]byte, error) {
	var out []byte
	for i, it := range items {
		switch {
		case it.Paste:
			out = append(out, EncodePaste(it.Text, m.BracketedPaste)...)
			continue
		case it.IsText:
			out = append(out, it.Text...)
			continue
		case len(it.Data) > 0:
			out = append(out, it.Data...)
			continue
		case it.Mouse != nil:
			b, _ := EncodeMouse(*it.Mouse, m)
			out = append(out, b...)
			continue
		}
		b, err := EncodeKey(it.Key, m)
		if err != nil {
			return nil, fmt.Errorf("send-keys: item %d: %w", i+1, err)
		}
		out = append(out, b...)
	}
	return out, nil
}

// parseWord classifies one bare (unquoted) word.
func parseWord(w string) (Item, error) {
	k, isKey, err := parseKey(w)
	if err != nil {
		return Item{}, err
	}
	if !isKey {
		return Item{Text: w, IsText: true}, nil
	}
	// Encodability does not depend on Modes, so check it now: the prompt
	// reports the bad word before anything is sent.
	if _, err := EncodeKey(k, Modes{}); err != nil {
		return Item{}, fmt.Errorf("send-keys: %q: %w: %w", w, ErrBadKey, ErrUnencodable)
	}
	return Item{Key: k}, nil
}

// parseKey reads w as a key. It reports isKey false for a word that is text.
func parseKey(w string) (k Key, isKey bool, err error) {
	mod, rest := stripMods(w)
	k, ok := namedKey(rest)
	if !ok {
		k, ok = caretKey(rest)
	}
	if !ok && mod != 0 {
		k, ok = runeKey(rest)
	}
	switch {
	case ok:
		k.Mod |= mod
		return k, true, nil
	case mod != 0:
		return Key{}, false, fmt.Errorf("send-keys: %q: %w", w, ErrBadKey)
	}
	return Key{}, false, nil
}

// stripMods removes leading C- M- S- prefixes (any case) from w.
func stripMods(w string) (Mod, string) {
	var mod Mod
	for len(w) >= 2 && w[1] == '-' {
		m := modOfLetter(w[0])
		if m == 0 {
			break
		}
		mod |= m
		w = w[2:]
	}
	return mod, w
}

func modOfLetter(c byte) Mod {
	switch c | 0x20 { // ASCII lower case
	case 'c':
		return ModCtrl
	case 'm':
		return ModAlt
	case 's':
		return ModShift
	}
	return 0
}

// namedKey looks up a key name, case-insensitively.
func namedKey(name string) (Key, bool) {
	for c := KeyEnter; c <= KeyF12; c++ {
		if strings.EqualFold(name, keyName(c)) {
			return Key{Code: c}, true
		}
	}
	return aliasKey(strings.ToLower(name))
}

// aliasKey looks up the tmux aliases of the canonical names.
func aliasKey(name string) (Key, bool) {
	switch name {
	case "esc":
		return Key{Code: KeyEscape}, true
	case "btab":
		return Key{Code: KeyTab, Mod: ModShift}, true
	case "ic":
		return Key{Code: KeyInsert}, true
	case "dc":
		return Key{Code: KeyDelete}, true
	case "pgup", "ppage":
		return Key{Code: KeyPgUp}, true
	case "pgdn", "npage":
		return Key{Code: KeyPgDown}, true
	}
	return Key{}, false
}

// caretKey reads "^x" as ctrl+x.
func caretKey(w string) (Key, bool) {
	if len(w) < 2 || w[0] != '^' {
		return Key{}, false
	}
	k, ok := runeKey(w[1:])
	k.Mod |= ModCtrl
	return k, ok
}

// runeKey reads a word of exactly one valid UTF-8 character.
func runeKey(w string) (Key, bool) {
	r, size := utf8.DecodeRuneInString(w)
	if size == 0 || size != len(w) || r == utf8.RuneError && size == 1 {
		return Key{}, false
	}
	return Key{Code: KeyRune, Rune: r}, true
}

// word is one send-keys word; a word with any quoted part is literal text.
type word struct {
	text   string
	quoted bool
}

// splitter accumulates the words of one line.
type splitter struct {
	words  []word
	cur    []byte
	open   bool // a word has started, possibly an empty quoted one
	quoted bool
}

func splitWords(line string) ([]word, error) {
	var s splitter
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case isSpace(c):
			s.flush()
			i++
		case c == '"' || c == '\'':
			next, err := s.quote(line, i)
			if err != nil {
				return nil, err
			}
			i = next
		default:
			s.cur, s.open = append(s.cur, c), true
			i++
		}
	}
	s.flush()
	return s.words, nil
}

func (s *splitter) flush() {
	if s.open {
		s.words = append(s.words, word{text: string(s.cur), quoted: s.quoted})
	}
	s.cur, s.open, s.quoted = s.cur[:0], false, false
}

// quote consumes the quoted part opening at line[i] and returns the index
// after its closing quote.
func (s *splitter) quote(line string, i int) (int, error) {
	q := line[i]
	s.open, s.quoted = true, true
	for j := i + 1; j < len(line); j++ {
		c := line[j]
		if c == q {
			return j + 1, nil
		}
		if q == '"' && c == '\\' && j+1 < len(line) {
			if e, ok := escapeByte(line[j+1]); ok {
				s.cur = append(s.cur, e)
				j++
				continue
			}
		}
		s.cur = append(s.cur, c)
	}
	return 0, fmt.Errorf("send-keys: %w: %c opened at byte %d", ErrUnterminatedQuote, q, i)
}

// escapeByte is the byte a backslash escape inside "..." stands for.
func escapeByte(c byte) (byte, bool) {
	switch c {
	case '"', '\\':
		return c, true
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'e':
		return escByte, true
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
