package diffview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"corral/runs/workspace"
	"corral/ui/common"
	"corral/ui/internal/uitest"
)

const small = `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO	tabbed
 three
diff --git a/b.go b/b.go
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/b.go
@@ -0,0 +1,2 @@
+package b
+// foo
\ No newline at end of file
diff --git a/img.png b/img.png
new file mode 100644
index 0000000..4444444
Binary files /dev/null and b/img.png differ
`

var testWT = workspace.Worktree{Repo: "/r", Path: "/w", Branch: "corral/agent", Base: "0123456789abcdef0123456789abcdef01234567", BaseRef: "main"}

// promptKeys are the dialogs' accept and dismiss, as the root has them.
var accept, dismiss = common.Bind("accept", "enter"), common.Bind("dismiss", "esc")

func newView(w, h int) Model {
	km := DefaultKeyMap()
	m := New(common.New(func() time.Time { return uitest.T0 }), &km, PromptKeys{Accept: &accept, Dismiss: &dismiss})
	m.SetSize(w, h)
	return m
}

// loaded is a view of text, indexed as the UI indexes it: by running Load's command.
func loaded(t testing.TB, text string, w, h int) Model {
	m := newView(w, h)
	gen := m.Open("agent", testWT)
	cmd := m.Load(gen, []byte(text), workspace.Stat{Added: 3, Removed: 1, Files: 3}, testWT)
	if cmd == nil {
		t.Fatal("Load of the current generation returned no command")
	}
	m, _ = m.Update(cmd())
	return m
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m, _ = m.Update(keyMsg(k))
	}
	return m
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m = press(m, string(r))
	}
	return m
}

func plainLines(m Model) []string { return strings.Split(ansi.Strip(m.View()), "\n") }

func TestViewSmall(t *testing.T) {
	m := loaded(t, small, 60, 14)
	uitest.GoldenView(t, "diff_small", m.View(), 60)
}

func TestColoursByKind(t *testing.T) {
	m := loaded(t, small, 60, 30)
	st := StylesFrom(common.DefaultStyles())
	view := m.View()
	for _, want := range []string{
		st.Add.Render("+TWO    tabbed"), st.Del.Render("-two"), st.Hunk.Render("@@ -1,3 +1,3 @@"),
		st.File.Render("diff --git a/a.txt b/a.txt"), st.Path.Render("+++ b/a.txt"),
		st.Meta.Render("Binary files /dev/null and b/img.png differ"), st.Note.Render(`\ No newline at end of file`),
	} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\t") {
		t.Error("a tab reached the view")
	}
}

func TestEveryLineIsTheWidth(t *testing.T) {
	long := "diff --git a/x b/x\n@@ -1 +1 @@\n-" + strings.Repeat("é", 300) + "\n+" + strings.Repeat("界", 300) + "\n"
	for _, text := range []string{small, "", long} {
		for _, w := range []int{1, 2, 10, 61, 80} {
			m := loaded(t, text, w, 8)
			for _, x := range []int{0, 1, 3, 20} {
				m.x = x
				m.ver++
				lines := strings.Split(m.View(), "\n")
				if len(lines) != 8 {
					t.Fatalf("w %d: %d lines, want 8", w, len(lines))
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n != w {
						t.Errorf("w %d x %d: line %d is %d columns: %q", w, x, i, n, l)
					}
				}
			}
		}
	}
}

func TestIndexKindsAndFiles(t *testing.T) {
	d := Index([]byte(small))
	if d.Len() != 22 || d.Files() != 3 {
		t.Fatalf("lines %d files %d, want 22 and 3", d.Len(), d.Files())
	}
	if want := []string{"a.txt", "b.go", "img.png"}; fmt.Sprint(d.names) != fmt.Sprint(want) {
		t.Errorf("names %q, want %q", d.names, want)
	}
	if fmt.Sprint(d.hunks) != "[4 14]" {
		t.Errorf("hunks at %v, want [4 14]", d.hunks)
	}
	// A removed line that reads like a header is a removal: the hunk's counts say so.
	d = Index([]byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n--- a/y\n-++ b/y\n+same\n"))
	if got := fmt.Sprint(d.kinds); got != fmt.Sprint([]kind{kindFile, kindPath, kindPath, kindHunk, kindDel, kindDel, kindAdd}) {
		t.Errorf("kinds %v", got)
	}
}

func TestColourEscapesAreRemoved(t *testing.T) {
	coloured := "\x1b[1mdiff --git a/x b/x\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-old\x1b[m\n\x1b[32m+new\x1b[m\n"
	m := loaded(t, coloured, 40, 8)
	if strings.Contains(m.View(), "[36m") || strings.Contains(m.View(), "[32m") {
		t.Fatalf("git's colours reached the view: %q", m.View())
	}
	if got := plainLines(m)[4]; !strings.HasPrefix(got, "+new") {
		t.Errorf("line 4 %q, want +new", got)
	}
	if m.doc.kinds[3] != kindAdd {
		t.Errorf("the added line's kind %v, want kindAdd", m.doc.kinds[3])
	}
}

func TestControlsAreShownNotSent(t *testing.T) {
	m := loaded(t, "diff --git a/x b/x\n@@ -1 +1 @@\n-a\x1b]0;pwned\x07b\r\n+c\x9bd\n", 40, 6)
	view := m.View()
	for _, bad := range []string{"\x07", "\r", "\x9b", "]0;pwned\x07"} {
		if strings.Contains(view, bad) {
			t.Errorf("view holds %q: %q", bad, view)
		}
	}
	// The escape was stripped at Index (OSC's ESC ]), the BEL and CR show as ^G and ^M.
	if got := plainLines(m)[3]; !strings.HasPrefix(got, "-a0;pwned^Gb^M") {
		t.Errorf("line %q", got)
	}
}

func TestFileAndHunkJumps(t *testing.T) {
	m := loaded(t, small, 60, 6)
	if m.top != 0 || !strings.Contains(plainLines(m)[0], "file 1/3 a.txt") {
		t.Fatalf("bar %q", plainLines(m)[0])
	}
	m = press(m, "]")
	if m.top != 9 || !strings.Contains(plainLines(m)[0], "file 2/3 b.go") {
		t.Errorf("next file: top %d bar %q", m.top, plainLines(m)[0])
	}
	m = press(m, "tab")
	if m.top != 18 || !strings.Contains(plainLines(m)[0], "file 3/3 img.png") {
		t.Errorf("next file: top %d bar %q", m.top, plainLines(m)[0])
	}
	m = press(m, "]") // no file after the last: stays
	if m.top != 18 {
		t.Errorf("past the last file: top %d, want 18", m.top)
	}
	m = press(m, "[", "[")
	if m.top != 0 {
		t.Errorf("previous file twice: top %d, want 0", m.top)
	}
	m = press(m, "}")
	if m.top != 4 || !strings.HasPrefix(plainLines(m)[1], "@@ -1,3") {
		t.Errorf("next hunk: top %d, line %q", m.top, plainLines(m)[1])
	}
	m = press(m, "}", "{")
	if m.top != 4 {
		t.Errorf("next hunk, previous hunk: top %d, want 4", m.top)
	}
}

// Files whose headers are on the last screen cannot come to the top: a jump to one
// still names it in the bar, and the next jump goes on from it, not from the top.
func TestFileJumpsOnTheLastScreen(t *testing.T) {
	m := loaded(t, small, 60, 16) // 14 rows of 22 lines: b.go (9) and img.png (18) on the last screen
	m = press(m, "]")
	if m.top != 8 || !strings.Contains(plainLines(m)[0], "file 2/3 b.go · line 10/22") {
		t.Fatalf("next file: top %d bar %q", m.top, plainLines(m)[0])
	}
	m = press(m, "]")
	if m.top != 8 || !strings.Contains(plainLines(m)[0], "file 3/3 img.png · line 19/22") {
		t.Errorf("the file after: top %d bar %q", m.top, plainLines(m)[0])
	}
	m = press(m, "[")
	if !strings.Contains(plainLines(m)[0], "file 2/3 b.go") {
		t.Errorf("back a file from the last: bar %q, want b.go", plainLines(m)[0])
	}
	m = press(m, "[", "j")
	if m.top != 1 || !strings.Contains(plainLines(m)[0], "file 1/3 a.txt · line 2/22") {
		t.Errorf("back to the first, a line down: top %d bar %q", m.top, plainLines(m)[0])
	}
}

func TestScrollBounds(t *testing.T) {
	m := loaded(t, small, 60, 6) // 4 rows of 22 lines
	m = press(m, "k", "b", "u")
	if m.top != 0 {
		t.Errorf("up from the top: %d", m.top)
	}
	m = press(m, "j", "down")
	if m.top != 2 {
		t.Errorf("two lines down: %d", m.top)
	}
	m = press(m, "ctrl+d")
	if m.top != 4 {
		t.Errorf("half a page (2) down: %d", m.top)
	}
	m = press(m, " ")
	if m.top != 7 {
		t.Errorf("a page (3) down: %d", m.top)
	}
	m = press(m, "G")
	if m.top != 18 || !strings.Contains(plainLines(m)[0], "line 19/22") {
		t.Errorf("last: top %d bar %q", m.top, plainLines(m)[0])
	}
	m = press(m, "j", " ", "d")
	if m.top != 18 {
		t.Errorf("down past the end: %d", m.top)
	}
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.top != 15 {
		t.Errorf("a wheel notch up: %d, want 15", m.top)
	}
	m = press(m, "g")
	if m.top != 0 {
		t.Errorf("first: %d", m.top)
	}
	m.SetSize(60, 40) // taller than the diff: the top stays at 0
	if m = press(m, "G"); m.top != 0 {
		t.Errorf("last when everything fits: %d", m.top)
	}
}

func TestSearch(t *testing.T) {
	m := loaded(t, small, 60, 6)
	m = press(m, "/")
	if !m.Typing() || !strings.Contains(plainLines(m)[5], "search:") {
		t.Fatalf("/ did not open the search: %q", plainLines(m)[5])
	}
	m = press(typeText(m, "new"), "enter")
	// "new" (smart case: any case) is on lines 10 and 19 ("new file mode") and 17
	// ("\ No newline").
	if fmt.Sprint(m.matches) != "[10 17 19]" || m.cur != 0 {
		t.Fatalf("matches %v cur %d", m.matches, m.cur)
	}
	if !strings.Contains(plainLines(m)[0], "/new 1/3") {
		t.Errorf("bar %q", plainLines(m)[0])
	}
	if !strings.Contains(m.View(), m.st.Current.Render("new")) {
		t.Errorf("the current match is not marked: %q", m.View())
	}
	top := m.top
	m = press(m, "n")
	if m.cur != 1 || m.top == top {
		t.Errorf("n: cur %d top %d", m.cur, m.top)
	}
	m = press(m, "n", "n")
	if m.cur != 0 {
		t.Errorf("n round the end: cur %d", m.cur)
	}
	m = press(m, "N")
	if m.cur != 2 {
		t.Errorf("N round the start: cur %d", m.cur)
	}
	// Capitals: case counts. TWO matches, two does not match it.
	m = press(typeText(press(m, "/", "ctrl+u"), "TWO"), "enter")
	if fmt.Sprint(m.matches) != "[7]" {
		t.Errorf("TWO: matches %v", m.matches)
	}
	m = press(typeText(press(m, "/", "ctrl+u"), "nothing here"), "enter")
	if len(m.matches) != 0 || !strings.Contains(plainLines(m)[5], `no match for "nothing here"`) {
		t.Errorf("no match: %v %q", m.matches, plainLines(m)[5])
	}
	m = press(typeText(press(m, "/"), "x"), "esc") // dismissed: the search stays
	if m.Typing() || m.query != "nothing here" {
		t.Errorf("dismissed: typing %v query %q", m.Typing(), m.query)
	}
}

func TestSearchMarksEveryMatchShown(t *testing.T) {
	m := loaded(t, "diff --git a/x b/x\n@@ -1 +1 @@\n-foo bar foo\n+Foo\n", 40, 8)
	m = press(typeText(press(m, "/"), "foo"), "enter")
	view, st := m.View(), m.st
	if n := strings.Count(view, st.Current.Render("foo")); n != 2 {
		t.Errorf("current line: %d marks, want 2: %q", n, view)
	}
	if !strings.Contains(view, st.Match.Render("Foo")) {
		t.Errorf("the other match is not marked: %q", view)
	}
}

func TestEmptyDiff(t *testing.T) {
	m := loaded(t, "", 60, 6)
	if got := plainLines(m)[1]; !strings.Contains(got, "no changes against main (0123456)") {
		t.Errorf("empty view: %q", got)
	}
	m = press(m, "j", "G", "]", "n") // nothing moves, nothing breaks
	if m.top != 0 {
		t.Errorf("top %d", m.top)
	}
}

func TestLongLines(t *testing.T) {
	long := "diff --git a/min.js b/min.js\n@@ -1 +1 @@\n-" + strings.Repeat("abcdefghij", 100000) + "\n+x\n"
	m := loaded(t, long, 80, 6)
	l := plainLines(m)[3]
	if ansi.StringWidth(l) != 80 || !strings.HasSuffix(l, "…") || !strings.HasPrefix(l, "-abcdefghijabc") {
		t.Errorf("long line %q", l)
	}
	m = press(m, "l")
	if l = plainLines(m)[3]; !strings.HasPrefix(l, "jabcdefghij") || !strings.Contains(plainLines(m)[0], "col 21") {
		t.Errorf("scrolled right: %q bar %q", l, plainLines(m)[0])
	}
	m = press(m, "h", "h")
	if m.x != 0 {
		t.Errorf("left past the start: x %d", m.x)
	}
}

func TestStaleAnswersAreDropped(t *testing.T) {
	m := newView(40, 6)
	old := m.Open("agent", testWT)
	stale := m.Load(old, []byte(small), workspace.Stat{}, testWT)
	gen := m.Refresh()
	if m.Load(old, []byte(small), workspace.Stat{}, testWT) != nil {
		t.Error("Load of an older generation made a command")
	}
	m, _ = m.Update(stale())
	if m.doc != nil {
		t.Fatal("an older generation's text was shown")
	}
	m.Failed(old, fmt.Errorf("late"))
	if m.err != "" {
		t.Errorf("an older generation's error was shown: %q", m.err)
	}
	m.Failed(gen, fmt.Errorf("git: not a git repository"))
	if got := plainLines(m)[1]; !strings.Contains(got, "diff: git: not a git repository") {
		t.Errorf("error view %q", got)
	}
}

func TestRefreshKeepsPlaceAndSearch(t *testing.T) {
	m := loaded(t, small, 60, 6)
	m = press(typeText(press(m, "/"), "three"), "enter")
	m = press(m, "g", "j", "j")
	gen := m.Refresh()
	if !strings.Contains(plainLines(m)[5], "reading the diff again") {
		t.Errorf("refreshing: %q", plainLines(m)[5])
	}
	m, _ = m.Update(m.Load(gen, []byte(small+" more\n"), workspace.Stat{}, testWT)())
	if m.top != 2 || len(m.matches) != 1 {
		t.Errorf("after the refresh: top %d matches %v", m.top, m.matches)
	}
}

// At 80 columns the bottom line still says how to close the view, and the bar leaves
// out whole words, not half of one.
func TestNarrowBarsKeepWholeWords(t *testing.T) {
	m := loaded(t, small, 80, 10)
	lines := plainLines(m)
	if last := lines[len(lines)-1]; !strings.Contains(last, "q/esc close") {
		t.Errorf("bottom line at 80 columns %q: no close", last)
	}
	if bar := lines[0]; !strings.Contains(bar, " DIFF  agent corral/agent +3 −1 ") {
		t.Errorf("bar at 80 columns %q", bar)
	}
	m.SetSize(90, 10)
	if bar := plainLines(m)[0]; !strings.Contains(bar, "corral/agent against main (0123456) +3 −1 ") {
		t.Errorf("bar at 90 columns %q", bar)
	}
	m.SetSize(50, 10)
	if bar := plainLines(m)[0]; !strings.Contains(bar, " DIFF  agent +3 −1 ") || strings.Contains(bar, "again") {
		t.Errorf("bar at 50 columns %q", bar)
	}
}
