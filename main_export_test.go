package main

import (
	"encoding/xml"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

const cliCast = `{"version": 2, "width": 30, "height": 4}
[0.2, "o", "\u001b[32mgreen\u001b[0m"]
[1.0, "o", "\r\nnext"]
[2.0, "o", "\r\nlast"]
`

// corral export through the binary: a GIF and an SVG of a recording; a corrupt line
// named with exit 0 and the part before it written; bad input exits 1 with one line
// naming it and nothing at OUT; bad flags exit 2.
func TestExportCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cast := filepath.Join(dir, "rec.cast")
	os.WriteFile(cast, []byte(cliCast), 0o644)
	out := filepath.Join(dir, "rec.gif")
	r := run(t, corral(t, "export", "--idle-limit", "0.5s", cast, out))
	if r.code != 0 || !strings.Contains(r.stderr, "wrote "+out+" (4 frames") {
		t.Fatalf("export to GIF: exit %d, %q", r.code, r.stderr)
	}
	f, _ := os.Open(out)
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 4 || g.Delay[1] != 50 || g.Delay[2] != 50 {
		t.Fatalf("the GIF: %v; want 4 frames, the pauses cut to 0.5 s", err)
	}
	// Flags after the files, as people type them.
	after := filepath.Join(dir, "after.gif")
	if r := run(t, corral(t, "export", cast, after, "--idle-limit", "0.5s")); r.code != 0 || !strings.Contains(r.stderr, "wrote "+after+" (4 frames") {
		t.Fatalf("export with its flags after the files: exit %d, %q", r.code, r.stderr)
	}
	f, _ = os.Open(after)
	g, err = gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) != 4 || g.Delay[1] != 50 {
		t.Fatalf("the GIF of flags after the files: %v; want 4 frames, the pauses cut to 0.5 s", err)
	}
	svg := filepath.Join(dir, "rec.svg")
	if r := run(t, corral(t, "export", "--last", cast, svg)); r.code != 0 || !strings.Contains(r.stderr, "wrote "+svg+" (a still picture, ") {
		t.Fatalf("export --last to SVG: exit %d, %q", r.code, r.stderr)
	}
	data, _ := os.ReadFile(svg)
	if err := xml.Unmarshal(data, new(struct{})); err != nil || !strings.Contains(string(data), ">last<") {
		t.Fatalf("the still SVG: %v\n%s", err, data)
	}

	cut := filepath.Join(dir, "cut.cast")
	os.WriteFile(cut, []byte(strings.Replace(cliCast, `[2.0, "o", "\r\nlast"]`, `[2.0, "o", "\r\nla`, 1)), 0o644)
	r = run(t, corral(t, "export", cut, filepath.Join(dir, "cut.svg")))
	if r.code != 0 || !strings.Contains(r.stderr, "line 4 is not a valid event") {
		t.Errorf("a corrupt line: exit %d, %q", r.code, r.stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{cast, filepath.Join(dir, "x.webm")}, 1, "unknown format .webm"},
		{[]string{"--theme", "nope", cast, filepath.Join(dir, "x.svg")}, 1, `unknown theme "nope"`},
		{[]string{cast, filepath.Join(dir, "no", "x.svg")}, 1, "no such directory"},
		{[]string{"--font", cast, cast, filepath.Join(dir, "x.gif")}, 1, "not a TrueType or OpenType font"},
		{[]string{filepath.Join(dir, "rec.gif"), filepath.Join(dir, "x.svg")}, 1, "not an asciicast recording (version 2 or 3)"},
		{[]string{"--speed", "0", cast, filepath.Join(dir, "x.svg")}, 2, "--speed"},
		{[]string{cast}, 2, "want a FILE.cast or RUN and an OUT file"},
	} {
		r := run(t, corral(t, append([]string{"export"}, c.args...)...))
		if r.code != c.code || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("export %v: exit %d, %q; want %d and one line saying %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.svg")); err == nil {
		t.Error("a failed export left x.svg")
	}
}

// corral screen --svg and --png: a picture of a live run's screen from the server.
func TestScreenPicture(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	startServer(t, state)
	r := run(t, corral(t, "spawn", "--state-dir", state, "--pty", "--name", "pic", "--shell", "--",
		`printf '\033[1;31mPICTURE\033[0m 漢字\n'; exec sleep 60`))
	if r.code != 0 {
		t.Fatalf("spawn: %d %s", r.code, r.stderr)
	}
	id := strings.TrimSpace(r.stdout)
	t.Cleanup(func() { run(t, corral(t, "kill", "--state-dir", state, id)) })
	eventually.True(t, 20*time.Second, "the run's screen to show PICTURE", func() bool {
		return strings.Contains(run(t, corral(t, "screen", "--state-dir", state, id)).stdout, "PICTURE")
	})
	dir := t.TempDir()
	svgPath, pngPath := filepath.Join(dir, "s.svg"), filepath.Join(dir, "s.png")
	if r := run(t, corral(t, "screen", "--state-dir", state, id, "--svg", "-o", svgPath)); r.code != 0 {
		t.Fatalf("screen --svg: %d %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(svgPath)
	if err := xml.Unmarshal(data, new(struct{})); err != nil || !strings.Contains(string(data), `class="f0 b"`) || !strings.Contains(string(data), ">PICTURE<") ||
		!strings.Contains(string(data), ">漢<") {
		t.Errorf("the screen's SVG: %v\n%.2000s", err, data)
	}
	cmd := corral(t, "screen", "--state-dir", state, id, "--png")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(stdout)
	io.Copy(io.Discard, stdout)
	if werr := cmd.Wait(); err != nil || werr != nil {
		t.Fatalf("screen --png to stdout: %v, %v", err, werr)
	}
	if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 100 {
		t.Errorf("the PNG is %v", b)
	}
	if r := run(t, corral(t, "screen", "--state-dir", state, id, "--png", "-o", pngPath)); r.code != 0 || !strings.Contains(r.stderr, "wrote "+pngPath) {
		t.Errorf("screen --png -o: %d %q", r.code, r.stderr)
	}
	if r := run(t, corral(t, "screen", "--state-dir", state, id, "--png", "-o", svgPath)); r.code != 2 {
		t.Errorf("screen --png -o x.svg: exit %d, want 2 (%s)", r.code, r.stderr)
	}

	// The run's recording, by its name: once it ended, its recording is whole.
	run(t, corral(t, "kill", "--state-dir", state, id))
	out := filepath.Join(dir, "pic.svg")
	eventually.True(t, 20*time.Second, "corral export pic to show PICTURE", func() bool {
		r := run(t, corral(t, "export", "--state-dir", state, "--last", "pic", out))
		data, _ := os.ReadFile(out)
		return r.code == 0 && strings.Contains(string(data), ">PICTURE<")
	})
}
