package frame

import (
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"

	tea "charm.land/bubbletea/v2"
)

// tickerModel sets the clipboard on askMsg (OSC 52), a sequence Bubble
// Tea queues and writes only on its ticker's next tick, after stopping that ticker
// when quiet.
type tickerModel struct {
	t     *terminal
	quiet bool
}

type askMsg struct{}

func (m tickerModel) Init() tea.Cmd  { return nil }
func (m tickerModel) View() tea.View { return tea.View{} }
func (m tickerModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(askMsg); ok {
		if m.quiet {
			m.t.quietTicker()
		}
		return m, tea.SetClipboard("x")
	}
	return m, nil
}

type countingWriter struct {
	mu sync.Mutex
	n  int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += len(p)
	return len(p), nil
}

func (w *countingWriter) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// run runs a Bubble Tea program set up as NewProgram sets it up (no renderer, one
// frame a second), sends it askMsg and returns what it wrote within wait.
func runTicker(t *testing.T, quiet bool, wait time.Duration) int {
	t.Helper()
	w := &countingWriter{}
	term := &terminal{}
	p := tea.NewProgram(tickerModel{t: term, quiet: quiet}, tea.WithInput(nil), tea.WithOutput(w),
		tea.WithoutRenderer(), tea.WithFPS(1), tea.WithoutSignalHandler())
	term.prog = p
	done := make(chan struct{})
	go func() { defer close(done); p.Run() }()
	defer func() { p.Quit(); <-done }()
	p.Send(askMsg{})
	if !quiet {
		eventually.True(t, wait, "the clipboard sequence written on the ticker's tick", func() bool { return w.count() > 0 })
		return w.count()
	}
	time.Sleep(wait) // a negative: nothing may be written in this window
	return w.count()
}

// Bubble Tea's ticker is found and stopped: the sequence it would flush on its next tick
// (at most a second later) is not written in 2.5 s, where the same program with its
// ticker left running writes it.
func TestBubbleTeaTickerIsFoundAndStopped(t *testing.T) {
	if n := runTicker(t, false, 5*time.Second); n == 0 {
		t.Fatal("unreachable")
	}
	if n := runTicker(t, true, 2500*time.Millisecond); n != 0 {
		t.Fatalf("%d bytes written with the ticker stopped, want 0: Bubble Tea's ticker was not found (its field moved?)", n)
	}
}
