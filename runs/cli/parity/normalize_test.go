package parity

import (
	"reflect"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		name   string
		pieces []piece
		want   []string
		noEOL  bool
	}{
		{"crlf", []piece{{data: []byte("a\r\nb\r\r\n")}}, []string{"a", "b"}, false},
		{"sgr split across reads", []piece{{data: []byte("\x1b[3")}, {data: []byte("1mred\x1b[0m\n")}},
			[]string{"red"}, false},
		{"osc title with BEL and ST", []piece{{data: []byte("\x1b]0;t\x07x\x1b]8;;u\x1b\\y\n")}},
			[]string{"xy"}, false},
		{"dcs and charset", []piece{{data: []byte("\x1bP+q544e\x1b\\\x1b(0q\x1b(Bz\n")}}, []string{"qz"}, false},
		{"utf-8 split across reads", []piece{{data: []byte("h\xe4")}, {data: []byte("\xbd\xa0\n")}},
			[]string{"h你"}, false},
		{"progress rewritten with CR", []piece{{data: []byte("10%\r20%\r100%\n")}}, []string{"100%"}, false},
		{"shorter rewrite keeps the tail", []piece{{data: []byte("abcdef\rXY\n")}}, []string{"XYcdef"}, false},
		{"backspace", []piece{{data: []byte("ab\bc\n")}}, []string{"ac"}, false},
		{"bell removed, no final newline", []piece{{data: []byte("done\a")}}, []string{"done"}, true},
		{"empty lines kept", []piece{{data: []byte("\n\nx\n")}}, []string{"", "", "x"}, false},
		// What x/ansi's parser changed, or could have:
		{"split at every byte", bytePieces("\x1b]0;t\x1b\\a\x1b[38;2;1;2;3mb\x1bP1$r\x1b\\c\x1b(Bd\n"),
			[]string{"abcd"}, false},
		{"BEL ends an OSC, not a DCS", []piece{{data: []byte("a\x1b]8;;u\x07b\x1bPq\x07c\x1b\\d\n")}},
			[]string{"abd"}, false},
		{"APC ended by ST", []piece{{data: []byte("a\x1b_Gf=1\x07x\x1b\\b\n")}}, []string{"ab"}, false},
		{"overlong parameters", []piece{{data: []byte("a\x1b[" + strings.Repeat("1;", 300) + "mb\n")}},
			[]string{"ab"}, false},
		{"control inside a sequence acts", []piece{{data: []byte("ab\x1b[1\rc\x1b[0mX\n")}}, []string{"Xb"}, false},
		{"CAN abandons a sequence and stays, as in text", []piece{{data: []byte("a\x1b[1\x18b\x18\n")}},
			[]string{"a\x18b\x18"}, false},
		{"ESC ESC", []piece{{data: []byte("a\x1b\x1b[31mb\n")}}, []string{"ab"}, false},
		{"8-bit C1 is not a control", []piece{{data: []byte("a\x9b31mb\x9dc\n")}}, []string{"a\ufffd31mb\ufffdc"}, false},
		{"cut character then a sequence", []piece{{data: []byte("a\xe4\xbd")}, {data: []byte("\x1b[1mb\n")}},
			[]string{"a\ufffdb"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, noEOL := normalize(c.pieces)
			if got := texts(lines); !reflect.DeepEqual(got, c.want) || noEOL != c.noEOL {
				t.Errorf("got %q (noEOL %v), want %q (noEOL %v)", got, noEOL, c.want, c.noEOL)
			}
		})
	}
}

// bytePieces is s read one byte at a time.
func bytePieces(s string) []piece {
	var ps []piece
	for i := range len(s) {
		ps = append(ps, piece{data: []byte(s[i : i+1])})
	}
	return ps
}

func TestNormalizeMarksStderr(t *testing.T) {
	lines, _ := normalize([]piece{{data: []byte("out\n")}, {data: []byte("err\n"), stderr: true},
		{data: []byte("mix")}, {data: []byte("ed\n"), stderr: true}})
	want := []line{{"out", false}, {"err", true}, {"mixed", true}}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("got %+v, want %+v", lines, want)
	}
}

func TestRemoveEcho(t *testing.T) {
	cases := []struct {
		name  string
		out   []string
		input string
		want  []string
		found int
	}{
		{"echo before the output", []string{"alice", "hello alice"}, "alice\n", []string{"hello alice"}, 1},
		{"echo after a prompt", []string{"Name? alice", "hi alice"}, "alice\n", []string{"Name? hi alice"}, 1},
		{"two lines in order", []string{"a", "b", "got a b"}, "a\nb\n", []string{"got a b"}, 2},
		{"echo turned off", []string{"Password: ", "ok"}, "secret\n", []string{"Password: ", "ok"}, 0},
		{"crlf input", []string{"x", "y"}, "x\r\n", []string{"y"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ls []line
			for _, s := range c.out {
				ls = append(ls, line{text: s})
			}
			got, found := removeEcho(ls, c.input)
			if !reflect.DeepEqual(texts(got), c.want) || found != c.found {
				t.Errorf("got %q (%d found), want %q (%d)", texts(got), found, c.want, c.found)
			}
		})
	}
}
