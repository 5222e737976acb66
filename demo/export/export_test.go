package export

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"corral/demo/export/raster"
	"corral/demo/export/svg"
	"corral/demo/export/theme"
	"corral/ptyhost/screen/grid"
)

// shortCast is a known recording of 20×5: red text at 0 s, bold on blue at 1 s, a
// wide character and an emoji after a pause of 4 s, a last line at 5.5 s.
const shortCast = `{"version": 2, "width": 20, "height": 5, "timestamp": 1}
[0.0, "o", "\u001b[31mred\u001b[0m"]
[1.0, "o", "\r\n\u001b[1;44mblue\u001b[0m"]
[5.0, "o", "\r\nwide:漢😀"]
[5.5, "o", "\r\nend"]
`

func writeCast(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "short.cast")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func defaults() Options {
	return Options{Timing: Timing{Speed: 1, FPS: DefaultFPS, Hold: 2 * time.Second}}
}

func dark(t *testing.T) theme.Theme {
	th, err := theme.Get("dark")
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// svgDoc is what a test reads of an exported SVG: each row definition's runs, each
// frame's rows, and the keyframes' times.
type svgDoc struct {
	rows    map[string][]svgRun // id: its tspans
	rects   map[string][]string // id: its rectangles' classes
	frames  [][]svgUse
	classes map[string]string // class: fill
	pcts    []float64         // the keyframes' percentages
	total   float64           // the animation's seconds
}

type svgRun struct {
	X, Class, Text, Length string
}

type svgUse struct {
	Href string
	Y    float64
}

// parseSVG parses data as XML (it must be well-formed) and reads it into an svgDoc.
func parseSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	doc := svgDoc{rows: map[string][]svgRun{}, rects: map[string][]string{}, classes: map[string]string{}}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var row string
	var run *svgRun
	var style strings.Builder
	inStyle := false
	attr := func(e xml.StartElement, name string) string {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "style":
				inStyle = true
			case "g":
				if id := attr(e, "id"); id != "" {
					row = id
				} else if strings.HasPrefix(attr(e, "transform"), "translate") {
					doc.frames = append(doc.frames, nil)
				}
			case "rect":
				if row != "" {
					doc.rects[row] = append(doc.rects[row], attr(e, "class"))
				}
			case "tspan":
				run = &svgRun{X: attr(e, "x"), Class: attr(e, "class"), Length: attr(e, "textLength")}
			case "use":
				y, _ := strconv.ParseFloat(attr(e, "y"), 64)
				if len(doc.frames) == 0 {
					doc.frames = append(doc.frames, nil) // a still picture: one frame
				}
				doc.frames[len(doc.frames)-1] = append(doc.frames[len(doc.frames)-1], svgUse{strings.TrimPrefix(attr(e, "href"), "#"), y})
			}
		case xml.CharData:
			if inStyle {
				style.Write(e)
			}
			if run != nil {
				run.Text += string(e)
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "style":
				inStyle = false
			case "tspan":
				if row != "" {
					doc.rows[row] = append(doc.rows[row], *run)
				}
				run = nil
			case "g":
				row = ""
			}
		}
	}
	css := style.String()
	for _, m := range regexp.MustCompile(`\.(f\d+)\{fill:(#[0-9a-f]{6})\}`).FindAllStringSubmatch(css, -1) {
		doc.classes[m[1]] = m[2]
	}
	if m := regexp.MustCompile(`animation:k ([0-9.]+)s`).FindStringSubmatch(css); m != nil {
		doc.total, _ = strconv.ParseFloat(m[1], 64)
	}
	for _, m := range regexp.MustCompile(`([0-9.]+)%\{transform`).FindAllStringSubmatch(css, -1) {
		p, _ := strconv.ParseFloat(m[1], 64)
		doc.pcts = append(doc.pcts, p)
	}
	return doc
}

// text is frame k's row y as its runs' text joined, and the runs.
func (d svgDoc) line(k int, y int) (string, []svgRun) {
	for _, u := range d.frames[k] {
		if int(u.Y/svg.CellH+0.5) == y {
			var b strings.Builder
			for _, r := range d.rows[u.Href] {
				b.WriteString(r.Text)
			}
			return b.String(), d.rows[u.Href]
		}
	}
	return "", nil
}

func TestExportSVG(t *testing.T) {
	src := writeCast(t, shortCast)
	out := filepath.Join(t.TempDir(), "short.svg")
	res, err := File(src, out, defaults())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, data)
	if len(doc.frames) != 4 || res.Frames != 4 {
		t.Fatalf("frames: %d in the SVG, %d said; want 4 (0, 1, 5, 5.5 s)", len(doc.frames), res.Frames)
	}
	// The times: frame k from at[k] of 7.5 s (5.5 s and the last frame's 2 s).
	if doc.total != 7.5 {
		t.Errorf("animation of %vs, want 7.5s", doc.total)
	}
	want := []float64{0, 1, 5, 5.5}
	for k, at := range want {
		if k >= len(doc.pcts) || abs(doc.pcts[k]*doc.total/100-at) > 0.001 {
			t.Errorf("frame %d shows from %v%% of %vs, want %vs (keyframes %v)", k, doc.pcts, doc.total, at, doc.pcts)
		}
	}
	th := dark(t)
	for k, rows := range [][]string{
		{"red", "", "", ""},
		{"red", "blue", "", ""},
		{"red", "blue", "wide:漢😀", ""},
		{"red", "blue", "wide:漢😀", "end"},
	} {
		for y, w := range rows {
			if got, _ := doc.line(k, y); got != w {
				t.Errorf("frame %d row %d: %q, want %q", k, y, got, w)
			}
		}
	}
	_, runs := doc.line(0, 0)
	if len(runs) != 1 || doc.classes[runs[0].Class] != theme.Hex(th.Palette[1]) {
		t.Errorf("red: runs %+v, classes %v; want one of fill %s", runs, doc.classes, theme.Hex(th.Palette[1]))
	}
	_, runs = doc.line(1, 1)
	if len(runs) != 1 || !strings.Contains(runs[0].Class, "b") {
		t.Errorf("blue: runs %+v, want one bold", runs)
	}
	for _, u := range doc.frames[1] {
		if u.Y == svg.CellH {
			if r := doc.rects[u.Href]; len(r) != 1 || doc.classes[r[0]] != theme.Hex(th.Palette[4]) {
				t.Errorf("blue's background: %v (classes %v), want a rect of %s", r, doc.classes, theme.Hex(th.Palette[4]))
			}
		}
	}
	// Wide characters: each in a tspan of its own at its column, two cells long.
	_, runs = doc.line(2, 2)
	cell := func(x int) string { return strconv.FormatFloat(math.Round(float64(x)*svg.CellW*100)/100, 'f', -1, 64) }
	two := cell(2)
	if len(runs) != 3 || runs[1].Text != "漢" || runs[1].X != cell(5) || runs[1].Length != two ||
		runs[2].Text != "😀" || runs[2].X != cell(7) || runs[2].Length != two {
		t.Errorf("wide characters: %+v; want 漢 at x %s and 😀 at %s, each %s long", runs, cell(5), cell(7), two)
	}
}

func TestExportStillSVG(t *testing.T) {
	src := writeCast(t, shortCast)
	out := filepath.Join(t.TempDir(), "still.svg")
	o := defaults()
	o.Still, o.At = true, 2*time.Second
	if _, err := File(src, out, o); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	doc := parseSVG(t, data)
	if len(doc.frames) != 1 || len(doc.pcts) != 0 || strings.Contains(string(data), "@keyframes") {
		t.Fatalf("a still picture: %d frames, keyframes %v", len(doc.frames), doc.pcts)
	}
	if l0, _ := doc.line(0, 0); l0 != "red" {
		t.Errorf("row 0 at 2 s: %q", l0)
	}
	if l1, _ := doc.line(0, 1); l1 != "blue" {
		t.Errorf("row 1 at 2 s: %q", l1)
	}
	if l2, _ := doc.line(0, 2); l2 != "" {
		t.Errorf("row 2 at 2 s: %q, want nothing yet", l2)
	}
}

// composite draws a GIF's frames up to k as a viewer shows them.
func composite(g *gif.GIF, k int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	for i := 0; i <= k; i++ {
		draw.Draw(img, g.Image[i].Bounds(), g.Image[i], g.Image[i].Bounds().Min, draw.Over)
	}
	return img
}

func rgba(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// inkIn counts the pixels of cell x, y that are c, and those that are neither c nor bg.
func inkIn(img *image.RGBA, p *raster.Painter, x, y, w int, c, bg color.RGBA) (exact, other int) {
	r := p.CellRect(x, y, x+w, y+1)
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			switch got := rgba(img.At(px, py)); got {
			case c:
				exact++
			case bg:
			default:
				other++
			}
		}
	}
	return exact, other
}

func TestExportGIF(t *testing.T) {
	src := writeCast(t, shortCast)
	out := filepath.Join(t.TempDir(), "short.gif")
	if _, err := File(src, out, defaults()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatalf("the GIF does not decode: %v", err)
	}
	if len(g.Image) != 4 {
		t.Fatalf("%d frames, want 4", len(g.Image))
	}
	if want := []int{100, 400, 50, 200}; !equalInts(g.Delay, want) {
		t.Errorf("delays %v, want %v (hundredths)", g.Delay, want)
	}
	if g.LoopCount != 0 {
		t.Errorf("loop count %d, want 0 (for ever)", g.LoopCount)
	}
	th := dark(t)
	fonts, err := raster.LoadFonts("", raster.DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	p := raster.New(th, fonts)
	if b := p.Bounds(20, 5); g.Config.Width != b.Dx() || g.Config.Height != b.Dy() {
		t.Fatalf("%d×%d, want %v for 20×5 cells", g.Config.Width, g.Config.Height, b)
	}
	f0 := composite(g, 0)
	if exact, _ := inkIn(f0, p, 0, 0, 1, th.Palette[1], th.BG); exact == 0 {
		t.Error("frame 0: the r of red has no red ink in its cell")
	}
	if exact, other := inkIn(f0, p, 0, 0, 1, th.BG, th.BG); exact+other == 0 || other == 0 {
		t.Error("frame 0: the r's cell is background alone")
	}
	if cursor, _ := inkIn(f0, p, 3, 0, 1, th.Cursor, th.BG); cursor != p.CellW*p.CellH {
		t.Errorf("frame 0: the cursor's cell after red has %d pixels of the cursor's colour, want all %d", cursor, p.CellW*p.CellH)
	}
	for _, x := range []int{4, 10, 19} {
		if _, other := inkIn(f0, p, x, 0, 1, th.Palette[1], th.BG); other != 0 {
			t.Errorf("frame 0: cell %d,0 is not background alone", x)
		}
	}
	if _, other := inkIn(f0, p, 0, 1, 4, th.Palette[1], th.BG); other != 0 {
		t.Error("frame 0: row 1 drawn before its time")
	}
	f1 := composite(g, 1)
	for x := range 4 { // bold text on blue: the blue fills the cell, the text's colour in it
		blue, _ := inkIn(f1, p, x, 1, 1, th.Palette[4], th.BG)
		fg, _ := inkIn(f1, p, x, 1, 1, th.FG, th.BG)
		if blue == 0 || fg == 0 {
			t.Errorf("frame 1: cell %d,1: %d blue and %d foreground pixels", x, blue, fg)
		}
	}
	if _, other := inkIn(f1, p, 4, 1, 1, th.FG, th.BG); other != 0 {
		t.Error("frame 1: the blue goes on past the text")
	}
	// The wide character and the emoji (which Go Mono lacks: an empty box) each ink
	// both of their cells.
	f2 := composite(g, 2)
	for _, x := range []int{5, 6, 7, 8} {
		if _, other := inkIn(f2, p, x, 2, 1, th.BG, th.BG); other == 0 {
			t.Errorf("frame 2: cell %d,2 (of a wide character) has no ink", x)
		}
	}
	if _, other := inkIn(f2, p, 10, 2, 1, th.BG, th.BG); other != 0 {
		t.Error("frame 2: ink after the emoji's two cells")
	}
}

func TestWideCells(t *testing.T) {
	src := writeCast(t, shortCast)
	f, _ := os.Open(src)
	defer f.Close()
	m := &Movie{}
	if _, err := Play(f, defaults().Timing, m, nil); err != nil {
		t.Fatal(err)
	}
	g := m.Grids[len(m.Grids)-1]
	for x, want := range []struct {
		text  string
		width int
	}{{"w", 1}, {"i", 1}, {"d", 1}, {"e", 1}, {":", 1}, {"漢", 2}, {"", 0}, {"😀", 2}, {"", 0}, {" ", 1}} {
		if c := g.At(x, 2); c.Text != want.text || c.Width != want.width {
			t.Errorf("cell %d,2: %q width %d, want %q width %d", x, c.Text, c.Width, want.text, want.width)
		}
	}
}

func TestTiming(t *testing.T) {
	src := writeCast(t, shortCast)
	for _, c := range []struct {
		name   string
		timing func(*Timing)
		at     []time.Duration
		end    time.Duration
		rows   []string // the first frame's rows 0 and 1
	}{
		{"as recorded", func(*Timing) {}, secs(0, 1, 5, 5.5), secs(7.5)[0], []string{"red", ""}},
		{"idle limit 2s", func(t *Timing) { t.IdleLimit = 2 * time.Second }, secs(0, 1, 3, 3.5), secs(5.5)[0], []string{"red", ""}},
		{"speed 2", func(t *Timing) { t.Speed = 2 }, secs(0, 0.5, 2.5, 2.75), secs(4.75)[0], []string{"red", ""}},
		{"from 1 to 5.2", func(t *Timing) { t.From, t.To = time.Second, 5200*time.Millisecond }, secs(0, 4), secs(6.2)[0], []string{"red", "blue"}},
		{"fps 1", func(t *Timing) { t.FPS = 1 }, secs(0, 1, 5), secs(7.5)[0], []string{"red", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := os.Open(src)
			defer f.Close()
			tm := defaults().Timing
			c.timing(&tm)
			m := &Movie{}
			if _, err := Play(f, tm, m, nil); err != nil {
				t.Fatal(err)
			}
			if !equalDurations(m.At, c.at) || m.Until != c.end {
				t.Errorf("frames at %v until %v, want %v until %v", m.At, m.Until, c.at, c.end)
			}
			top := strings.Split(textOf(m.Grids[0]), "\n")
			if top[0] != c.rows[0] || top[1] != c.rows[1] {
				t.Errorf("the first frame: %q", top[:2])
			}
		})
	}
}

func TestCorruptCast(t *testing.T) {
	lines := strings.Split(shortCast, "\n")
	lines[3] = lines[3][:12] // line 4, cut short as by a crash
	src := writeCast(t, strings.Join(lines, "\n"))
	out := filepath.Join(t.TempDir(), "cut.svg")
	res, err := File(src, out, defaults())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped == nil || !strings.Contains(res.Stopped.Error(), "line 4") || !strings.Contains(res.Stopped.Error(), src) {
		t.Fatalf("stopped: %v, want line 4 of %s named", res.Stopped, src)
	}
	data, _ := os.ReadFile(out)
	doc := parseSVG(t, data)
	if res.Frames != 2 || len(doc.frames) != 2 {
		t.Fatalf("%d frames (%d in the SVG), want the 2 before line 4", res.Frames, len(doc.frames))
	}
	if l, _ := doc.line(1, 1); l != "blue" {
		t.Errorf("the last valid frame's row 1: %q", l)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeCast(t, shortCast)
	notCast := filepath.Join(dir, "notes.txt")
	os.WriteFile(notCast, []byte("hello\nworld\n"), 0o644)
	notFont := filepath.Join(dir, "font.ttf")
	os.WriteFile(notFont, []byte("not a font at all"), 0o644)
	for _, c := range []struct {
		name, src, out string
		opts           func(*Options)
		want           string
	}{
		{"not a cast", notCast, "a.svg", nil, "not an asciicast"},
		{"unknown extension", good, "a.mp4", nil, "unknown format .mp4"},
		{"no extension", good, "a", nil, "no extension"},
		{"unknown theme", good, "a.svg", func(o *Options) { o.Theme = "neon" }, `unknown theme "neon"`},
		{"not a font", good, "a.gif", func(o *Options) { o.Font = notFont }, "not a TrueType or OpenType font"},
		{"missing directory", good, "missing/a.svg", nil, "no such directory"},
		{"missing source", filepath.Join(dir, "gone.cast"), "a.svg", nil, "gone.cast"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := defaults()
			if c.opts != nil {
				c.opts(&o)
			}
			outDir := t.TempDir()
			out := filepath.Join(outDir, c.out)
			_, err := File(c.src, out, o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
				t.Errorf("left behind: %v", ents)
			}
		})
	}
}

// TestNothingHalfWritten: an export that fails at the end (here: a directory where
// the file should go) leaves what was there and no temporary file.
func TestNothingHalfWritten(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "taken.svg")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := File(writeCast(t, shortCast), out, defaults()); err == nil {
		t.Fatal("an export onto a directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !ents[0].IsDir() {
		t.Errorf("left behind: %v", ents)
	}
}

func textOf(g *grid.Grid) string {
	var b strings.Builder
	for y := range g.Rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for _, c := range g.Row(y) {
			line.WriteString(c.Text)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}

func secs(s ...float64) []time.Duration {
	var d []time.Duration
	for _, v := range s {
		d = append(d, time.Duration(v*float64(time.Second)))
	}
	return d
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// A theme file's colours reach the picture; a bad one is an error naming it.
func TestThemeFile(t *testing.T) {
	dir := t.TempDir()
	pal := `["#000001","#ff0001","#000003","#000004","#000005","#000006","#000007","#000008",` +
		`"#000009","#00000a","#00000b","#00000c","#00000d","#00000e","#00000f","#000010"]`
	good := filepath.Join(dir, "mine.toml")
	os.WriteFile(good, []byte("foreground = \"#eeeeee\"\nbackground = \"#102030\"\npalette = "+pal+"\n"), 0o644)
	o := defaults()
	o.Theme, o.Still, o.At = good, true, time.Hour
	out := filepath.Join(dir, "t.svg")
	if _, err := File(writeCast(t, shortCast), out, o); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if s := string(data); !strings.Contains(s, `fill="#102030"`) || !strings.Contains(s, "{fill:#ff0001}") || !strings.Contains(s, "fill:#eeeeee") {
		t.Errorf("the theme's colours are not in the SVG:\n%.1500s", s)
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("foreground = \"#eeeeee\"\nbackground = \"#102030\"\npalette = [\"#000000\"]\n"), 0o644)
	o.Theme = bad
	if _, err := File(writeCast(t, shortCast), filepath.Join(dir, "u.svg"), o); err == nil || !strings.Contains(err.Error(), "bad.toml") ||
		!strings.Contains(err.Error(), "want 16 colours") {
		t.Errorf("a palette of one colour: %v", err)
	}
}
