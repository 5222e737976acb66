package terminal

import (
	"os"
	"testing"
)

// The pager gets a file of the history with Corral's SGR (colour kept, the hosted OSC
// gone), and less -R when $PAGER is not set.
func TestPagerFile(t *testing.T) {
	t.Setenv("PAGER", "")
	lines := HistoryText([]byte("\x1b]0;title\a\x1b[31mred\x1b[0m\r\nplain\r\n"))
	msg := pagerCmd(lines)().(PagerFileMsg)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	defer os.Remove(msg.Path)
	b, _ := os.ReadFile(msg.Path)
	if want := "\x1b[0m\x1b[31mred\x1b[0m\nplain\n"; string(b) != want || msg.Pager != "less -R" {
		t.Errorf("pager file %q with %q, want %q with less -R", b, msg.Pager, want)
	}
	t.Setenv("PAGER", "most")
	if msg := pagerCmd(lines)().(PagerFileMsg); msg.Pager != "most" {
		t.Errorf("$PAGER ignored: %q", msg.Pager)
	} else {
		os.Remove(msg.Path)
	}
}
