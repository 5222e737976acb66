package watchdog

import (
	"slices"
	"testing"
	"time"
)

func TestFakeClockRunsDueTimersInOrder(t *testing.T) {
	start := time.Unix(1000, 0)
	c := NewFakeClock(start)
	var got []string
	at := func(name string) func() {
		return func() { got = append(got, name+"@"+c.Now().Sub(start).String()) }
	}
	c.AfterFunc(3*time.Second, at("c"))
	c.AfterFunc(time.Second, at("a"))
	c.AfterFunc(3*time.Second, at("d")) // same instant: armed later, runs later
	stopped := c.AfterFunc(2*time.Second, at("never"))
	c.AfterFunc(2*time.Second, func() {
		// Armed from a callback and due within this Advance: runs in it.
		c.AfterFunc(500*time.Millisecond, at("b"))
	})
	c.AfterFunc(10*time.Second, at("later"))

	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once, then false")
	}
	c.Advance(5 * time.Second)

	want := []string{"a@1s", "b@2.5s", "c@3s", "d@3s"}
	if !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
	if now := c.Now().Sub(start); now != 5*time.Second {
		t.Errorf("Now = start+%v, want start+5s", now)
	}
	if n := c.Timers(); n != 1 {
		t.Errorf("Timers() = %d, want 1", n)
	}
}
