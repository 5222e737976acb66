package client

import (
	"fmt"
	"strings"
	"testing"

	"corral/ptyhost/screen"
	"corral/runs/api"
)

// remoteOf is a remoteScreen showing s's frame, as a stream's frame leaves it.
func remoteOf(s *screen.Screen) *remoteScreen {
	r := &remoteScreen{}
	r.update(api.Frame{Render: s.Render(), Version: 1})
	return r
}

// An attached UI's screen text is the frame with its SGR removed: the server's
// screen text, every character kept (wide, combining, box drawing), each row
// padded with the blanks the frame draws.
func TestRemoteScreenText(t *testing.T) {
	for _, in := range []string{
		"plain\r\nlines",
		"\x1b[1;31mred\x1b[0m and \x1b[38;2;1;2;3;48;5;200mtrue colour\x1b[m\r\n\x1b[44m   \x1b[K\x1b[0m",
		"你好 e\u0301 \x1b(0lqk\x1b(B \x1b[4:3mcurly\x1b[m",
		"\x1b[?1049h\x1b[10;5H\x1b[7mreverse\x1b[27m \x1b[2mdim\x1b[22m",
	} {
		s := screen.NewScreen(40, 12)
		s.Write([]byte(in))
		if got, want := trimRows(remoteOf(s).Text()), s.Text(); got != want {
			t.Errorf("%q: remote text\n%q\nwant\n%q", in, got, want)
		}
	}
}

func trimRows(s string) string {
	rows := strings.Split(s, "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return strings.Join(rows, "\n")
}

// BenchmarkRemoteScreenText strips a full 120×40 frame with a colour change every
// 12 cells (ui's flood bench reads it this way).
func BenchmarkRemoteScreenText(b *testing.B) {
	s := screen.NewScreen(120, 40)
	for y := 1; y <= 40; y++ {
		fmt.Fprintf(s, "\x1b[%d;1H", y)
		for x := 0; x < 120; x += 12 {
			fmt.Fprintf(s, "\x1b[38;2;%d;%d;200;48;5;%dm%-12s", x, y*5, x+y, "cell text")
		}
	}
	r := remoteOf(s)
	b.SetBytes(int64(len(r.Render())))
	b.ReportAllocs()
	for b.Loop() {
		if strings.Contains(r.Text(), "\x1b") {
			b.Fatal("SGR left")
		}
	}
}
