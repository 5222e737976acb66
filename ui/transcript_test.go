package ui

import (
	"fmt"
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
		if got := texts(historyText([]byte(c.in))); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHistoryOutputMarksStderr(t *testing.T) {
	o := runs.Output{Chunks: []runs.Chunk{
		{Stream: ptyhost.Stdout, Data: []byte("out\n")},
		{Stream: ptyhost.Stderr, Data: []byte("err\n")},
	}}
	got := historyOutput(o)
	if len(got) != 2 || got[0].Err || !got[1].Err {
		t.Errorf("%+v", got)
	}
}

func TestReadTailCutsAtALine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	if err := os.WriteFile(path, []byte(strings.Repeat("0123456789\n", 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := readTail(path, 25)
	if err != nil || string(b) != "0123456789\n0123456789\n" {
		t.Errorf("%q %v", b, err)
	}
}

// A PTY run's history is its screen's scrollback: the lines that scrolled off it
// (kept as tmux keeps them), then the screen; without a screen (a run from before
// Corral started), its transcript; a pipe run's is its log.
func TestHistoryCmdReadsTranscript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.log")
	os.WriteFile(path, []byte("\x1b[1mhello\x1b[0m\r\nworld\r\n"), 0o600)
	core := newFake()
	msg := historyCmd(core, "r1", path, false)().(HistoryMsg)
	if msg.Err != nil || !slices.Equal(texts(msg.Lines), []string{"hello", "world"}) {
		t.Errorf("%+v", msg)
	}
	if calls := core.Calls(); !slices.Equal(calls, []string{"Capture r1"}) {
		t.Errorf("a PTY run without a screen: %q, want its screen asked for, then its transcript read", calls)
	}
	var out strings.Builder
	for i := range 30 {
		fmt.Fprintf(&out, "\x1b[4:3;58:5:9mline\x1b[0m %d\r\n", i)
	}
	core.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte(out.String())}}})
	msg = historyCmd(core, "r1", path, false)().(HistoryMsg)
	if len(msg.Lines) != 30 || msg.Lines[0].Text != "line 0" || msg.Lines[29].Text != "line 29" {
		t.Fatalf("a PTY run's history is not its screen's scrollback: %q", texts(msg.Lines))
	}
	if got := msg.Lines[0].Styled(); got != "\x1b[0m\x1b[4;4:3;58:5:9mline\x1b[0m 0\x1b[0m" {
		t.Errorf("the history's curly underline and its colour: %q", got)
	}
	core.logs["p1"] = runs.Output{Chunks: []runs.Chunk{{Stream: ptyhost.Stderr, Data: []byte("e\n")}}}
	msg = historyCmd(core, "p1", path, true)().(HistoryMsg)
	if len(msg.Lines) != 1 || !msg.Lines[0].Err {
		t.Errorf("a pipe run's history must come from its log: %+v", msg)
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
