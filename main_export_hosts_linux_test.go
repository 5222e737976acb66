package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// corral screen --png and --svg of a run on another host (through real OpenSSH): the
// capture comes from that host's server, the picture is drawn and written here; and
// corral export of that run's name, whose recording is on the other host, says it is
// not a run here.
func TestScreenPictureOverSSH(t *testing.T) {
	h := startHosts(t, "", "alpha")
	sp := h.corral("spawn", "--host", "alpha", "--pty", "--name", "painter", "--shell", "--",
		`printf '\033[31mred <&> text\033[0m\n'; exec sleep 600`)
	if sp.code != 0 {
		t.Fatalf("spawn --host alpha: %+v", sp)
	}
	h.pollUntil("alpha", "painter", "red <&> text")
	dir := t.TempDir()
	out := filepath.Join(dir, "far.png")
	eventually.True(t, 20*time.Second, "the PNG of the remote screen", func() bool {
		r := h.corral("screen", "--host", "alpha", "painter", "--png", "-o", out)
		if r.code != 0 {
			t.Fatalf("screen --host alpha --png: %+v", r)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("the PNG: %v", err)
		}
		// The first cell's ink: red over the dark theme's background.
		for y := img.Bounds().Min.Y; y < img.Bounds().Min.Y+30; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Min.X+30; x++ {
				if r, g, _, _ := img.At(x, y).RGBA(); r>>8 > 150 && g>>8 < 100 {
					return true
				}
			}
		}
		return false
	})
	svg := h.corral("screen", "--host", "alpha", "painter", "--svg")
	if svg.code != 0 || !strings.Contains(svg.stdout, "red &lt;&amp;&gt; text") {
		t.Errorf("screen --host alpha --svg: %+v", svg)
	}
	if r := h.corral("export", "painter", filepath.Join(dir, "far.gif")); r.code == 0 || !strings.Contains(r.stderr, "painter is neither a file nor a run") {
		t.Errorf("export of another host's run: %+v", r)
	}
	h.corral("kill", "--host", "alpha", "painter")
}
