package castplay

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/ptyhost/screen"
)

// demoCast is a real recording: corral demo --autoplay in tmux, 140×45, 41.5 s.
const demoCast = "../demo.cast"

func loadDemo(t *testing.T) (*Index, *os.File) {
	t.Helper()
	f, err := os.Open(demoCast)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ix, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return ix, f
}

// The index has every event of the file, and reading a range gives each event's data
// as a JSON decoder of the line does.
func TestIndexOfARealRecording(t *testing.T) {
	ix, f := loadDemo(t)
	b, _ := os.ReadFile(demoCast)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:]
	if ix.Cols != 140 || ix.Rows != 45 || len(ix.Events) != len(lines) {
		t.Fatalf("index %d×%d, %d events; file has %d", ix.Cols, ix.Rows, len(ix.Events), len(lines))
	}
	if got := ix.Total(); got != time.Duration(41.506696*float64(time.Second)) {
		t.Errorf("total %v", got)
	}
	var want, got []string
	for _, l := range lines {
		var ev [3]any
		json.Unmarshal([]byte(l), &ev)
		want = append(want, ev[1].(string)+ev[2].(string))
	}
	for _, r := range [][2]int{{0, 10}, {10, 11}, {11, len(lines)}} { // several reads, as seeks do
		if err := ix.Read(f, r[0], r[1], func(kind, data string) { got = append(got, kind+data) }); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("read %d events, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Playback in wall time: what is due, how long until the next event, at a speed;
// pausing freezes the recording's time, a speed change does not move it.
func TestPositionPlaysInTime(t *testing.T) {
	ix, _ := loadDemo(t)
	t0 := time.Unix(1000, 0)
	p := NewPosition(ix, 1, t0)
	if from, to, wait := p.Due(t0); from != 0 || to != 0 || wait != ix.Events[0].At {
		t.Fatalf("at the start: [%d,%d) wait %v", from, to, wait)
	}
	from, to, _ := p.Due(t0.Add(5 * time.Second))
	if from != 0 || to != p.after(5*time.Second) || ix.Events[to-1].At > 5*time.Second || ix.Events[to].At <= 5*time.Second {
		t.Fatalf("after 5 s: [%d,%d)", from, to)
	}
	p.Faster(t0.Add(5 * time.Second))
	if at := p.At(t0.Add(5 * time.Second)); at != 5*time.Second {
		t.Errorf("a speed change moved the time to %v", at)
	}
	if at := p.At(t0.Add(6 * time.Second)); at != 7*time.Second {
		t.Errorf("at ×2 one second later: %v, want 7s", at)
	}
	p.Toggle(t0.Add(6 * time.Second))
	if !p.Paused || p.At(t0.Add(time.Hour)) != 7*time.Second {
		t.Errorf("paused: %v at %v", p.Paused, p.At(t0.Add(time.Hour)))
	}
	if _, _, wait := p.Due(t0.Add(time.Hour)); wait != 0 {
		t.Errorf("a paused player waits %v for an event", wait)
	}
	if got := p.Progress(t0.Add(time.Hour)); got != "0:07 / 0:41 ×2 · paused" {
		t.Errorf("progress %q", got)
	}
}

// Seeking: forward plays the events between at once; back starts again from the first
// event on a reset screen; past either end it stops there; at the end, resuming starts
// again. A screen after a seek back is the screen of a straight play to that time.
func TestSeekOnARealRecording(t *testing.T) {
	ix, f := loadDemo(t)
	t0 := time.Unix(1000, 0)
	p := NewPosition(ix, 1, t0)
	_, played, _ := p.Due(t0.Add(12 * time.Second))
	from, to, reset := p.Seek(22*time.Second, t0.Add(12*time.Second))
	if reset || from != played || to != p.after(22*time.Second) || to <= from {
		t.Fatalf("forward 10 s: [%d,%d) reset %v (played %d)", from, to, reset, played)
	}
	if at := p.At(t0.Add(13 * time.Second)); at != 23*time.Second {
		t.Errorf("one second after the seek: %v", at)
	}
	from, to, reset = p.Seek(2*time.Second, t0.Add(13*time.Second))
	if !reset || from != 0 || to != p.after(2*time.Second) {
		t.Fatalf("back: [%d,%d) reset %v", from, to, reset)
	}
	seeked := screen.NewScreen(ix.Cols, ix.Rows)
	feed(t, ix, f, seeked, 0, p.after(30*time.Second))
	seeked.Write([]byte("\x1bc"))
	feed(t, ix, f, seeked, from, to)
	straight := screen.NewScreen(ix.Cols, ix.Rows)
	feed(t, ix, f, straight, 0, to)
	if a, b := seeked.Render(), straight.Render(); a != b || strings.TrimSpace(straight.Text()) == "" {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		i := firstDiff(al, bl)
		t.Errorf("after a seek back the screen differs from a straight play at line %d (%d, %d lines):\n%q\n%q", i, len(al), len(bl), al[len(al)-1], bl[len(bl)-1])
	}
	t1 := t0.Add(14 * time.Second)
	if _, to, _ = p.Seek(time.Hour, t1); to != len(ix.Events) || !p.Ended() ||
		p.At(t1.Add(time.Hour)) != ix.Total() || !strings.HasSuffix(p.Progress(t1), "end of recording") {
		t.Errorf("past the end: to %d of %d, at %v, %q", to, len(ix.Events), p.At(t1), p.Progress(t1))
	}
	if !p.Toggle(t0.Add(15 * time.Second)) {
		t.Error("resuming at the end does not start again")
	}
	if _, _, reset = p.Seek(-time.Minute, t0); !reset || p.At(t0) != 0 {
		t.Errorf("before the start: reset %v at %v", reset, p.At(t0))
	}
}

func feed(t *testing.T, ix *Index, f *os.File, s *screen.Screen, from, to int) {
	t.Helper()
	err := ix.Read(f, from, to, func(kind, data string) {
		if kind == "o" {
			s.Write([]byte(data))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A recording that is not one, or whose lines are too long, is refused; unparsable
// event lines are skipped without shifting the events after them.
func TestLoadRefusesAndSkips(t *testing.T) {
	for _, bad := range []string{"", "not json\n", `{"version": 1, "width": 80, "height": 24}` + "\n",
		strings.Repeat("x", HeaderCap+10)} {
		if _, err := Load(strings.NewReader(bad)); err == nil {
			t.Errorf("%.40q accepted", bad)
		}
	}
	rec := `{"version": 2, "width": 80, "height": 24}
[0.5, "o", "one"]
garbage
[1.0, "o", "two"]
[0.9, "o", "three"]`
	ix, err := Load(strings.NewReader(rec))
	if err != nil || len(ix.Events) != 3 || ix.Events[2].At != time.Second {
		t.Fatalf("%+v %v", ix, err)
	}
	var got []string
	ix.Read(strings.NewReader(rec), 1, 3, func(_, d string) { got = append(got, d) })
	if !slices.Equal(got, []string{"two", "three"}) {
		t.Errorf("read %q", got)
	}
}

// Keys arrive as a terminal sends them, in either cursor mode, and a sequence cut by a
// read is completed by the next.
func TestParseKeys(t *testing.T) {
	var all []Cmd
	var held []byte
	for _, read := range []string{" +-", "\x1b[D\x1bOC\x1b", "[H\x1b[4~x", "q"} {
		cmds, rest := Parse(append(held, read...))
		all, held = append(all, cmds...), rest
	}
	want := []Cmd{CmdPause, CmdFaster, CmdSlower, CmdBack, CmdForward, CmdStart, CmdEnd, CmdQuit}
	if !slices.Equal(all, want) {
		t.Errorf("parsed %v, want %v", all, want)
	}
	for c, in := range Input {
		if got, _ := Parse([]byte(in)); !slices.Equal(got, []Cmd{c}) {
			t.Errorf("the UI's bytes for %d parse as %v", c, got)
		}
	}
}
