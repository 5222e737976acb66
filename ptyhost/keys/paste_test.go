package keys

import (
	"strings"
	"testing"
)

func TestEncodePaste(t *testing.T) {
	for _, tc := range []struct {
		name      string
		text      string
		bracketed bool
		want      string
	}{
		{"plain", "hello", false, "hello"},
		{"plain LF", "a\nb\n", false, "a\rb\r"},
		{"plain CRLF", "a\r\nb\r\n", false, "a\rb\r"},
		{"plain CR kept", "a\rb", false, "a\rb"},
		{"plain CR CRLF", "a\r\r\nb", false, "a\r\rb"},
		{"plain LF LF", "\n\n", false, "\r\r"},
		{"plain keeps markers", "x\x1b[201~y", false, "x\x1b[201~y"},
		{"plain utf8", "你好 😀\n", false, "你好 😀\r"},
		{"empty plain", "", false, ""},
		{"empty bracketed", "", true, ""},
		{"bracketed", "hello", true, "\x1b[200~hello\x1b[201~"},
		{"bracketed keeps newlines", "a\nb\r\nc", true, "\x1b[200~a\nb\r\nc\x1b[201~"},
		{"end marker removed", "a\x1b[201~rm -rf ~\r", true, "\x1b[200~arm -rf ~\r\x1b[201~"},
		{"start marker removed", "a\x1b[200~b", true, "\x1b[200~ab\x1b[201~"},
		{"only a marker", "\x1b[201~", true, "\x1b[200~\x1b[201~"},
		{"markers at both ends", "\x1b[200~x\x1b[201~", true, "\x1b[200~x\x1b[201~"},
		{"nested marker", "\x1b[20\x1b[201~1~evil", true, "\x1b[200~evil\x1b[201~"},
		{"doubly nested", "\x1b[\x1b[20\x1b[201~1~201~x", true, "\x1b[200~x\x1b[201~"},
		{"8-bit CSI", "a\x9b201~b", true, "\x1b[200~ab\x1b[201~"},
		{"UTF-8 CSI", "a\u009b201~b", true, "\x1b[200~ab\x1b[201~"},
		{"not a marker", "\x1b[202~ 201~ [201~", true, "\x1b[200~\x1b[202~ 201~ [201~\x1b[201~"},
		{"text after start marker", "201~", true, "\x1b[200~201~\x1b[201~"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EncodePaste(tc.text, tc.bracketed); string(got) != tc.want {
				t.Errorf("EncodePaste(%q, %v) = %q, want %q", tc.text, tc.bracketed, got, tc.want)
			}
		})
	}
}

// FuzzEncodePaste: a bracketed paste holds exactly one start and one end
// marker, at its ends; an unbracketed one holds no "\n".
func FuzzEncodePaste(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[201~", "\x1b[20\x1b[201~1~", "\xc2\x9b200~", "a\r\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := string(EncodePaste(text, true))
		if text != "" {
			inner, ok := strings.CutPrefix(got, pasteStart)
			inner, ok2 := strings.CutSuffix(inner, pasteEnd)
			if !ok || !ok2 {
				t.Fatalf("EncodePaste(%q) = %q: not wrapped", text, got)
			}
			for _, m := range []string{"200~", "201~"} {
				for _, intro := range []string{"\x1b[", "\x9b"} {
					if strings.Contains(inner, intro+m) {
						t.Fatalf("EncodePaste(%q) = %q: marker %q inside", text, got, intro+m)
					}
				}
			}
		}
		if plain := EncodePaste(text, false); strings.Contains(string(plain), "\n") {
			t.Fatalf("EncodePaste(%q, false) = %q contains LF", text, plain)
		}
	})
}
