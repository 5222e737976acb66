package export

import (
	"bytes"
	"errors"
	"flag"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/export/raster"
	"corral/ptyhost/screen"
	"corral/ptyhost/screen/grid"
)

// play plays a recording's text into a Movie.
func play(t *testing.T, text string, tm Timing) (*Movie, Played, error) {
	t.Helper()
	m := &Movie{}
	p, err := Play(strings.NewReader(text), tm, m, nil)
	return m, p, err
}

// An OUT that is a directory, the recording itself or a file that cannot be written
// is refused before anything is drawn, with the path named; what was there stays and
// no temporary file is left.
func TestOutRefused(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.svg")
	os.Mkdir(taken, 0o755)
	_, err := File(writeCast(t, shortCast), taken, defaults())
	if err == nil || err.Error() != taken+": is a directory" {
		t.Errorf("OUT a directory: %v", err)
	}

	if err := Screen(grid.New(3, 1), taken, "", ""); err == nil || err.Error() != taken+": is a directory" {
		t.Errorf("a screen onto a directory: %v", err)
	}

	// A recording whose name ends in .svg, exported onto itself.
	self := filepath.Join(dir, "rec.svg")
	os.WriteFile(self, []byte(shortCast), 0o644)
	_, err = File(self, self, defaults())
	if err == nil || !strings.Contains(err.Error(), "is the recording being exported") {
		t.Errorf("OUT the source: %v", err)
	}
	link := filepath.Join(dir, "link.svg")
	os.Symlink(self, link)
	if _, err = File(self, link, defaults()); err == nil || !strings.Contains(err.Error(), "is the recording being exported") {
		t.Errorf("OUT a link to the source: %v", err)
	}
	if data, _ := os.ReadFile(self); string(data) != shortCast {
		t.Errorf("the recording was overwritten: %.80q", data)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("left in the directory: %v", ents)
	}
}

// A file or directory the user may not write: refused up front, naming OUT (not a
// temporary file). Root may write anything, so this needs another user.
func TestOutUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any file")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	out := filepath.Join(ro, "x.svg")
	if _, err := File(writeCast(t, shortCast), out, defaults()); err == nil || !strings.HasPrefix(err.Error(), out+": cannot write in "+ro) {
		t.Errorf("OUT in a read-only directory: %v", err)
	}
	kept := filepath.Join(dir, "kept.svg")
	os.WriteFile(kept, []byte("mine"), 0o444)
	if _, err := File(writeCast(t, shortCast), kept, defaults()); err == nil || !strings.HasPrefix(err.Error(), kept+": cannot be written") {
		t.Errorf("OUT a read-only file: %v", err)
	}
}

// A header's size is a screen's at most: a frame of a header of 100,000 columns is
// 1,000 wide, not a grid the size the header says.
func TestHugeHeader(t *testing.T) {
	m, _, err := play(t, `{"version": 2, "width": 100000, "height": 1}`+"\n"+`[0.1, "o", "big"]`+"\n", defaults().Timing)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range m.Grids {
		if g.Cols != screen.MaxCols || g.Rows != 1 {
			t.Fatalf("a frame of %d×%d, want %d×1", g.Cols, g.Rows, screen.MaxCols)
		}
	}
}

// Flags out of range are refused: a speed that is not a number, none or endless;
// a time that overflows; a size larger than a terminal.
func TestFlagRanges(t *testing.T) {
	for _, args := range [][]string{
		{"--speed", "NaN"}, {"--speed", "Inf"}, {"--speed", "1e-9"}, {"--speed", "1e9"},
		{"--from", "1e300"}, {"--to", "Inf"}, {"--idle-limit", "9999999999h"},
		{"--cols", "100000"}, {"--rows", "100000"}, {"--hold", "2h"},
	} {
		fs := flag.NewFlagSet("export", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		f := AddFlags(fs)
		if err := fs.Parse(args); err == nil {
			_, err = f.Options()
			if err == nil {
				t.Errorf("%v accepted", args)
			}
		}
	}
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	f := AddFlags(fs)
	fs.Parse([]string{"--speed", "0.5", "--cols", "1000", "--rows", "500", "--from", "90061"})
	if o, err := f.Options(); err != nil || o.From != 25*time.Hour+61*time.Second {
		t.Errorf("good flags: %+v, %v", o.Timing, err)
	}
}

// --from after the recording's end is an error saying so; nothing is written.
func TestFromAfterEnd(t *testing.T) {
	o := defaults()
	o.From = 100 * time.Second
	out := filepath.Join(t.TempDir(), "late.gif")
	_, err := File(writeCast(t, shortCast), out, o)
	if err == nil || !strings.Contains(err.Error(), "--from 1m40s is after the recording's end (5.5s)") {
		t.Errorf("--from past the end: %v", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("a file was written")
	}
	o.Still, o.At = true, 100*time.Second // --at past the end: the last screen
	if _, err := File(writeCast(t, shortCast), out, o); err != nil {
		t.Errorf("--at past the end: %v", err)
	}
}

// asciinema's own recordings: a header's idle_time_limit shortens pauses as its
// player does (--idle-limit 0 keeps them); version 3 (asciinema 3's: the size in
// "term", times as intervals, comments, exit events); a byte order mark; CRLF lines;
// input, marker events; no newline at the end.
func TestAsciinemaCasts(t *testing.T) {
	v2 := `{"version": 2, "width": 20, "height": 3, "timestamp": 1700000000, "idle_time_limit": 1.5, "title": "demo", ` +
		`"env": {"SHELL": "/bin/zsh", "TERM": "xterm-256color"}, "theme": {"fg": "#ffffff", "bg": "#000000", "palette": "#000000:#ffffff"}}` + "\r\n" +
		`[0.5, "o", "one"]` + "\r\n" + `[0.6, "i", "x"]` + "\r\n" + `[0.7, "m", "mark"]` + "\r\n" + `[10.5, "o", " two"]`
	m, _, err := play(t, v2, defaults().Timing)
	if err != nil {
		t.Fatal(err)
	}
	if want := secs(0, 0.5, 2.2); !equalDurations(m.At, want) {
		t.Errorf("the header's idle limit: frames at %v, want %v", m.At, want)
	}
	if got := textOf(m.Grids[len(m.Grids)-1]); !strings.HasPrefix(got, "one two") {
		t.Errorf("the last frame: %q", got)
	}
	tm := defaults().Timing
	tm.IdleLimit = -1
	if m, _, _ = play(t, v2, tm); !equalDurations(m.At, secs(0, 0.5, 10.5)) {
		t.Errorf("pauses kept: frames at %v", m.At)
	}

	v3 := "\ufeff" + `{"version": 3, "term": {"cols": 12, "rows": 2, "type": "xterm-256color"}, "timestamp": 1700000000}` + "\n" +
		"# a comment\n" + `[0.5, "o", "a"]` + "\n" + `[1.0, "o", "b"]` + "\n" + `[0.25, "r", "10x2"]` + "\n" +
		`[0.25, "o", "c"]` + "\n" + `[0.1, "x", "0"]` + "\n"
	m, p, err := play(t, v3, defaults().Timing)
	if err != nil || p.Stopped != nil {
		t.Fatalf("version 3: %v, %v", err, p.Stopped)
	}
	if want := secs(0, 0.5, 1.5, 2); !equalDurations(m.At, want) || m.Grids[0].Cols != 12 {
		t.Errorf("version 3: frames at %v (want %v), %d columns", m.At, want, m.Grids[0].Cols)
	}
	if got := strings.TrimSpace(textOf(m.Grids[len(m.Grids)-1])); got != "abc" {
		t.Errorf("version 3's last frame: %q", got)
	}

	_, _, err = play(t, `{"version": 1, "width": 80, "height": 24, "stdout": []}`, defaults().Timing)
	if !errors.Is(err, ErrNotCast) || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("version 1: %v", err)
	}
}

// A pause longer than a GIF frame's delay can be (16 bits of hundredths: 655 s)
// lasts as long as it did, not its length modulo that: the frame's delay goes on in
// frames of one transparent pixel.
func TestGIFLongPause(t *testing.T) {
	src := writeCast(t, `{"version": 2, "width": 10, "height": 2}`+"\n"+`[0.1, "o", "a"]`+"\n"+`[1000.1, "o", "b"]`+"\n")
	out := filepath.Join(t.TempDir(), "long.gif")
	if _, err := File(src, out, defaults()); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(out)
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, d := range g.Delay {
		total += d
	}
	if total != 10+100000+200 {
		t.Errorf("delays %v: %d hundredths in all, want %d", g.Delay, total, 10+100000+200)
	}
	for k, img := range g.Image {
		if b := img.Bounds(); b.Dx() == 1 && b.Dy() == 1 {
			if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
				t.Errorf("frame %d carries on a pause but draws a pixel", k)
			}
		}
	}
}

// A recording whose terminal grew is exported at the largest size it had, its
// right and bottom not cut; one that shrank is padded. --cols and --rows still cut.
func TestResizedRecording(t *testing.T) {
	src := writeCast(t, `{"version": 2, "width": 10, "height": 2}`+"\n"+`[0.1, "o", "start"]`+"\n"+
		`[0.5, "r", "30x4"]`+"\n"+`[0.6, "o", "\r\n\r\n\r\nwider than ten: 0123456789"]`+"\n"+`[0.9, "r", "8x2"]`+"\n")
	o := defaults()
	o.Still, o.At = true, 700*time.Millisecond
	out := filepath.Join(t.TempDir(), "grew.svg")
	if _, err := File(src, out, o); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	doc := parseSVG(t, data)
	if l, _ := doc.line(0, 3); l != "wider than ten: 0123456789" {
		t.Errorf("the bottom row after the terminal grew: %q\n%s", l, data)
	}
	if !strings.Contains(string(data), `<svg x="10" y="10" width="252" height="64">`) {
		t.Errorf("not 30×4 cells:\n%.600s", data)
	}
	o.Cols, o.Rows = 10, 2
	if _, err := File(src, out, o); err != nil {
		t.Fatal(err)
	}
	if data, _ = os.ReadFile(out); !strings.Contains(string(data), `<svg x="10" y="10" width="84" height="32">`) {
		t.Errorf("--cols 10 --rows 2: not 10×2 cells:\n%.600s", data)
	}
}

// A last line without its newline that does not parse is a recording being written
// (a live run's: its writer's buffer reaches the file at any byte) or cut short, and
// is said to be so; a bad line before the end is named as one.
func TestCutLastLine(t *testing.T) {
	live := strings.TrimSuffix(shortCast, "\n")
	live = live[:len(live)-6] // the last event, half written
	_, p, err := play(t, live, defaults().Timing)
	if err != nil || p.Stopped == nil || p.Stopped.Error() != "line 5, the last, is cut short (the recording is still being written, or its writer stopped): exported what comes before it" {
		t.Errorf("a half-written last line: %v, %v", err, p.Stopped)
	}
	bad := strings.Replace(shortCast, `[5.0, "o"`, `[5.0 "o"`, 1)
	if _, p, _ = play(t, bad, defaults().Timing); p.Stopped == nil || !strings.Contains(p.Stopped.Error(), "line 4 is not a valid event") {
		t.Errorf("a bad line in the middle: %v", p.Stopped)
	}
}

// An animation made long by a long pause keeps its frames apart: the keyframes'
// percentages have the decimals its milliseconds need, not three, which would put
// frames a tenth of a second apart at one time.
func TestSVGLongPauseKeyframes(t *testing.T) {
	src := writeCast(t, `{"version": 2, "width": 10, "height": 2}`+"\n"+`[0.1, "o", "a"]`+"\n"+`[0.2, "o", "b"]`+"\n"+
		`[0.3, "o", "c"]`+"\n"+`[36000.3, "o", "d"]`+"\n")
	out := filepath.Join(t.TempDir(), "gap.svg")
	if _, err := File(src, out, defaults()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	doc := parseSVG(t, data)
	if len(doc.pcts) != 6 {
		t.Fatalf("%d keyframes, want 5 frames and the end: %v", len(doc.pcts), doc.pcts)
	}
	for k, want := range secs(0, 0.1, 0.2, 0.3, 36000.3) {
		if at := doc.pcts[k] / 100 * doc.total; abs(at-want.Seconds()) > 0.001 {
			t.Errorf("frame %d at %.4f s, want %.4f s (keyframes %v)", k, at, want.Seconds(), doc.pcts)
		}
	}
}

// A GIF frame stays a day at most (here after a pause of ten days): a pause of
// years (a recording with wrong times) is not millions of frames.
func TestGIFHoldBounded(t *testing.T) {
	src := writeCast(t, `{"version": 2, "width": 10, "height": 2}`+"\n"+`[0.1, "o", "a"]`+"\n"+`[864000.1, "o", "b"]`+"\n")
	out := filepath.Join(t.TempDir(), "years.gif")
	if _, err := File(src, out, defaults()); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(out)
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, d := range g.Delay {
		total += d
	}
	if day := 24 * 60 * 60 * 100; len(g.Image) > 200 || total != 10+day+200 {
		t.Errorf("%d frames, %d hundredths; want the pause held a day", len(g.Image), total)
	}
}

// An empty file (a run's recording whose header is still in its writer's buffer) is
// said to be empty.
func TestEmptyCast(t *testing.T) {
	out := filepath.Join(t.TempDir(), "e.svg")
	_, err := File(writeCast(t, ""), out, defaults())
	if err == nil || !errors.Is(err, ErrNotCast) || !strings.HasSuffix(err.Error(), ": the file is empty") {
		t.Errorf("an empty recording: %v", err)
	}
}

// A letter with a combining accent (a decomposed é, as macOS's file names come) is
// drawn in a GIF or PNG as the precomposed letter, accent included: Go Mono has é
// but no combining accents.
func TestRasterCombiningAccent(t *testing.T) {
	fonts, err := raster.LoadFonts("", raster.DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	p := raster.New(dark(t), fonts)
	draw := func(text string) []byte {
		g := grid.New(1, 1)
		g.Row(0)[0] = grid.Cell{Text: text, Width: 1}
		return p.Paint(g).Pix
	}
	if !bytes.Equal(draw("e\u0301"), draw("é")) {
		t.Error("e and a combining acute are not drawn as é")
	}
	if bytes.Equal(draw("é"), draw("e")) {
		t.Error("é is drawn as e")
	}
}
