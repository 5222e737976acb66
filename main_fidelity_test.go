package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/ptyhost/screen"
)

// Issue 10 item 6: what package screen's TestFidelity checks for the Screen alone, end to
// end. A recorded program stream is replayed in a Corral pane (zoomed, in a private
// tmux), and the cells the outer tmux shows in the pane are compared, text and
// attributes, with the committed capture of a bare tmux pane fed the same bytes
// (ptyhost/screen/testdata/fidelity/NAME.tmux), so that nothing between the Screen and the
// terminal (the pane's frame, Lip Gloss, Bubble Tea's renderer) undoes what the
// Screen got right.
func TestReplayMatchesBareTmux(t *testing.T) {
	for _, name := range []string{"probe", "edges", "bce", "attrs"} {
		t.Run(name, func(t *testing.T) { replayMatchesBare(t, name) })
	}
}

const fidCols, fidRows = 80, 24 // the size record.sh records at

func replayMatchesBare(t *testing.T, name string) {
	dir := filepath.Join("ptyhost", "screen", "testdata", "fidelity")
	raw, err := os.ReadFile(filepath.Join(dir, name+".raw"))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := os.ReadFile(filepath.Join(dir, name+".tmux"))
	if err != nil {
		t.Fatal(err)
	}
	cast := writeCast(t, raw)
	// A pane wider and taller than the recording: the replay keeps 80×24 and the
	// frame pads every line to the pane, which is where widths must agree.
	const w, h = 100, 30
	// TERM and COLORTERM as record.sh recorded with: truecolour reaches the outer
	// tmux as such (Bubble Tea maps it to the 256-colour palette on "screen").
	x := startTmux(t, w, h, fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor CORRAL_STATE_DIR=%s %s replay --speed 100 %s",
		t.TempDir(), corralBin, cast))
	x.waitFor(`replay stream\.cast`, 20*time.Second)
	x.keys("z")
	x.waitUntil("the whole replay, zoomed", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "[zoom]") && strings.Contains(s, "· end of recording") // the title's progress
	})
	outer := splitCells(t, x.run("capture-pane", "-p", "-e", "-t", "t"), h, w)
	want := splitCells(t, string(bare), fidRows, fidCols)
	for y := range fidRows {
		line := outer[1+y] // line 0 is the pane's top edge
		if len(line) != w || line[0].text != "│" || line[w-1].text != "│" || rowString(line[1:w-1]) != rowString(line[1:1+fidCols]) {
			t.Errorf("row %d: the pane's frame is broken (%d cells):\n|%s|", y+1, len(line), rowString(line))
			continue
		}
		got := line[1 : 1+fidCols]
		for i := range fidCols {
			g, wt := got[i].visible(), want[y][i].visible()
			if want[y][i].pad { // tmux leaves out a line's blanks past its last written cell
				g, wt = tcell{text: g.text}, tcell{text: wt.text}
			}
			if g != wt {
				t.Errorf("row %d col %d: Corral pane %+v, bare tmux %+v\n  pane |%s|\n  bare |%s|",
					y+1, i+1, g, wt, rowString(got), rowString(want[y]))
				break
			}
		}
	}
	x.keys("q")
	x.answer(`(?i)quit.*\?`, "y")
	x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
}

// writeCast wraps a raw stream in an asciicast v2 recording of one output event.
func writeCast(t *testing.T, raw []byte) string {
	t.Helper()
	ev, err := json.Marshal([]any{0.0, "o", string(raw)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stream.cast")
	body := fmt.Sprintf("{\"version\": 2, \"width\": %d, \"height\": %d}\n%s\n", fidCols, fidRows, ev)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// tcell is one column of a tmux capture: its text (a character and the zero-width
// ones after it; "" for the right half of a wide one) and how it is drawn.
type tcell struct {
	text string
	pen  tpen
	pad  bool // past the end of its captured line (see splitCells)
}

type tpen struct {
	attr        [10]bool // SGR 1…9 (4 is underline, 6 counts as 5)
	ul          int      // underline style (4:n)
	fg, bg, ulc string
	acs         bool // SO: the DEC line-drawing set
	overline    bool // SGR 53, which tmux 3.3a's capture writes 5:3
}

// visible is the cell as it looks: a blank shows only its background, reverse,
// underline and strikethrough (the same rule as package screen's TestFidelity).
//
// Overline is left out: Bubble Tea's cell model (ultraviolet's Style) has none, so a
// Corral pane cannot draw it; the Screen keeps it (package screen's TestFidelity).
func (c tcell) visible() tcell {
	c.pen.acs, c.pen.overline = false, false
	if !c.pen.attr[4] {
		c.pen.ul, c.pen.ulc = 0, ""
	}
	if c.text != " " {
		return c
	}
	p := tpen{bg: c.pen.bg, ul: c.pen.ul, ulc: c.pen.ulc}
	p.attr[4], p.attr[7], p.attr[9] = c.pen.attr[4], c.pen.attr[7], c.pen.attr[9]
	if p.attr[7] {
		p.fg = c.pen.fg
	}
	return tcell{text: " ", pen: p}
}

func rowString(row []tcell) string {
	var b strings.Builder
	for _, c := range row {
		b.WriteString(c.text)
	}
	return strings.TrimRight(b.String(), " ")
}

// splitCells reads a whole capture into rows of cols cells (more when a line is
// wider: a broken frame). tmux ends a line at its last written cell, so the rest
// are blanks marked pad: blanks that an erase gave a background colour are left
// out too, so a pad cell says only "blank". Its pen carries over from line to line.
func splitCells(t *testing.T, capture string, rows, cols int) [][]tcell {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	out := make([][]tcell, rows)
	var pen tpen
	for y := range out {
		if y < len(lines) {
			out[y] = parseLineFrom(t, lines[y], &pen)
		}
		for len(out[y]) < cols {
			out[y] = append(out[y], tcell{text: " ", pad: true})
		}
	}
	return out
}

// parseLineFrom reads one captured line: SGR sequences, SO/SI, and characters
// placed by screen.RuneWidth. The pen carries over, as in tmux's capture.
func parseLineFrom(t *testing.T, s string, pen *tpen) []tcell {
	t.Helper()
	var row []tcell
	for i := 0; i < len(s); {
		switch s[i] {
		case 0x1b:
			end := strings.IndexByte(s[i:], 'm')
			if end < 0 || i+1 >= len(s) || s[i+1] != '[' {
				t.Fatalf("capture has a sequence other than SGR: %q", s[i:min(i+12, len(s))])
			}
			pen.sgr(s[i+2 : i+end])
			i += end + 1
			continue
		case 0x0e, 0x0f:
			pen.acs = s[i] == 0x0e
			i++
			continue
		}
		r, n := decodeRune(s[i:])
		i += n
		if pen.acs {
			r = lineDrawing(r)
		}
		switch screen.RuneWidth(r) {
		case 0:
			if k := lastBase(row); k >= 0 {
				row[k].text += string(r)
			}
		case 2:
			row = append(row, tcell{text: string(r), pen: *pen}, tcell{pen: *pen})
		default:
			row = append(row, tcell{text: string(r), pen: *pen})
		}
	}
	return row
}

func lastBase(row []tcell) int {
	k := len(row) - 1
	for k >= 0 && row[k].text == "" {
		k--
	}
	return k
}

func decodeRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 1
}

// lineDrawing maps the DEC special graphics characters tmux captures as SO x SI.
func lineDrawing(r rune) rune {
	const from, to = "`afgjklmnopqrstuvwxyz{|}~", "◆▒°±┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·"
	if i := strings.IndexRune(from, r); i >= 0 {
		return []rune(to)[i]
	}
	return r
}

// sgr applies one SGR's parameters (semicolon and colon forms).
func (p *tpen) sgr(params string) {
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		sub := strings.Split(fields[i], ":")
		n, _ := strconv.Atoi(sub[0])
		switch {
		case n == 0:
			*p = tpen{acs: p.acs}
		case n == 4:
			p.attr[4], p.ul = true, 1
			if len(sub) > 1 {
				p.ul, _ = strconv.Atoi(sub[1])
				p.attr[4] = p.ul != 0
			}
		case n == 53 || n == 5 && len(sub) == 2 && sub[1] == "3":
			p.overline = true
		case n == 55:
			p.overline = false
		case n == 6: // rapid blink is blink
			p.attr[5] = true
		case n >= 1 && n <= 9:
			p.attr[n] = true
		case n == 21:
			p.attr[4], p.ul = true, 2
		case n == 22:
			p.attr[1], p.attr[2] = false, false
		case n >= 23 && n <= 29:
			p.attr[n-20] = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			p.fg = "p" + strconv.Itoa(n%10+boolInt(n >= 90)*8)
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			p.bg = "p" + strconv.Itoa(n%10+boolInt(n >= 100)*8)
		case n == 39:
			p.fg = ""
		case n == 49:
			p.bg = ""
		case n == 59:
			p.ulc = ""
		case n == 38 || n == 48 || n == 58:
			c, used := extColor(sub[1:], fields[i+1:])
			i += used
			switch n {
			case 38:
				p.fg = c
			case 48:
				p.bg = c
			default:
				p.ulc = c
			}
		}
	}
}

// extColor reads 5;n or 2;r;g;b after a 38/48/58, from its colon sub-parameters or
// else from the fields after it, and returns how many fields it used.
func extColor(sub, next []string) (string, int) {
	used := 0
	if len(sub) == 0 {
		switch {
		case len(next) >= 2 && next[0] == "5":
			sub, used = next[:2], 2
		case len(next) >= 4 && next[0] == "2":
			sub, used = next[:4], 4
		default:
			return "", len(next)
		}
	}
	num := func(i int) int { n, _ := strconv.Atoi(sub[min(i, len(sub)-1)]); return n }
	switch {
	case num(0) == 5:
		return "p" + strconv.Itoa(num(1)), used
	case num(0) == 2 && len(sub) >= 5: // 2:cs:r:g:b
		return fmt.Sprintf("#%02x%02x%02x", num(2), num(3), num(4)), used
	case num(0) == 2 && len(sub) == 4:
		return fmt.Sprintf("#%02x%02x%02x", num(1), num(2), num(3)), used
	}
	return "", used
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
