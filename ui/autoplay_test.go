package ui

import (
	"corral/ui/dialog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Autoplay answers a question once it could have been read. A loaded machine may
// leave the UI busy while the keys queue up, so it reads the cancel key and the
// answer back to back; the guard then ignores the answer as typed ahead, and the
// demo waited for a cancel that never came (seen once in CI). Here the UI stalls
// before its first key, as it did there.
func TestAutoplayAnswersAStalledUI(t *testing.T) {
	h := twoRuns(t)
	msgs := make(chan tea.Msg, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		stalled := false
		for msg := range msgs {
			if _, ok := msg.(tea.KeyPressMsg); ok && !stalled {
				stalled = true
				time.Sleep(3 * dialog.AnswerGrace) // busy when the key came: it and the next wait
			}
			h.clk.t = time.Now()
			h.send(msg)
		}
	}()
	a := autoplayer{send: func(m tea.Msg) { msgs <- m }, engine: h.core}
	a.key("x")
	err := a.answer("y")
	close(msgs)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if got := h.core.called("Cancel"); len(got) != 1 {
		t.Fatalf("the answer did not cancel: calls %q\n%s", h.core.Calls(), h.view())
	}
}
