package tmuxcap

import "testing"

// One line of what tmux's capture holds: SGR in both forms, a wide character, a
// combining mark, the line-drawing set, and the pen carried to the next line.
func TestParse(t *testing.T) {
	capture := "a\x1b[1;38;5;200m中e\u0301\x1b[4:3;58:2::1:2:3m\x0eq\x0f\x1b[22m\n\x1b[48;2;10;20;30mb\x1b[0m\n"
	grid, err := Parse(capture, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	bold := Pen{Attr: Bold, FG: "p200"}
	curly := Pen{Attr: Bold | Underline, UlKind: 3, FG: "p200", UL: "#010203"}
	want := [][]Cell{
		{{Text: "a"}, {Text: "中", Pen: bold}, {Cont: true, Pen: bold}, {Text: "e\u0301", Pen: bold}, {Text: "─", Pen: curly}},
		{{Text: "b", Pen: Pen{Attr: Underline, UlKind: 3, FG: "p200", UL: "#010203", BG: "#0a141e"}}},
		{},
	}
	for y, row := range want {
		for len(row) < 8 {
			row = append(row, Cell{Text: " ", Pad: true})
		}
		for x := range row {
			if grid[y][x] != row[x] {
				t.Errorf("row %d col %d: %v, want %v", y+1, x+1, grid[y][x], row[x])
			}
		}
	}
	if _, err := Parse("\x1b[2J", 8, 3); err == nil {
		t.Error("a sequence other than SGR was read")
	}
	if _, err := Parse("a\nb\nc\nd", 8, 3); err == nil {
		t.Error("four lines were read as a three-line screen")
	}
}

// A blank shows only what draws on empty space; a pad cell compares by its text.
func TestSame(t *testing.T) {
	blank := Cell{Text: " ", Pen: Pen{Attr: Bold | Italic, FG: "p1", BG: "p2"}}
	if !Same(blank, Cell{Text: " ", Pen: Pen{BG: "p2"}}) {
		t.Error("a bold italic blank differs from a plain one on the same background")
	}
	if Same(blank, Cell{Text: " "}) {
		t.Error("a blank's background was not compared")
	}
	if !Same(blank, Cell{Text: " ", Pad: true}) {
		t.Error("a pad cell was compared beyond its text")
	}
	if Same(Cell{Text: "x"}, Cell{Text: " ", Pad: true}) {
		t.Error("a character matched a pad blank")
	}
}
