package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost/screen"
	"corral/runs"
)

// benchFrames measures one frame (Update of the frame's OutputMsg + View) at 200×50
// with n PTY runs whose screens all changed since the previous frame and a clock that
// moved a second, so the list and the details are drawn again too: the worst case.
// Feeding the screens is the runs' reader goroutines' work and is not timed.
func benchFrames(b *testing.B, n int, changing bool) {
	engine := newFake()
	clk := &clock{t: t0}
	var infos []runs.Info
	var ids []string
	screens := map[string]*screen.Screen{}
	for i := range n {
		id := fmt.Sprintf("r%02d", i)
		info := liveRun(id, fmt.Sprintf("agent-%d", i), true)
		info.Cols, info.Rows = 134, 39 // the pane's inner size at 200×50
		infos, ids = append(infos, info), append(ids, id)
		screens[id] = screen.NewScreen(134, 39)
	}
	m, step := benchModel(b, engine, infos, clk.now)
	for id, s := range screens {
		step(ScreenMsg{ID: id, Screen: s})
	}
	line := 0
	feed := func() {
		for _, s := range screens {
			line++
			s.Write(fmt.Appendf(nil, "\x1b[1;3%dm%6d\x1b[0m \x1b[38;5;%dmagent output line with some words in it\x1b[0m %s\r\n",
				line%8, line, line%256, "…and a tail of plain text to fill the row"))
		}
	}
	feed()
	step(OutputMsg{IDs: ids})
	_ = m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if changing {
			b.StopTimer()
			feed()
			clk.t = clk.t.Add(time.Second)
			b.StartTimer()
			step(OutputMsg{IDs: ids})
		}
		if v := m.View(); len(v.Content) == 0 {
			b.Fatal("empty frame")
		}
	}
}

// benchModel is a model over engine with runs infos, its ticks off, sized 200×50, and
// a step that gives it a message.
func benchModel(b *testing.B, engine *fakeEngine, infos []runs.Info, now func() time.Time) (*Model, func(tea.Msg)) {
	m, err := newModel(Options{Engine: engine, Initial: infos}, now)
	if err != nil {
		b.Fatal(err)
	}
	m.tick = func(int) tea.Cmd { return nil }
	step := func(msg tea.Msg) {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	step(tea.WindowSizeMsg{Width: 200, Height: 50})
	return &m, step
}

func BenchmarkFrame1(b *testing.B)      { benchFrames(b, 1, true) }
func BenchmarkFrame4(b *testing.B)      { benchFrames(b, 4, true) }
func BenchmarkFrame16(b *testing.B)     { benchFrames(b, 16, true) }
func BenchmarkFrameIdle16(b *testing.B) { benchFrames(b, 16, false) }

// BenchmarkListFilter60 measures the filter typed over sixty runs at 200×50: a key
// that narrows the list and one that widens it again, each an Update and a frame (the
// list filtered and drawn again, the selection's panes with it).
func BenchmarkListFilter60(b *testing.B) {
	rs := manyRuns(60)
	m, update := benchModel(b, newFake(rs...), rs, (&clock{t: t0}).now)
	step := func(k string) {
		if update(keyMsg(k)); len(m.View().Content) == 0 {
			b.Fatal("empty frame")
		}
	}
	step("/")
	step("t")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		step("e")
		step("backspace")
	}
}
