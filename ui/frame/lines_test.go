package frame

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/hinshun/vt10x"
)

// TestChangedLinesShowWhatAFullRedrawShows: a terminal (vt10x) fed the frames of the
// changed-lines path shows, after each, what one fed full redraws shows: the same
// glyphs and colours in every cell, the cursor at the same place, shown or hidden,
// in the shape asked for; with styles left open across lines, wide characters at the
// lines' ends and past them, lines that shrink, a link (OSC 8, a sequence the whole
// content is parsed for), resizes between frames, and with and without synchronized
// output (its marks balanced).
func TestChangedLinesShowWhatAFullRedrawShows(t *testing.T) {
	changedLinesAsFull(t, []string{"ab", "\x1b[1;31mR\x1b[m", "\x1b[32mG", "\x1b[0mz", "中", "中文字中文字中", "abcdefghijkl", "abcdefghijk中", "\x1b[7mr\x1b[27m", "", "\x1b[44m  \x1b[0m",
		"\x1b]8;;http://x\x1b\\L\x1b]8;;\x1b\\"})
}

// TestChangedLinesKeepColourForms: as TestChangedLinesShowWhatAFullRedrawShows, with
// lines that give one value in several forms (basic black, 256-colour 0 and 16,
// rgb(0,0,0)) on some rows while others keep theirs: a form changed on a row the frame
// writes is written (only the rows written are looked at for forms).
func TestChangedLinesKeepColourForms(t *testing.T) {
	changedLinesAsFull(t, []string{"ab", "\x1b[30mK\x1b[m", "\x1b[38;5;16mK\x1b[m", "\x1b[38;2;0;0;0mK", "\x1b[38;5;0mk\x1b[m",
		"\x1b[40m \x1b[m", "\x1b[48;5;16m \x1b[m", "\x1b[97mW\x1b[38;5;231mW\x1b[m", "\x1b[m", "", "cd"})
}

// changedLinesAsFull feeds random frames of pieces to a renderer and to one that
// redraws in full, and compares the terminals (vt10x) fed by each.
func changedLinesAsFull(t *testing.T, pieces []string) {
	const w, h = 12, 6
	for seed := range uint64(24) {
		f := &fakeTerm{}
		r := New(f, []string{"TERM=xterm-256color"}, w, h)
		r.SetSynchronized(seed%2 == 0)
		r.SetInterval(time.Hour)
		r.Start()
		f2 := &fakeTerm{}
		r2 := New(f2, []string{"TERM=xterm-256color"}, w, h)
		r2.SetInterval(time.Hour)
		vt := vt10x.New(vt10x.WithSize(w, h))
		r2.Start()
		vt2 := vt10x.New(vt10x.WithSize(w, h))
		rng := rand.New(rand.NewPCG(seed, 7))
		lines := make([]string, h)
		cw, ch := w, h
		for round := range 200 {
			for range 1 + rng.IntN(3) {
				lines[rng.IntN(h)] = pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))]
			}
			before, b2 := len(f.output()), len(f2.output())
			if rng.IntN(15) == 0 {
				cw, ch = w-rng.IntN(4), h-rng.IntN(3)
				r.Resize(cw, ch)
				r2.Resize(cw, ch)
				vt.Resize(cw, ch)
				vt2.Resize(cw, ch)
			}
			content := strings.Join(lines[:h-rng.IntN(2)], "\n")
			v := screen(content)
			if rng.IntN(3) != 0 {
				v.Cursor = tea.NewCursor(rng.IntN(cw), rng.IntN(ch))
				v.Cursor.Shape = tea.CursorShape(rng.IntN(3))
			}
			r.mu.Lock()
			r.want, r.have = v, true
			r.draw()
			linesKnownAsRead(t, r, content)
			r.mu.Unlock()
			out := f.output()[before:]
			vt.Write([]byte(out))
			r2.mu.Lock()
			r2.want, r2.have = v, true
			r2.scr.Erase()
			r2.erase = true
			r2.draw()
			r2.mu.Unlock()
			vt2.Write([]byte(f2.output()[b2:]))
			if v.Cursor != nil && (vt.Cursor().X != vt2.Cursor().X || vt.Cursor().Y != vt2.Cursor().Y || vt.Cursor().X != v.Cursor.X || vt.Cursor().Y != v.Cursor.Y) {
				t.Fatalf("seed %d round %d: cursor %+v, full %+v, want %d,%d", seed, round, vt.Cursor(), vt2.Cursor(), v.Cursor.X, v.Cursor.Y)
			}
			if vt.CursorVisible() != vt2.CursorVisible() || vt.CursorVisible() != (v.Cursor != nil) {
				t.Fatalf("seed %d round %d: cursor visible %v, full %v", seed, round, vt.CursorVisible(), vt2.CursorVisible())
			}
			if strings.Count(f.output(), "\x1b[?2026h") != strings.Count(f.output(), "\x1b[?2026l") {
				t.Fatalf("sync unbalanced")
			}
			{
				all := f.output()
				i := strings.LastIndex(all, " q")
				j := strings.LastIndex(all[:max(i, 0)], "\x1b[")
				got := "none"
				if i >= 0 {
					got = all[j+2 : i]
				}
				want := "none"
				if v.Cursor != nil {
					want = fmt.Sprint(cursorStyle(v.Cursor))
				} else if got != "none" {
					want = "0"
				}
				if got != want {
					t.Fatalf("seed %d round %d: cursor style %s, want %s", seed, round, got, want)
				}
			}
			for y := range ch {
				var gl, el strings.Builder
				for x := range cw {
					g := vt.Cell(x, y)
					gl.WriteRune(g.Char)
					e := vt2.Cell(x, y)
					el.WriteRune(e.Char)
					if g.FG != e.FG || g.BG != e.BG || g.Mode != e.Mode {
						t.Fatalf("seed %d round %d cell %d,%d: %+v vs full %+v\ncontent %q", seed, round, x, y, g, e, content)
					}
				}
				gs := strings.ReplaceAll(strings.TrimRight(gl.String(), " \x00"), "\x00", "")
				es := strings.ReplaceAll(strings.TrimRight(el.String(), " \x00"), "\x00", "")
				if gs != es {
					t.Fatalf("seed %d round %d line %d: terminal %q, whole parse %q\ncontent %q\nout %q", seed, round, y, gs, es, content, out)
				}
			}
		}
		r.Stop()
		r2.Stop()
	}
}

// TestRowsScrollOnlyWhenALineMoved: a frame that changes a line and moves none (a
// key's echo) does not try to scroll rows, which would hash the whole screen for
// nothing; one whose lines moved up (output scrolling in a full-width pane) still
// scrolls them rather than drawing every row again. Either way the terminal shows
// what a full redraw shows.
func TestRowsScrollOnlyWhenALineMoved(t *testing.T) {
	const w, h = 40, 12
	f := &fakeTerm{}
	r := New(f, []string{"TERM=xterm-256color"}, w, h)
	r.SetInterval(time.Hour)
	r.Start()
	defer r.Stop()
	vt := vt10x.New(vt10x.WithSize(w, h))
	lines := make([]string, h)
	for y := range lines {
		lines[y] = fmt.Sprintf("\x1b[3%dmline %02d of the pane's output\x1b[m", y%8, y)
	}
	frame := func(what string, wantScroll bool) string {
		t.Helper()
		before := len(f.output())
		r.mu.Lock()
		r.want, r.have = screen(strings.Join(lines, "\n")), true
		r.draw()
		scrolled := r.scrolling
		r.mu.Unlock()
		out := f.output()[before:]
		vt.Write([]byte(out))
		if scrolled != wantScroll {
			t.Fatalf("%s: tried scrolling rows %v, want %v", what, scrolled, wantScroll)
		}
		for y, l := range lines {
			want := []rune(ansiStrip(l))
			for x := range w {
				c := ' '
				if x < len(want) {
					c = want[x]
				}
				if got := vt.Cell(x, y).Char; got != c && !(got == 0 && c == ' ') {
					t.Fatalf("%s: row %d shows %q at %d, want %q", what, y, got, x, c)
				}
			}
		}
		return out
	}
	frame("first", false)
	for i := range 5 {
		lines[h-2] = fmt.Sprintf("$ typed %s", strings.Repeat("k", i+1))
		if out := frame(fmt.Sprintf("echo %d", i), false); len(out) > 40 {
			t.Errorf("echo %d: %d bytes for one character: %q", i, len(out), out)
		}
	}
	for i := range 3 {
		lines = append(lines[2:], fmt.Sprintf("new line %d", 2*i), fmt.Sprintf("new line %d", 2*i+1))
		out := frame(fmt.Sprintf("scroll %d", i), true)
		if n := strings.Count(out, "line "); n > 4 {
			t.Errorf("scroll %d: %d lines drawn again, want only the 2 new ones: %q", i, n, out)
		}
	}
}

// ansiStrip removes the SGR sequences of s.
func ansiStrip(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\x1b' {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// linesKnownAsRead fails t unless what the renderer keeps of each line of the frame it
// drew (kept from the frame before for a line unchanged on its row) is what reading
// the line afresh gives, and the lines known to begin clean are those reading the whole
// content gives: none if it holds a pass-through sequence. The terminals compared
// cannot show every difference (vt10x ignores a link). The caller holds r.mu.
func linesKnownAsRead(t *testing.T, r *Renderer, content string) {
	t.Helper()
	if len(r.infos) != len(r.lines) {
		t.Fatalf("%d line infos for %d lines", len(r.infos), len(r.lines))
	}
	for y, l := range r.lines {
		if r.infos[y] != infoOf(l) {
			t.Fatalf("line %d %q: kept info %b, read afresh %b", y, l, r.infos[y], infoOf(l))
		}
	}
	var want []bool
	if !hasPassThrough(content) {
		clean := true
		for _, l := range r.lines {
			want = append(want, clean)
			clean = endsClean(l, clean)
		}
	}
	if !slices.Equal(r.clean, want) || (r.clean == nil) != (want == nil) {
		t.Fatalf("lines known to begin clean %v, want %v, for %q", r.clean, want, content)
	}
}
