package statefile

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

func TestCompleteRunes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"abc", 3}, {"a\xc3", 1}, {"a\xc3\xa9", 3}, {"\xe2\x82", 0}, {"\xf0\x9f\x98", 0}, {"\xff", 1}} {
		if got := completeRunes([]byte(c.in)); got != c.want {
			t.Errorf("completeRunes(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// appendJSONString must escape exactly as json.Marshal does a string (recordings stay
// byte for byte the same): controls, HTML characters, U+2028/9, invalid and cut UTF-8.
func TestAppendJSONStringMatchesMarshal(t *testing.T) {
	cases := []string{"", "plain", "a\"b\\c", "\x00\x01\b\f\n\r\t\x1b[31m\x7f", "<a href='x'>&amp;</a>",
		"héllo 你好 😀", "\u2028\u2029", "\xff\xfe", "\xe4\xbd", "a\xe4\xbdb", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab \"\\<>&\x00\x1b\n\r\t\x7f\xc3\xa9\xe4\xbd\xa0\xe2\x80\xa8\xf0\x9f\x98\x80\xff")
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, _ := json.Marshal(c)
		if got := appendJSONString([]byte("x"), []byte(c)); string(got) != "x"+string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", c, got[1:], want)
		}
	}
}
