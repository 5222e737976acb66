package pacer

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

const frame = 16 * time.Millisecond

// clock drives a Pacer on a clock of the test's: a frame goes when Change says one is
// due, or when the pending changes' due time is reached (what C would fire for).
type clock struct {
	t      *testing.T
	p      *Pacer
	start  time.Time
	now    time.Time
	frames []sent
}

// sent is one frame: when it went (from the start) and the keys it carried.
type sent struct {
	at   time.Duration
	keys []string
}

func newClock(t *testing.T, interval time.Duration) *clock {
	start := time.Now()
	c := &clock{t: t, p: New(interval), start: start, now: start}
	t.Cleanup(c.p.Stop)
	return c
}

// advance moves the clock to d from the start, taking the frame that falls due on the way.
func (c *clock) advance(d time.Duration) {
	if due, ok := c.p.Due(); ok && !due.After(c.start.Add(d)) {
		c.now = due
		c.take()
	}
	c.now = c.start.Add(d)
}

// change is a change of key at d from the start.
func (c *clock) change(d time.Duration, key string) {
	c.advance(d)
	if c.p.Change(key, c.now) {
		c.take()
	}
}

func (c *clock) take() {
	if keys := c.p.Take(c.now); len(keys) > 0 {
		c.frames = append(c.frames, sent{c.now.Sub(c.start), keys})
	}
}

func (c *clock) times() []time.Duration {
	var ts []time.Duration
	for _, f := range c.frames {
		ts = append(ts, f.at)
	}
	return ts
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// A change after a quiet spell goes out at once, every time: nothing waits for a frame.
func TestLoneChangeGoesAtOnce(t *testing.T) {
	c := newClock(t, frame)
	for i := range 10 {
		d := time.Duration(i) * 200 * time.Millisecond
		c.change(d, "r1")
		if n := len(c.frames); n != i+1 || c.frames[n-1].at != d {
			t.Fatalf("a lone change at %v: frames %v", d, c.times())
		}
		if _, waits := c.p.Due(); waits {
			t.Fatalf("a lone change at %v left a frame waiting", d)
		}
	}
}

// An echo in Burst writes a millisecond apart goes out whole at once; the change after
// it waits for the budget (a frame after the first), and so on, one frame an interval.
func TestBurstThenOneFrameAnInterval(t *testing.T) {
	c := newClock(t, frame)
	for i := range Burst + 1 {
		c.change(ms(i), "r1")
	}
	if got := c.times(); len(got) != Burst || got[Burst-1] != ms(Burst-1) {
		t.Fatalf("a burst of %d went at %v", Burst, got)
	}
	if due, ok := c.p.Due(); !ok || due.Sub(c.start) != frame {
		t.Fatalf("the change after the burst is due at %v (%v), want %v", due.Sub(c.start), ok, frame)
	}
	c.advance(frame)
	if got := c.frames[len(c.frames)-1]; got.at != frame || !slices.Equal(got.keys, []string{"r1"}) {
		t.Fatalf("the change after the burst went %+v", got)
	}
}

// A run whose output keeps coming is drawn every BusyFrames frames once busy, however
// fast it prints; another run's lone change still goes out at once meanwhile, with the
// busy run's pending change.
func TestBusyKeyIsPaced(t *testing.T) {
	c := newClock(t, frame)
	for d := ms(0); d <= ms(600); d += ms(2) {
		c.change(d, "busy")
	}
	ts := c.times()
	// Its first Burst changes go at once; busy from its fourth change (6 ms), its next
	// frame is the budget's (a frame after the first), and from there on its frames
	// are BusyFrames frames apart.
	var gaps []time.Duration
	for i := Burst + 1; i < len(ts); i++ {
		gaps = append(gaps, ts[i]-ts[i-1])
	}
	if ts[Burst-1] != ms(2*(Burst-1)) || ts[Burst] != frame || len(gaps) < 5 ||
		slices.Min(gaps) != BusyFrames*frame || slices.Max(gaps) != BusyFrames*frame {
		t.Fatalf("a busy run was drawn at %v", ts)
	}
	last := ts[len(ts)-1]
	c.change(last+ms(1), "quiet")
	if got := c.frames[len(c.frames)-1]; got.at != last+ms(1) || !slices.Equal(got.keys, []string{"busy", "quiet"}) {
		t.Fatalf("a quiet run's change beside a busy one went %+v", got)
	}
}

// Typing never waits for a busy run's pace: an app that echoes each key in two writes
// a millisecond apart, at key repeat (30 keys a second), has four changes within 48 ms
// at every key's second write, and each write still goes at once; so do keys 20 ms
// apart, faster than anyone types; an echo in four writes within 3 ms is whole within
// a frame of its first.
func TestEchoIsNeverPacedAsBusy(t *testing.T) {
	c := newClock(t, frame)
	for d := ms(0); d < ms(400); d += ms(33) {
		for _, w := range []time.Duration{d, d + ms(1)} {
			c.change(w, "r1")
			if got := c.frames[len(c.frames)-1].at; got != w {
				t.Fatalf("a write of an echo at %v did not go at once (frames %v)", w, c.times())
			}
		}
	}
	for d := ms(600); d < ms(1000); d += ms(20) {
		c.change(d, "r1")
		if got := c.frames[len(c.frames)-1].at; got != d {
			t.Fatalf("an echo at %v went at %v", d, got)
		}
	}
	for i := range 4 {
		c.change(ms(1200+i), "r1")
	}
	c.advance(ms(1300))
	if got := c.frames[len(c.frames)-1].at; got > ms(1200)+frame {
		t.Fatalf("an echo in four writes from 1.2 s went at %v", got)
	}
}

// The last change is always followed by a frame that carries it, at most BusyFrames
// frames later, and no frame goes out sooner than the budget allows (at most one an
// interval after the first Burst), over random changes of a few keys.
func TestEveryChangeGetsAFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	for round := range 200 {
		c := newClock(t, frame)
		var changes []sent
		d := time.Duration(0)
		for range 1 + rng.IntN(300) {
			d += time.Duration(rng.ExpFloat64() * float64(rng.IntN(20)+1) * float64(time.Millisecond))
			key := []string{"a", "b", "c"}[rng.IntN(3)]
			c.change(d, key)
			changes = append(changes, sent{d, []string{key}})
		}
		c.advance(d + BusyFrames*frame)
		if _, waits := c.p.Due(); waits {
			t.Fatalf("round %d: a frame still waits after the last change's", round)
		}
		for _, ch := range changes {
			i := slices.IndexFunc(c.frames, func(f sent) bool { return f.at >= ch.at && slices.Contains(f.keys, ch.keys[0]) })
			if i < 0 || c.frames[i].at-ch.at > BusyFrames*frame {
				t.Fatalf("round %d: the change of %s at %v got no frame within %v (frames %v)",
					round, ch.keys[0], ch.at, BusyFrames*frame, c.frames)
			}
		}
		ts := c.times()
		for i := Burst; i < len(ts); i++ {
			if span := ts[i] - ts[i-Burst]; span < frame {
				t.Fatalf("round %d: %d frames within %v: %v", round, Burst+1, span, ts)
			}
		}
	}
}

// Frame 0 paces nothing: every change, however close, goes at once.
func TestFrameZeroPassesEveryChange(t *testing.T) {
	c := newClock(t, 0)
	for i := range 100 {
		c.change(time.Duration(i)*time.Microsecond, "r1")
	}
	if len(c.frames) != 100 {
		t.Fatalf("%d frames for 100 changes", len(c.frames))
	}
}

// C fires when the pending changes are due.
func TestCFiresWhenDue(t *testing.T) {
	p := New(time.Millisecond)
	defer p.Stop()
	now := time.Now()
	for i := range Burst + 1 {
		p.Change("r1", now)
		if i < Burst {
			p.Take(now)
		}
	}
	select {
	case <-p.C():
	case <-time.After(10 * time.Second):
		t.Fatal("C never fired for a pending change")
	}
	if keys := p.Take(time.Now()); !slices.Equal(keys, []string{"r1"}) {
		t.Fatalf("the frame C fired for carried %v", keys)
	}
}

// A key's history is dropped once it is quiet: a server keeps none for every run it had.
func TestQuietKeysAreForgotten(t *testing.T) {
	c := newClock(t, frame)
	for i := range 1000 {
		c.change(time.Duration(i)*time.Millisecond, string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	c.change(ms(2000), "last")
	if n := len(c.p.keys); n != 1 {
		t.Fatalf("%d histories kept after a quiet spell", n)
	}
}

// An echo goes at once whatever the budget and however busy its key: lines typed 25
// ms apart, each a token's echo in three reads then its Enter's echo and the app's
// answer, each read an echo. Its frames still spend the budget: a change that is no
// echo, right after, waits.
func TestEchoGoesAtOnce(t *testing.T) {
	c := newClock(t, frame)
	for line := range 20 {
		for _, d := range []int{0, 1, 2, 5, 6} {
			at := ms(25*line + d)
			c.advance(at)
			if !c.p.Echo("r1", c.now) {
				t.Fatalf("an echo at %v is not due at once", at)
			}
			c.take()
			if got := c.frames[len(c.frames)-1]; got.at != at || !slices.Equal(got.keys, []string{"r1"}) {
				t.Fatalf("an echo at %v went %+v", at, got)
			}
		}
	}
	c.change(ms(25*20), "r1")
	if got := c.frames[len(c.frames)-1].at; got == ms(25*20) {
		t.Fatal("a change that is no echo, right after the echoes spent the budget, went at once")
	}
}

// Input written in a loop to a run that answers each write (an echo every half
// millisecond for a second) goes at once only within the echoes' own budget: at most
// EchoRate·T/frame + EchoBurst frames at once, the frames' budget for the rest.
func TestEchoesInALoopArePaced(t *testing.T) {
	c := newClock(t, frame)
	const span = time.Second
	for at := time.Duration(0); at < span; at += 500 * time.Microsecond {
		c.advance(at)
		if c.p.Echo("r1", c.now) {
			c.take()
		}
	}
	if limit := (EchoRate+1)*int(span/frame) + EchoBurst + Burst; len(c.frames) > limit {
		t.Fatalf("echoes in a loop for %v went in %d frames, more than %d", span, len(c.frames), limit)
	}
}
