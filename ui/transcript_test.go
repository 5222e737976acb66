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
	"corral/ui/terminal"
)

// A PTY run's history is its screen's scrollback: the lines that scrolled off it
// (kept as tmux keeps them), then the screen; without a screen (a run from before
// Corral started), its transcript; a pipe run's is its log.
func TestHistoryCmdReadsTranscript(t *testing.T) {
	texts := func(ls []terminal.HistLine) (out []string) {
		for _, l := range ls {
			out = append(out, l.Text)
		}
		return out
	}
	path := filepath.Join(t.TempDir(), "t.log")
	os.WriteFile(path, []byte("\x1b[1mhello\x1b[0m\r\nworld\r\n"), 0o600)
	engine := newFake()
	msg := historyCmd(engine, "r1", path, false)().(HistoryMsg)
	if msg.Err != nil || !slices.Equal(texts(msg.Lines), []string{"hello", "world"}) {
		t.Errorf("%+v", msg)
	}
	if calls := engine.Calls(); !slices.Equal(calls, []string{"Capture r1"}) {
		t.Errorf("a PTY run without a screen: %q, want its screen asked for, then its transcript read", calls)
	}
	var out strings.Builder
	for i := range 30 {
		fmt.Fprintf(&out, "\x1b[4:3;58:5:9mline\x1b[0m %d\r\n", i)
	}
	engine.ptyOutput("r1", runs.Output{Chunks: []runs.Chunk{{Data: []byte(out.String())}}})
	msg = historyCmd(engine, "r1", path, false)().(HistoryMsg)
	if len(msg.Lines) != 30 || msg.Lines[0].Text != "line 0" || msg.Lines[29].Text != "line 29" {
		t.Fatalf("a PTY run's history is not its screen's scrollback: %q", texts(msg.Lines))
	}
	if got := msg.Lines[0].Styled(); got != "\x1b[0m\x1b[4;4:3;58:5:9mline\x1b[0m 0\x1b[0m" {
		t.Errorf("the history's curly underline and its colour: %q", got)
	}
	engine.logs["p1"] = runs.Output{Chunks: []runs.Chunk{{Stream: ptyhost.Stderr, Data: []byte("e\n")}}}
	msg = historyCmd(engine, "p1", path, true)().(HistoryMsg)
	if len(msg.Lines) != 1 || !msg.Lines[0].Err {
		t.Errorf("a pipe run's history must come from its log: %+v", msg)
	}
}
