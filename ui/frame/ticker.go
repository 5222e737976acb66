package frame

import (
	"reflect"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea (v2.1.1) runs a ticker even without its renderer, at least once a second
// (WithFPS(1)), only to flush output it queued itself; this package writes that
// output at once (filter), so the tick has nothing to do, yet it wakes the idle
// process every second, and with it the Go runtime's monitor thread for a few more
// wake-ups: about a third of an attached UI's idle CPU. Bubble Tea has no option to
// stop it, so teaTicker finds it, by its field, and the model stops it after every
// Update (Bubble Tea starts it again when it takes the terminal back from a program
// it ran). When the field is not there (another Bubble Tea), nothing is stopped and
// the UI only wakes once a second more; TestBubbleTeaTickerIsFound says so.

// teaTicker is p's renderer ticker, nil before Run starts it or when p has none.
func teaTicker(p *tea.Program) *time.Ticker {
	if p == nil {
		return nil
	}
	f := reflect.ValueOf(p).Elem().FieldByName("ticker")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	return *(**time.Ticker)(unsafe.Pointer(f.UnsafeAddr()))
}

// quietTicker stops Bubble Tea's ticker, if it runs (from Update: the goroutine that
// starts it again).
func (t *terminal) quietTicker() {
	if t.ticker == nil {
		t.ticker = teaTicker(t.prog)
	}
	if t.ticker != nil {
		t.ticker.Stop()
	}
}
