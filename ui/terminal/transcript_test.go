package terminal

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"corral/ptyhost"
	"corral/runs"
)

func texts(ls []HistLine) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Text
	}
	return out
}

func TestHistoryText(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"sgr", "a\x1b[31mred\x1b[0m\r\n", []string{"ared"}},
		{"carriage return", "progress 1%\rprogress 100%\nx\r\n", []string{"progress 100%", "x"}},
		{"overwrite shorter", "abcdef\rXY\n", []string{"XYcdef"}},
		{"erase line", "abcdef\rXY\x1b[K\n", []string{"XY"}},
		{"osc and dcs dropped", "\x1b]0;title\x07a\x1bP1$r\x1b\\b\x1b]52;c;Zm9v\x1b\\c\n", []string{"abc"}},
		{"cursor rows split lines", "\x1b[2J\x1b[Htop\x1b[5;1Hbottom", []string{"top", "bottom"}},
		{"backspace and tab", "ab\bc\td\n", []string{"ac      d"}},
		{"controls dropped", "a\x07\x00b\n", []string{"ab"}},
		{"split utf-8 stays whole", "你好\n", []string{"你好"}},
		{"charset designation", "\x1b(Bok\n", []string{"ok"}},
	} {
		if got := texts(HistoryText([]byte(c.in))); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHistoryOutputMarksStderr(t *testing.T) {
	o := runs.Output{Chunks: []runs.Chunk{
		{Stream: ptyhost.Stdout, Data: []byte("out\n")},
		{Stream: ptyhost.Stderr, Data: []byte("err\n")},
	}}
	got := HistoryOutput(o)
	if len(got) != 2 || got[0].Err || !got[1].Err {
		t.Errorf("%+v", got)
	}
}

func TestReadTailCutsAtALine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	if err := os.WriteFile(path, []byte(strings.Repeat("0123456789\n", 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := ReadTail(path, 25)
	if err != nil || string(b) != "0123456789\n0123456789\n" {
		t.Errorf("%q %v", b, err)
	}
}

// A transcript begun lately (the one before it moved aside as PATH.1) is read with
// the end of the one before: scroll mode shows what came just before it too.
func TestReadTailAcrossARotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	os.WriteFile(path+".1", []byte("old one\nold two\n"), 0o600)
	os.WriteFile(path, []byte("new\n"), 0o600)
	b, err := ReadTail(path, 14)
	if err != nil || string(b) != "old two\nnew\n" {
		t.Errorf("%q %v", b, err)
	}
}

// The pager gets LESS=R unless the user set LESS: a PAGER=less shows colours.
func TestPagerEnv(t *testing.T) {
	if got := pagerEnv([]string{"PATH=/bin"}); !slices.Contains(got, "LESS=R") {
		t.Errorf("no LESS=R in %q", got)
	}
	if got := pagerEnv([]string{"LESS=-S"}); slices.Contains(got, "LESS=R") || !slices.Contains(got, "LESS=-S") {
		t.Errorf("the user's LESS replaced: %q", got)
	}
}
