package grid

import (
	"testing"

	"corral/ptyhost/screen"
)

// A screen's cells read back from Render: colours of every form, attributes, a wide
// character, a combining mark, the cursor.
func TestFromScreen(t *testing.T) {
	s := screen.NewScreen(12, 3)
	s.Write([]byte("\x1b[1;3;4;31mA\x1b[0m\x1b[38;5;200;48;2;1;2;3mB\x1b[0m\x1b[7;92mC\x1b[0m漢e\u0301\x1b[9;2mS\x1b[0m\r\nx"))
	g := FromScreen(s)
	for _, c := range []struct {
		x, y int
		cell Cell
	}{
		{0, 0, Cell{"A", 1, Style{FG: Color{Kind: Indexed, Index: 1}, Attr: Bold | Italic | Underline}}},
		{1, 0, Cell{"B", 1, Style{FG: Color{Kind: Indexed, Index: 200}, BG: Color{Kind: RGB, R: 1, G: 2, B: 3}}}},
		{2, 0, Cell{"C", 1, Style{FG: Color{Kind: Indexed, Index: 10}, Attr: Reverse}}},
		{3, 0, Cell{"漢", 2, Style{}}},
		{4, 0, Cell{"", 0, Style{}}},
		{5, 0, Cell{"e\u0301", 1, Style{}}},
		{6, 0, Cell{"S", 1, Style{Attr: Strike | Dim}}},
		{7, 0, Cell{" ", 1, Style{}}},
		{0, 1, Cell{"x", 1, Style{}}},
	} {
		if got := *g.At(c.x, c.y); got != c.cell {
			t.Errorf("cell %d,%d: %+v, want %+v", c.x, c.y, got, c.cell)
		}
	}
	if !g.CursorVisible || g.CursorX != 1 || g.CursorY != 1 {
		t.Errorf("cursor %d,%d visible %v, want 1,1", g.CursorX, g.CursorY, g.CursorVisible)
	}
	// Cut between the halves of the wide character: its left half is a blank.
	if c := g.Crop(4, 2); c.At(3, 0).Text != " " || c.At(3, 0).Width != 1 || c.Rows != 2 {
		t.Errorf("cropped to 4×2: cell 3,0 %+v", *c.At(3, 0))
	}
	if !g.Equal(FromScreen(s)) || g.Equal(g.Crop(12, 2)) {
		t.Error("Equal")
	}
}
