package help

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/ui/common"
)

// The help turns its pages with the keys it is given, read when they are pressed (a
// key rebound after New is the one that turns them), and any other key closes it.
func TestHelpPagesTurnAndClose(t *testing.T) {
	down, pgdn, up, pgup, leave := common.Bind("down", "j"), common.Bind("page down", "pgdown"),
		common.Bind("up", "k"), common.Bind("page up", "pgup"), common.Bind("leave focus", "ctrl+]")
	hv := New(common.New(func() time.Time { return time.Time{} }), Keys{Down: &down, PageDown: &pgdn, Up: &up, PageUp: &pgup, Leave: &leave})
	hv.SetSize(60, 12)
	var g Group
	for i := range 30 {
		g.Keys = append(g.Keys, common.Bind(fmt.Sprintf("action %d", i), fmt.Sprintf("f%d", i)))
	}
	g.Title = "Keys"
	hv.Show([]Group{g})
	if v := ansi.Strip(hv.View()); !hv.Open() || !strings.Contains(v, "page 1/") || !strings.Contains(v, "j/pgdown: next") {
		t.Fatalf("open %v:\n%s", hv.Open(), v)
	}
	down.SetKeys("J") // rebound after New
	if hv, _ = hv.Update(tea.KeyPressMsg{Code: 'J', Text: "J"}); !hv.Open() || !strings.Contains(ansi.Strip(hv.View()), "page 2/") {
		t.Fatalf("J did not turn the page:\n%s", ansi.Strip(hv.View()))
	}
	if hv, _ = hv.Update(tea.KeyPressMsg{Code: 'k', Text: "k"}); !strings.Contains(ansi.Strip(hv.View()), "page 1/") {
		t.Fatalf("k did not turn back:\n%s", ansi.Strip(hv.View()))
	}
	if hv, _ = hv.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); hv.Open() {
		t.Fatal("another key did not close the help")
	}
}
