package frame

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// BenchmarkEchoFrame is the frame of a key's echo at 186×51: a window of two bordered
// panes, styled, one line of which (the run's prompt line) grows by a character.
func BenchmarkEchoFrame(b *testing.B) {
	const w, h = 186, 51
	r := New(io.Discard, []string{"TERM=xterm-256color"}, w, h)
	r.SetInterval(time.Hour)
	r.Start()
	defer r.Stop()
	lines := make([]string, h)
	for y := range lines {
		left := fmt.Sprintf("\x1b[38;5;245m│\x1b[m \x1b[1;3%dmrun-%02d\x1b[m  \x1b[32mrunning\x1b[m %s", y%8, y, strings.Repeat(" ", 33))
		right := fmt.Sprintf("\x1b[38;5;245m│\x1b[m line %02d of the run's output %s\x1b[38;5;245m│\x1b[m", y, strings.Repeat(" ", 100))
		lines[y] = left + right
	}
	draw := func() {
		r.mu.Lock()
		r.want, r.have = screen(strings.Join(lines, "\n")), true
		r.draw()
		r.mu.Unlock()
	}
	draw()
	typed := ""
	b.ReportAllocs()
	for b.Loop() {
		if typed += "k"; len(typed) > 60 {
			typed = "k"
		}
		lines[30] = fmt.Sprintf("\x1b[38;5;245m│\x1b[m $ %-130s\x1b[38;5;245m│\x1b[m", typed)
		draw()
	}
}
