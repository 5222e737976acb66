package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/ptyhost/screen"
	"corral/runs/internal/statefile"
)

// replayCast parses an asciicast v2 file strictly and plays it into a fresh Screen.
func replayCast(t *testing.T, path string) *screen.Screen {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatal("empty cast")
	}
	var h statefile.CastHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Version != 2 || h.Width == 0 {
		t.Fatalf("header %q: %v", sc.Text(), err)
	}
	scr := screen.NewScreen(h.Width, h.Height)
	last := -1.0
	for sc.Scan() {
		var ev [3]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("event %q: %v", sc.Text(), err)
		}
		at, kind, data := ev[0].(float64), ev[1].(string), ev[2].(string)
		if at < last {
			t.Fatalf("time went back: %v after %v", at, last)
		}
		last = at
		switch kind {
		case "o":
			scr.Write([]byte(data))
		case "r":
			var c, r int
			fmt.Sscanf(data, "%dx%d", &c, &r)
			scr.Resize(c, r)
		default:
			t.Fatalf("unknown event kind %q", kind)
		}
	}
	return scr
}

// A PTY run's recording replays to the same final screen as the live run, through a
// resize and UTF-8 split across reads.
func TestCastReplaysToSameScreen(t *testing.T) {
	s := newSup(t, WithScreens())
	spec := childSpec(true, "keys")
	spec.Cols, spec.Rows = 60, 12
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "ready")
	s.Resize(id, 50, 10)
	s.Write(id, []byte("héllo\x1b[31m"))
	waitOutput(t, s, id, "got ")
	s.Cancel(id)
	info := waitEnd(t, s, id)
	live, _ := s.Screen(id)
	replayed := replayCast(t, info.Cast)
	if c, r := replayed.Size(); c != 50 || r != 10 {
		t.Errorf("replayed size %dx%d, want the resized 50x10", c, r)
	}
	if replayed.Text() != live.Text() {
		t.Fatalf("replay differs:\n%s\n--- live ---\n%s", replayed.Text(), live.Text())
	}
}

// A FixedSize PTY run takes up a window size its child sets on its own terminal: the
// player of corral replay following a recording's resize. The screen, Info and the
// run's own recording all follow, before the output written after the resize.
func TestFixedSizeFollowsTheChild(t *testing.T) {
	cast := filepath.Join(t.TempDir(), "in.cast")
	rec := `{"version": 2, "width": 40, "height": 10}
[0.0, "o", "before\r\n"]
[0.01, "r", "60x12"]
[0.02, "o", "` + strings.Repeat("#", 60) + `after"]
`
	if err := os.WriteFile(cast, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens())
	spec := childSpec(true, "cast-play", cast, "4")
	spec.Cols, spec.Rows, spec.FixedSize = 40, 10, true
	id := spawn(t, s, spec)
	waitOutput(t, s, id, "after")
	scr, _ := s.Screen(id)
	if c, r := scr.Size(); c != 60 || r != 12 {
		t.Fatalf("screen %d×%d, want the child's 60×12", c, r)
	}
	// At 60 columns the 60 #s fill the line and "after" wraps to the next: at 40 the
	// #s themselves would have wrapped.
	lines := strings.Split(scr.Text(), "\n")
	if len(lines) < 3 || lines[1] != strings.Repeat("#", 60) || !strings.HasPrefix(lines[2], "after") {
		t.Fatalf("screen text not laid out at 60 columns:\n%s", scr.Text())
	}
	eventually.Value(t, 10*time.Second, "Info size 60×12", func() (Info, bool) {
		info, _ := s.Info(id)
		return info, info.Cols == 60 && info.Rows == 12
	})
	s.Cancel(id)
	info := waitEnd(t, s, id)
	if c, r := replayCast(t, info.Cast).Size(); c != 60 || r != 12 {
		t.Errorf("the run's own recording ends at %d×%d, want 60×12", c, r)
	}
}

// A live run's recording is on disk soon after its output, not only when its buffer
// fills or the run ends: corral replay RUN of a live run found an empty file, and a
// crash lost up to 32 KiB of it (review).
func TestCastOnDiskWhileLive(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, childSpec(true, "keys"))
	waitOutput(t, s, id, "ready")
	info, err := s.Info(id)
	if err != nil || info.Cast == "" {
		t.Fatalf("no recording: %+v, %v", info, err)
	}
	eventually.True(t, 20*time.Second, "the output in the recording on disk", func() bool {
		b, _ := os.ReadFile(info.Cast)
		return bytes.Contains(b, []byte("ready"))
	})
	if info, _ := s.Info(id); info.State != Running {
		t.Fatalf("the run ended (%s) before the check", info.State)
	}
}

// A PTY service's next attempt continues its recording however much the attempts
// before printed: the header is read from the file's first line (it was read as a
// whole file of at most 4 KB, and a bigger one made every next attempt a spawn-error).
func TestCastContinuedByTheNextAttempt(t *testing.T) {
	s := newSup(t, WithScreens())
	spec := Spec{Shell: `head -c 6000 /dev/zero | tr '\0' x; echo; echo attempt-done; exit 1`, PTY: true,
		Restart: &RestartSpec{Policy: RestartOnFailure, MaxRestarts: 1, Window: time.Minute,
			Backoff: time.Millisecond, BackoffMax: time.Millisecond}}
	id := spawn(t, s, spec)
	info := waitEnd(t, s, id)
	if info.Reason != Exit || info.Service.attempt() != 2 {
		t.Fatalf("attempt %d ended %s: %s", info.Service.attempt(), info.Reason, info.SpawnErr)
	}
	b, err := os.ReadFile(info.Cast)
	if err != nil || bytes.Count(b, []byte("attempt-done")) != 2 {
		t.Fatalf("the recording (%v) holds %d attempts' ends", err, bytes.Count(b, []byte("attempt-done")))
	}
}
