package runs

import (
	"testing"

	"corral/demo/testkit/eventually"
)

// nextOutput is the next output event of run id on sub, within waitLimit.
func nextOutput(t *testing.T, sub *Subscription, id string) Event {
	t.Helper()
	e, ok := eventually.Event(waitLimit, sub.C, func(e Event) bool { return e.Type == EventOutput && e.Run.ID == id })
	if !ok {
		t.Fatalf("no output of %s", id)
	}
	return e
}

// Output that answers input (the first reads after a write to the run: its echo) says
// so, and the pacers draw it at once (pacer.Echo); output with no input before it
// does not. A PTY echoes what is written to it.
func TestOutputAfterInputIsAnEcho(t *testing.T) {
	s := newSup(t, WithScreens())
	_, sub := s.Subscribe()
	defer sub.Close()
	id := spawn(t, s, childSpec(true, "sleep"))
	if e := nextOutput(t, sub, id); e.Detail != "" { // "ready"
		t.Fatalf("output with no input before it: detail %q", e.Detail)
	}
	waitOutput(t, s, id, "ready")
	if err := s.Write(id, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := eventually.Event(waitLimit, sub.C, func(e Event) bool {
		return e.Type == EventOutput && e.Run.ID == id && e.Detail == DetailEcho
	}); !ok {
		t.Fatal("the echo of a write was not an output event that says echo")
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}

// A read's echo is not lost to the coalescing of output events: a subscriber that
// has an output event of the run queued still gets one that says echo.
func TestCoalescedOutputKeepsTheEcho(t *testing.T) {
	var h hub
	h.mu.Lock()
	sub := h.addLocked()
	h.mu.Unlock()
	defer sub.Close()
	// The pump takes r0's event and waits for the test to read it, so r1's output
	// stays queued while its echo comes.
	h.publish(Event{Type: EventOutput, Run: Info{ID: "r0"}})
	h.publish(Event{Type: EventOutput, Run: Info{ID: "r1"}})
	h.publish(Event{Type: EventOutput, Run: Info{ID: "r1"}, Detail: DetailEcho})
	if e := nextOutput(t, sub, "r0"); e.Detail != "" {
		t.Fatalf("r0's output: detail %q", e.Detail)
	}
	if e := nextOutput(t, sub, "r1"); e.Detail != DetailEcho {
		t.Fatalf("the queued output event after an echo: detail %q", e.Detail)
	}
}
