package hostterm

import "testing"

func TestEscapeChord(t *testing.T) {
	cases := []struct {
		name  string
		reads []string
		out   string
		stop  bool
	}{
		{"plain keys pass", []string{"ab\x03"}, "ab\x03", false},
		{"chord stops", []string{"ab\x1d.cd"}, "ab", true},
		{"chord across reads", []string{"a\x1d", ".b"}, "a", true},
		{"double sends one", []string{"\x1d\x1dx"}, "\x1dx", false},
		{"other key sends both", []string{"\x1dq"}, "\x1dq", false},
		{"held at the end of a read", []string{"a\x1d"}, "a", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ch EscapeChord
			var got []byte
			stop := false
			for _, r := range c.reads {
				out, s := ch.Feed([]byte(r))
				got = append(got, out...)
				if s {
					stop = true
					break
				}
			}
			if string(got) != c.out || stop != c.stop {
				t.Errorf("%q → %q stop %v, want %q stop %v", c.reads, got, stop, c.out, c.stop)
			}
		})
	}
}
