package ui

import (
	"fmt"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/ui/frame"
)

// BenchmarkEchoView is what the UI does for a typed key's echo with the run in its
// own process (--local), at 186×51 with the run focused: the Update of the echo's
// OutputMsg, the View (the pane's screen rendered) and the frame drawn. The screen
// holds a page of lines, as `cat` after a while of typing; each iteration's echo is
// one character on the prompt line, every fortieth a line's end that scrolls the
// screen (written to the screen untimed: the reader's work).
func BenchmarkEchoView(b *testing.B) {
	clk := &clock{t: t0}
	info := liveRun("r00", "cat", true)
	m, step := benchModel(b, newFake(info), []runs.Info{info}, clk.now)
	step(tea.WindowSizeMsg{Width: 186, Height: 51})
	scr := screen.NewScreen(80, 24)
	step(ScreenMsg{ID: info.ID, Screen: scr})
	step(keyMsg("enter"))
	if m.mode != modeFocus {
		b.Fatal("not focused")
	}
	// The wake clock's timer runs on the real time, and the model's clock stands at t0,
	// months before it: every View would arm the timer to fire at once.
	m.clock = nil
	iw, ih := m.term.InnerSize()
	scr.Resize(iw, ih)
	for i := range 2 * ih {
		scr.Write(fmt.Appendf(nil, "k%dq0z\r\nk%dq0z\r\n", i, i))
	}
	step(OutputMsg{IDs: []string{info.ID}})
	r := frame.New(io.Discard, []string{"TERM=xterm-256color"}, 186, 51)
	r.SetInterval(time.Nanosecond) // every frame drawn as it is submitted
	r.Start()
	defer r.Stop()
	r.Submit(m.View())
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if n++; n%40 == 0 {
			scr.Write([]byte("\r\n"))
		} else {
			scr.Write([]byte("x"))
		}
		b.StartTimer()
		step(OutputMsg{IDs: []string{info.ID}, Echo: true})
		r.Submit(m.View())
	}
}
