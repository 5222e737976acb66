package common

import (
	"testing"
	"time"
)

// Each figure is noted for the moment it turns, no sooner: an age in minutes wakes
// the clock at the next minute, not every second.
func TestChangesAreWhenTheFigureTurns(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		note func(*Changes)
		want time.Duration // from now; 0: nothing noted
	}{
		{"age 5.3s", func(c *Changes) { c.Age(now, 5300*time.Millisecond) }, time.Second}, // at 6s; taken at the whole second
		{"many runs, each its own phase", func(c *Changes) {
			for i := range 50 {
				c.Age(now, time.Duration(5000+i*19)*time.Millisecond)
			}
		}, time.Second},
		{"age 5m20s", func(c *Changes) { c.Age(now, 5*time.Minute+20*time.Second) }, 40 * time.Second},
		{"age 3h", func(c *Changes) { c.Age(now, 3*time.Hour+10*time.Minute) }, 50 * time.Minute},
		{"age in the future", func(c *Changes) { c.Age(now, -2*time.Second) }, 3 * time.Second},
		{"countdown 4:59.4", func(c *Changes) { c.Left(now, 4*time.Minute+59400*time.Millisecond) }, time.Second},
		{"countdown 2h", func(c *Changes) { c.Left(now, 2*time.Hour+90*time.Second) }, 30 * time.Second},
		{"countdown at zero", func(c *Changes) { c.Left(now, 0) }, 0},
		{"the first of two", func(c *Changes) { c.Age(now, 5*time.Minute); c.Age(now, 1500*time.Millisecond) }, time.Second},
	} {
		var ch Changes
		c.note(&ch)
		got := ch.Next(now)
		if c.want == 0 {
			if !got.IsZero() {
				t.Errorf("%s: noted %v, want nothing", c.name, got.Sub(now))
			}
			continue
		}
		if got.Sub(now) != c.want {
			t.Errorf("%s: turns in %v, want %v", c.name, got.Sub(now), c.want)
		}
		if !ch.Next(got).IsZero() {
			t.Errorf("%s: a time already past is still reported", c.name)
		}
	}
}

// A cached rendering drawn against the clock is drawn again once a figure it noted
// turned, even within the same key.
func TestViewCacheRendersAgainWhenAFigureTurns(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var c ViewCache[int]
	n := 0
	render := func() string {
		n++
		c.Changes.Age(now, 1500*time.Millisecond)
		return "x"
	}
	c.GetAt(1, now, render)
	c.GetAt(1, now.Add(999*time.Millisecond), render)
	if n != 1 {
		t.Fatalf("rendered %d times before the figure turned, want 1", n)
	}
	c.GetAt(1, now.Add(time.Second), render)
	if n != 2 {
		t.Fatalf("rendered %d times once the figure turned, want 2", n)
	}
}
