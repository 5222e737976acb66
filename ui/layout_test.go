package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"corral/reaper"
	"corral/runs"
)

// The terminal pane's inner columns at common sizes (before the side panes were made
// narrower: 46, 58, 82 and 134), and panes that tile the screen above the status line.
func TestLayoutWidths(t *testing.T) {
	for _, c := range []struct {
		w, h      int
		p         panes
		termInner int
	}{
		{80, 24, panesAll, 52}, {100, 30, panesAll, 68}, {140, 40, panesAll, 96}, {200, 50, panesAll, 138},
		{80, 24, panesList, 54}, {100, 30, panesList, 74}, {140, 40, panesList, 110}, {200, 50, panesList, 158},
	} {
		l := computeLayout(c.w, c.h, 3, false, c.p)
		if got := l.term.w - 2; got != c.termInner {
			t.Errorf("%d×%d %s: terminal pane %d columns, want %d", c.w, c.h, c.p, got, c.termInner)
		}
		if l.term.w*3 < c.w*2 {
			t.Errorf("%d×%d %s: terminal pane %d of %d columns: less than two thirds", c.w, c.h, c.p, l.term.w, c.w)
		}
		bh := c.h - 1
		if l.list.w+l.term.w != c.w || l.list.h+l.details.h != bh || l.term.h+l.events.h != bh {
			t.Errorf("%d×%d %s: panes do not tile the screen: %+v", c.w, c.h, c.p, l)
		}
		if c.p == panesList && (l.details.w != 0 || l.events.w != 0) {
			t.Errorf("%s: details or events shown: %+v", c.p, l)
		}
		if !l.events.contains(l.events.x, l.events.y) && c.p == panesAll {
			t.Errorf("events rect %+v does not contain its corner", l.events)
		}
	}
	z := computeLayout(140, 40, 3, true, panesList)
	if z.term != (rect{w: 140, h: 39}) || z.list.w != 0 {
		t.Errorf("zoomed: %+v", z)
	}
}

// layoutRuns are a live agent, a run with a long name ended by the no-output
// watchdog, and a configured run not started.
func layoutRuns() (runs.Info, runs.Info, runs.Spec) {
	agent := liveRun("r1", "claude", true)
	long := endedRun("r2", "integration-tests-ubuntu")
	long.Reason, long.Signal = runs.NoOutputTimeout, 9
	return agent, long, runs.Spec{Name: "api-server", Shell: "go run ./cmd/api"}
}

func layoutHarness(t *testing.T, w, h int, o Options) *harness {
	agent, long, spec := layoutRuns()
	engine := newFake(agent, long)
	engine.screens["r1"] = screenWith(80, 24, "claude> hello\r\n")
	o.Initial, o.Pending = engine.snap, []runs.Spec{spec}
	return harnessWith(t, engine, o, w, h)
}

// Frames at the four common sizes, with every side pane and with the run list alone.
func TestFrameLayoutsGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 40}, {200, 50}} {
		for _, p := range []panes{panesAll, panesList} {
			h := layoutHarness(t, sz[0], sz[1], Options{Prefs: Prefs{Panes: p.String()}})
			goldenView(t, fmt.Sprintf("frame_%dx%d_%s", sz[0], sz[1], p), h.m.View().Content, sz[0])
		}
	}
}

// At 200 columns the long name and the full reason are shown whole; at 100 the name
// keeps more than its first few letters.
func TestRunListUsesTheWidth(t *testing.T) {
	h := layoutHarness(t, 200, 50, Options{})
	if v := h.view(); !strings.Contains(v, "integration-tests-ubuntu") ||
		!strings.Contains(v, "no-output-timeout sig9") {
		t.Errorf("name or reason cut at 200 columns:\n%s", v)
	}
	h = layoutHarness(t, 100, 30, Options{})
	if v := h.view(); !strings.Contains(v, "integratio") || !strings.Contains(v, "no-output") {
		t.Errorf("name or reason cut short at 100 columns:\n%s", v)
	}
}

// words are the words of a region of a screen: between frame characters and spaces.
var wordRE = regexp.MustCompile(`[^\s│┌┐└┘─…]+`)

func words(lines []string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lines {
		for _, w := range wordRE.FindAllString(l, -1) {
			out[w] = true
		}
	}
	return out
}

// paneLines are the lines of the rectangle r of a frame, without its frame.
func paneLines(frame string, r rect) []string {
	var out []string
	lines := strings.Split(stripANSI(frame), "\n")
	for y := r.y + 1; y < r.y+r.h-1 && y < len(lines); y++ {
		runes := []rune(lines[y])
		out = append(out, string(runes[min(r.x+1, len(runes)):min(r.x+r.w-1, len(runes))]))
	}
	return out
}

// Every word the details pane shows at 80×24 is a word it shows at 200×50: nothing is
// cut mid-word, long lines wrap.
func TestDetailsWrapAtWords(t *testing.T) {
	for _, sel := range []string{"r1", "r2"} {
		wide := layoutHarness(t, 200, 50, Options{})
		narrow := layoutHarness(t, 80, 24, Options{})
		for _, h := range []*harness{wide, narrow} {
			h.m.list.Select(sel)
			h.m.syncSelection()
		}
		all := words(paneLines(wide.m.View().Content, wide.m.lay.details))
		for w := range words(paneLines(narrow.m.View().Content, narrow.m.lay.details)) {
			if !all[w] {
				t.Errorf("%s: %q at 80×24 is not a word of the details at 200×50:\n%s", sel, w, narrow.view())
			}
		}
	}
}

// The help at 80×24 is two pages; together they hold every word of the help on a
// large screen, none cut; down turns the page, another key closes it.
func TestHelpPagesAtWords(t *testing.T) {
	big := layoutHarness(t, 240, 80, Options{})
	big.key("?")
	want := words(strings.Split(big.view(), "\n")[1:])
	h := layoutHarness(t, 80, 24, Options{})
	h.key("?")
	first := h.view()
	if !strings.Contains(first, "page 1/2") {
		t.Fatalf("want two pages at 80×24:\n%s", first)
	}
	h.key("down")
	second := h.view()
	if !strings.Contains(second, "page 2/2") {
		t.Fatalf("down did not turn the page:\n%s", second)
	}
	goldenView(t, "help_80x24_p2", h.m.View().Content, 80)
	got := words(append(strings.Split(first, "\n")[1:], strings.Split(second, "\n")[1:]...))
	for w := range got {
		if !want[w] {
			t.Errorf("%q in the 80×24 help is not a word of the help", w)
		}
	}
	for w := range want {
		if !got[w] {
			t.Errorf("%q of the help is missing at 80×24", w)
		}
	}
	h.key("x")
	if h.m.mode != modeBrowse {
		t.Errorf("another key did not close the help: mode %d", h.m.mode)
	}
}

// The layout key shows the run list alone, fits the PTY run to the wider pane, and
// saves the choice; a new UI of the same state dir opens with it.
func TestLayoutKeySwitchesAndIsRemembered(t *testing.T) {
	path := filepath.Join(t.TempDir(), PrefsFile)
	h := layoutHarness(t, 140, 40, Options{PrefsPath: path})
	msgs := h.key("l")
	if h.m.lay.panes != panesList || h.m.lay.details.w != 0 {
		t.Fatalf("layout %+v after l", h.m.lay)
	}
	if !slices.Contains(h.engine.called("Resize"), "Resize r1 110 37") {
		t.Errorf("the run was not fitted to the wider pane: %q", h.engine.called("Resize"))
	}
	if v := h.view(); strings.Contains(v, "Details") || strings.Contains(v, "Events") {
		t.Errorf("details or events still shown:\n%s", v)
	}
	saved := false
	for _, m := range msgs {
		if s, ok := m.(PrefsSavedMsg); ok {
			saved = s.Err == nil
		}
	}
	p, err := LoadPrefs(path)
	if !saved || err != nil || p.Panes != "list" {
		t.Fatalf("saved %v, prefs %+v, %v", saved, p, err)
	}
	again := layoutHarness(t, 140, 40, Options{Prefs: p, PrefsPath: path})
	if again.m.lay.panes != panesList {
		t.Errorf("a new UI opened with %s", again.m.lay.panes)
	}
	again.key("l")
	if p, _ := LoadPrefs(path); again.m.lay.panes != panesAll || p.Panes != "all" {
		t.Errorf("back: layout %s, saved %+v", again.m.lay.panes, p)
	}
}

// A prefs file that is not a regular file, or not JSON, is the defaults and an error;
// a missing one is the defaults.
func TestLoadPrefs(t *testing.T) {
	dir := t.TempDir()
	if p, err := LoadPrefs(filepath.Join(dir, "none.json")); err != nil || !reflect.DeepEqual(p, Prefs{}) {
		t.Errorf("missing: %+v %v", p, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{"), 0o600)
	if p, err := LoadPrefs(bad); err == nil || !reflect.DeepEqual(p, Prefs{}) {
		t.Errorf("malformed: %+v %v", p, err)
	}
	good := filepath.Join(dir, "good.json")
	if err := SavePrefs(good, Prefs{Panes: "list"}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(good, link)
	if p, err := LoadPrefs(link); err == nil || !reflect.DeepEqual(p, Prefs{}) {
		t.Errorf("a link was followed: %+v %v", p, err)
	}
	if parsePanes("sideways") != panesAll {
		t.Error("an unknown layout is not the default")
	}
}

// A failed save is reported in the events pane; the layout still changes.
func TestLayoutSaveErrorShown(t *testing.T) {
	h := layoutHarness(t, 140, 40, Options{PrefsPath: filepath.Join(t.TempDir(), "missing", PrefsFile)})
	h.key("l", "l")
	if h.m.lay.panes != panesAll || !strings.Contains(h.view(), "save layout") {
		t.Errorf("want the save error in the events pane:\n%s", h.view())
	}
}

// The process tree is a table: at any width each process is one row under the header,
// its columns where the header's are (cut at the pane's edge, never wrapped).
func TestDetailsTreeRowsStayRows(t *testing.T) {
	for _, sz := range [][2]int{{80, 60}, {100, 50}, {140, 40}} { // tall enough for the tree
		h := layoutHarness(t, sz[0], sz[1], Options{})
		h.engine.trees["r1"] = []reaper.TreeProc{
			{Proc: reaper.Proc{PID: 4242, PGID: 4242, SID: 4242, State: 'S'}, Mark: reaper.MarkRoot, Argv: []string{"claude"}},
			{Proc: reaper.Proc{PID: 4250, PGID: 4242, SID: 4242, State: 'S'}, Mark: reaper.MarkMember, Depth: 1,
				Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--long-argument"}},
		}
		h.m.list.Select("r1")
		h.send(h.m.req.tree(h.m.engine, h.m.list.SelectedLive())())
		lines := paneLines(h.m.View().Content, h.m.lay.details)
		head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "PID") })
		if head < 0 || head+2 >= len(lines) {
			t.Fatalf("%dx%d: no tree table:\n%s", sz[0], sz[1], strings.Join(lines, "\n"))
		}
		col := strings.Index(lines[head], "PID") + len("PID")
		for i, pid := range []string{"4242", "4250"} {
			if row := lines[head+1+i]; strings.Index(row, pid)+len(pid) != col {
				t.Errorf("%dx%d: row %d is not the process %s under PID:\n%s", sz[0], sz[1], i+1, pid, strings.Join(lines, "\n"))
			}
		}
	}
}
