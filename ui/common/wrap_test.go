package common

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Wrapped styled text: every line closes its styles and a continuation line reopens
// the style it is in; continuation lines hang under the value.
func TestWrapHangingKeepsStyles(t *testing.T) {
	st := DefaultStyles()
	line := " label   " + st.Warn.Render("one two three four five") + " six"
	got := WrapHanging(line, 20, 9)
	if len(got) < 2 {
		t.Fatalf("not wrapped: %q", got)
	}
	for i, l := range got {
		if w := WidthOf(l); w > 20 {
			t.Errorf("line %d is %d columns: %q", i, w, l)
		}
		if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, "\x1b[m") {
			t.Errorf("line %d leaves a style open: %q", i, l)
		}
	}
	if !strings.HasPrefix(got[1], strings.Repeat(" ", 9)+"\x1b[1") {
		t.Errorf("continuation does not hang under the value in its style: %q", got[1])
	}
	if strings.Join(strings.Fields(ansi.Strip(strings.Join(got, " "))), " ") != "label one two three four five six" {
		t.Errorf("words lost or cut: %q", got)
	}
}

// A path too long for a line breaks after one of its slashes, not inside a name.
func TestWrapBreaksAPathBetweenDirectories(t *testing.T) {
	got := WrapHanging(" path    /tmp/state/worktrees/repo-a1bcb99e/corral-fix-a", 24, 9)
	want := []string{" path    /tmp/state/", " worktrees/", " repo-a1bcb99e/", " corral-fix-a"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapped %q, want %q", got, want)
	}
}
