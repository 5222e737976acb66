package ui

import (
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corral/demo"
	"corral/runs"
)

const exportCast = `{"version": 2, "width": 20, "height": 4}
[0.1, "o", "hello"]
[0.6, "o", "\r\nworld"]
`

// TestExportKey: E on a recorded run writes its recording as a GIF to the current
// directory and the status line says where; on a pipe run it says why not. Under
// corral replay it exports the recording played, not the player's own.
func TestExportKey(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cast := filepath.Join(t.TempDir(), "r1.cast")
	if err := os.WriteFile(cast, []byte(exportCast), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, pipe := liveRun("r1", "shell", true), liveRun("r2", "build", false)
	rec.Cast = cast
	h := newHarness(t, newFake(rec, pipe), 120, 30, rec, pipe)
	h.key("E")
	path := filepath.Join(dir, "corral-shell-r1.gif")
	if !strings.Contains(h.m.flash, "exported to "+path) {
		t.Fatalf("flash after E: %q", h.m.flash)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 3 {
		t.Fatalf("the GIF: %v, %d frames (want 3: blank, hello, world)", err, len(g.Image))
	}
	h.key("j", "E")
	if !strings.Contains(h.m.flash, "build has no recording") {
		t.Errorf("flash after E on a pipe run: %q", h.m.flash)
	}

	// A run of another host: its recording is there.
	far := liveRun("r4", "remote", true)
	far.Cast, far.Host = cast, "far"
	h = newHarness(t, newFake(far), 120, 30, far)
	h.key("E")
	if !strings.Contains(h.m.flash, "remote's recording is on far") {
		t.Errorf("flash after E on another host's run: %q", h.m.flash)
	}

	// Under corral replay: the run is the player; its argv names the recording.
	argv, _ := demo.Child("cast-play", cast, "1")
	player := liveRun("r3", "replay r1.cast", true)
	player.Spec.Argv, player.Cast = argv, filepath.Join(t.TempDir(), "player-own.cast")
	h = harnessWith(t, newFake(player), Options{Initial: []runs.Info{player}, Replay: true}, 120, 30)
	h.key("E")
	if want := filepath.Join(dir, "corral-replay_r1.cast-r3.gif"); !strings.Contains(h.m.flash, "exported to "+want) {
		t.Fatalf("flash after E in replay: %q", h.m.flash)
	}
}

// TestExportKeyTwice: E pressed again while the first export is being written says
// so and starts no second one; once it is done, E exports again.
func TestExportKeyTwice(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cast := filepath.Join(t.TempDir(), "r1.cast")
	if err := os.WriteFile(cast, []byte(exportCast), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := liveRun("r1", "shell", true)
	rec.Cast = cast
	h := newHarness(t, newFake(rec), 120, 30, rec)
	next, first := h.m.Update(keyMsg("E"))
	h.m = next.(Model)
	if first == nil || !strings.Contains(h.m.flash, "exporting shell") {
		t.Fatalf("E: flash %q, command %v", h.m.flash, first != nil)
	}
	next, second := h.m.Update(keyMsg("E"))
	h.m = next.(Model)
	if second != nil || !strings.Contains(h.m.flash, "corral-shell-r1.gif is still being written") {
		t.Fatalf("E again before the first is done: flash %q, a second export %v", h.m.flash, second != nil)
	}
	h.run(first)
	if !strings.Contains(h.m.flash, "exported to "+filepath.Join(dir, "corral-shell-r1.gif")) {
		t.Fatalf("flash once done: %q", h.m.flash)
	}
	h.key("E")
	if !strings.Contains(h.m.flash, "exported to ") {
		t.Errorf("E after the first is done: %q", h.m.flash)
	}
}
