package watchdog

import (
	"slices"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

const s = time.Second

// firing records each call of fire with the clock's elapsed time.
type firing struct {
	Cause Cause
	At    time.Duration
}

type recorder struct {
	mu  sync.Mutex
	clk Clock
	got []firing
}

func (r *recorder) fire(c Cause) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, firing{c, r.clk.Now().Sub(t0)})
}

func (r *recorder) fired() []firing {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// newTest returns a watchdog on a fake clock at t0, not yet started.
func newTest(cfg Config) (*Watchdog, *FakeClock, *recorder) {
	clk := NewFakeClock(t0)
	r := &recorder{clk: clk}
	return New(cfg, clk, r.fire), clk, r
}

// A step acts on the watchdog or the clock.
type step func(*Watchdog, *FakeClock)

func adv(d time.Duration) step { return func(_ *Watchdog, c *FakeClock) { c.Advance(d) } }

var (
	start  step = func(w *Watchdog, _ *FakeClock) { w.Start() }
	out    step = func(w *Watchdog, _ *FakeClock) { w.Output() }
	in     step = func(w *Watchdog, _ *FakeClock) { w.Input() }
	pause  step = func(w *Watchdog, _ *FakeClock) { w.Pause() }
	resume step = func(w *Watchdog, _ *FakeClock) { w.Resume() }
	stop   step = func(w *Watchdog, _ *FakeClock) { w.Stop() }
	await  step = func(w *Watchdog, _ *FakeClock) { w.AwaitInput() }
	work   step = func(w *Watchdog, _ *FakeClock) { w.Working() }
)

func TestFire(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		steps []step
		want  []firing
	}{
		{"overall fires", Config{Overall: 10 * s},
			[]step{start, adv(9 * s), adv(time.Hour)}, []firing{{Overall, 10 * s}}},
		{"no-output fires first", Config{Overall: 60 * s, NoOutput: 5 * s},
			[]step{start, adv(time.Hour)}, []firing{{NoOutput, 5 * s}}},
		{"silence before Start counts", Config{NoOutput: 5 * s, Silent: 3 * s},
			[]step{start, adv(time.Hour)}, []firing{{NoOutput, 2 * s}}},
		{"silence past the span leaves a millisecond", Config{NoOutput: 5 * s, Silent: time.Hour},
			[]step{start, adv(time.Hour)}, []firing{{NoOutput, time.Millisecond}}},
		{"output after a silent start re-arms the whole span", Config{NoOutput: 5 * s, Silent: 3 * s},
			[]step{start, adv(s), out, adv(time.Hour)}, []firing{{NoOutput, 6 * s}}},
		{"output re-arms", Config{NoOutput: 5 * s},
			[]step{start, adv(4 * s), out, adv(4 * s), out, adv(time.Hour)}, []firing{{NoOutput, 13 * s}}},
		{"output does not extend overall", Config{Overall: 10 * s, NoOutput: 5 * s},
			[]step{start, adv(4 * s), out, adv(4 * s), out, adv(time.Hour)}, []firing{{Overall, 10 * s}}},
		{"echo within window does not re-arm", Config{NoOutput: 5 * s, EchoWindow: s},
			[]step{start, adv(3 * s), in, adv(s / 2), out, adv(time.Hour)}, []firing{{NoOutput, 5 * s}}},
		{"output after echo window re-arms", Config{NoOutput: 5 * s, EchoWindow: s},
			[]step{start, adv(3 * s), in, adv(s), out, adv(time.Hour)}, []firing{{NoOutput, 9 * s}}},
		{"zero echo window never suppresses", Config{NoOutput: 5 * s},
			[]step{start, adv(3 * s), in, out, adv(time.Hour)}, []firing{{NoOutput, 8 * s}}},
		{"pause freezes no-output, overall still fires", Config{Overall: 30 * s, NoOutput: 5 * s},
			[]step{start, adv(2 * s), pause, adv(time.Hour)}, []firing{{Overall, 30 * s}}},
		{"resume restores remainder", Config{NoOutput: 5 * s},
			[]step{start, adv(2 * s), pause, adv(100 * s), resume, adv(time.Hour)}, []firing{{NoOutput, 105 * s}}},
		{"output while frozen does not re-arm", Config{NoOutput: 5 * s},
			[]step{start, adv(2 * s), pause, adv(10 * s), out, resume, adv(time.Hour)}, []firing{{NoOutput, 15 * s}}},
		{"pause before start starts frozen", Config{NoOutput: 5 * s},
			[]step{pause, start, adv(time.Hour), resume, adv(time.Hour)}, []firing{{NoOutput, time.Hour + 5*s}}},
		{"stop prevents firing", Config{Overall: 5 * s, NoOutput: 3 * s},
			[]step{start, adv(2 * s), stop, adv(time.Hour), start, resume, adv(time.Hour)}, nil},
		{"both due at once fire once", Config{Overall: 5 * s, NoOutput: 5 * s},
			[]step{start, adv(time.Hour)}, []firing{{Overall, 5 * s}}},
		{"nothing re-arms after firing", Config{Overall: time.Hour, NoOutput: 5 * s},
			[]step{start, adv(10 * s), out, pause, resume, start, adv(2 * time.Hour)}, []firing{{NoOutput, 5 * s}}},
		{"start is idempotent", Config{NoOutput: 5 * s},
			[]step{start, adv(3 * s), start, adv(time.Hour)}, []firing{{NoOutput, 5 * s}}},
		{"both off", Config{},
			[]step{start, out, adv(time.Hour)}, nil},
		{"awaiting input: silence is not a hang", Config{Overall: 2 * time.Hour, NoOutput: 20 * s},
			[]step{start, adv(10 * s), await, adv(time.Hour), adv(time.Hour)}, []firing{{Overall, 2 * time.Hour}}},
		{"input after awaiting re-arms the whole span", Config{NoOutput: 20 * s},
			[]step{start, adv(19 * s), await, adv(time.Hour), in, adv(time.Hour)}, []firing{{NoOutput, time.Hour + 39*s}}},
		{"resume while awaiting stays frozen", Config{NoOutput: 5 * s},
			[]step{start, pause, await, resume, adv(time.Hour), in, adv(time.Hour)}, []firing{{NoOutput, time.Hour + 5*s}}},
		{"working after awaiting re-arms the whole span", Config{NoOutput: 20 * s},
			[]step{start, adv(19 * s), await, adv(time.Hour), work, adv(time.Hour)}, []firing{{NoOutput, time.Hour + 39*s}}},
		{"working without awaiting changes nothing", Config{NoOutput: 20 * s},
			[]step{start, adv(10 * s), work, adv(time.Hour)}, []firing{{NoOutput, 20 * s}}},
		{"input while paused does not thaw", Config{NoOutput: 5 * s},
			[]step{start, adv(2 * s), pause, await, in, adv(time.Hour), resume, adv(time.Hour)}, []firing{{NoOutput, time.Hour + 7*s}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, clk, r := newTest(tt.cfg)
			for _, st := range tt.steps {
				st(w, clk)
			}
			if got := r.fired(); !slices.Equal(got, tt.want) {
				t.Errorf("fired %v, want %v", got, tt.want)
			}
			// Once fired or stopped, no timer may be left behind.
			if n := clk.Timers(); (len(tt.want) > 0 || w.State().Stopped) && n != 0 {
				t.Errorf("%d timers left pending", n)
			}
		})
	}
}

// stubbornClock hands out timers whose Stop fails, as when the callback has
// already started: only the generation check can then stop a stale arm.
type stubbornClock struct{ *FakeClock }

type stubbornTimer struct{}

func (stubbornTimer) Stop() bool { return false }

func (c stubbornClock) AfterFunc(d time.Duration, f func()) Timer {
	c.FakeClock.AfterFunc(d, f)
	return stubbornTimer{}
}

func TestStaleTimerDoesNotFire(t *testing.T) {
	clk := NewFakeClock(t0)
	r := &recorder{clk: clk}
	w := New(Config{NoOutput: 5 * s}, stubbornClock{clk}, r.fire)
	w.Start()
	clk.Advance(2 * s)
	w.Pause()
	clk.Advance(10 * s) // the stale arm wakes at 5 s, while frozen
	w.Resume()          // 3 s left
	clk.Advance(time.Hour)
	if got, want := r.fired(), []firing{{NoOutput, 15 * s}}; !slices.Equal(got, want) {
		t.Errorf("fired %v, want %v", got, want)
	}
}

func TestStopBeatsStaleTimer(t *testing.T) {
	clk := NewFakeClock(t0)
	r := &recorder{clk: clk}
	w := New(Config{Overall: 5 * s, NoOutput: 5 * s}, stubbornClock{clk}, r.fire)
	w.Start()
	w.Stop()
	clk.Advance(time.Hour)
	if got := r.fired(); len(got) != 0 {
		t.Errorf("fired %v after Stop", got)
	}
}

func TestOutputDoesNotLeakTimers(t *testing.T) {
	w, clk, r := newTest(Config{Overall: time.Hour, NoOutput: 5 * s})
	w.Start()
	for range 10_000 {
		clk.Advance(time.Millisecond)
		w.Output()
	}
	// One overall timer plus one no-output wake-up, however often it moved.
	if n := clk.Timers(); n != 2 {
		t.Errorf("Timers() = %d after many outputs, want 2", n)
	}
	clk.Advance(time.Hour)
	if got, want := r.fired(), []firing{{NoOutput, 15 * s}}; !slices.Equal(got, want) {
		t.Errorf("fired %v, want %v", got, want)
	}
}

func TestFireMayCallBack(t *testing.T) {
	clk := NewFakeClock(t0)
	var w *Watchdog
	var st State
	w = New(Config{Overall: s}, clk, func(Cause) { st = w.State(); w.Stop() })
	w.Start()
	clk.Advance(2 * s)
	if st.Fired != Overall || st.Overall.Armed {
		t.Errorf("State from fire = %+v, want fired overall and disarmed", st)
	}
}

// TestConcurrent is for -race: everything at once on a fake clock.
func TestConcurrent(t *testing.T) {
	w, clk, r := newTest(Config{Overall: 10 * time.Minute, NoOutput: 5 * s, Warn: 0.2, EchoWindow: s})
	w.Start()
	done := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(f func()) {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
					f()
				}
			}
		})
	}
	loop(w.Output)
	loop(w.Input)
	loop(func() { _ = w.State() })
	loop(func() { w.Pause(); w.Resume() })
	for range 2000 {
		clk.Advance(time.Second)
	}
	close(done)
	wg.Wait()
	if got := r.fired(); len(got) > 1 {
		t.Errorf("fire called %d times: %v", len(got), got)
	}
	w.Stop()
}

// BenchmarkOutput measures the re-arm cost of Output on the real clock.
func BenchmarkOutput(b *testing.B) {
	w := New(Config{Overall: time.Hour, NoOutput: time.Hour}, RealClock(), nil)
	w.Start()
	defer w.Stop()
	b.ReportAllocs()
	for b.Loop() {
		w.Output()
	}
}
