package ui

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// wakeClock wakes the model (a tickMsg) when the first thing it waits for is due: a
// figure on screen changes (an age, a countdown: the panes note when, see
// common.Changes), a frame held for a synchronized update is to be drawn, or a
// periodic read (snapshot, counters, process tree) is due. There is no fixed tick: an
// idle UI whose screen shows no seconds wakes only for its reads, seconds apart.
type wakeClock struct {
	mu     sync.Mutex
	timer  *time.Timer
	at     time.Time     // when the timer fires; zero while it is not armed
	waiter chan struct{} // closed when the clock fires: the tick chain's command returns
	missed bool          // the clock fired while no command waited
	// figures is when the first figure the last View drew changes (an age, a
	// countdown, a held frame due); zero if none does.
	figures time.Time
}

// figuresAt notes when the figures a View just drew change (zero times are none) and
// wakes the clock for the first of them.
func (w *wakeClock) figuresAt(ts ...time.Time) {
	var first time.Time
	for _, t := range ts {
		if !t.IsZero() && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	w.mu.Lock()
	w.figures = first
	w.mu.Unlock()
	w.wakeAt(first)
}

// readsOnly reports whether a tick at now finds no figure drawn changed (the clock
// woke for the periodic reads): then the view is not drawn again, and the clock is
// armed once more for the figures, which its firing forgot.
func (w *wakeClock) readsOnly(now time.Time) bool {
	w.mu.Lock()
	f := w.figures
	w.mu.Unlock()
	if !f.IsZero() && !f.After(now) {
		return false
	}
	w.wakeAt(f)
	return true
}

func newWakeClock() *wakeClock { return &wakeClock{} }

// wakeAt arms the clock for t, unless it is armed for sooner.
func (w *wakeClock) wakeAt(t time.Time) {
	if t.IsZero() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.at.IsZero() && !t.Before(w.at) {
		return
	}
	w.at = t
	d := max(time.Until(t), 0)
	if w.timer == nil {
		w.timer = time.AfterFunc(d, w.fire)
	} else {
		w.timer.Reset(d)
	}
}

func (w *wakeClock) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.at = time.Time{}
	if w.waiter != nil {
		close(w.waiter)
		w.waiter = nil
	} else {
		w.missed = true
	}
}

// wait is the tick chain gen's next command: a tickMsg when the clock fires. A chain
// started later (restartTick) ends this one's wait: its tick comes at once and is
// dropped as stale.
func (w *wakeClock) wait(gen int) tea.Cmd {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waiter != nil {
		close(w.waiter)
	}
	ch := make(chan struct{})
	if w.missed {
		w.missed = false
		close(ch)
	} else {
		w.waiter = ch
	}
	return func() tea.Msg {
		<-ch
		return tickMsg{gen: gen}
	}
}
