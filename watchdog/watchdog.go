package watchdog

import (
	"sync"
	"time"
)

// Config holds the resolved numbers for one run; the caller supplies all of
// them (defaults live in the config package).
type Config struct {
	Overall    time.Duration // <= 0: off
	NoOutput   time.Duration // <= 0: off (already resolved with Derive)
	Warn       float64       // fraction of a deadline's span at its end during which Deadline.Warning is true (e.g. 0.2)
	EchoWindow time.Duration // output within this long after Input() is echo of our own input and does not re-arm
	// Silent is how long the run has already gone without output when Start is called
	// (a run a new server takes over): the no-output deadline counts it, at least a
	// millisecond being left.
	Silent time.Duration
}

// Watchdog tracks the deadlines of one run. It is safe for concurrent use.
//
// Re-arming is lazy: Output only moves the stored no-output deadline, and the
// timer keeps its earlier wake-up. When that wake-up comes early, the
// callback schedules a new timer for the remainder. A chatty run (100k
// Output calls a second) thus costs one lock and one clock read per call and
// at most one timer per span, instead of a Stop and AfterFunc per call.
type Watchdog struct {
	cfg  Config
	clk  Clock
	fire func(Cause)

	mu         sync.Mutex
	overall    deadline
	noOutput   deadline
	started    bool
	startedAt  time.Time
	lastOutput time.Time
	lastInput  time.Time
	inputSeen  bool
	frozen     bool // paused or awaiting: the no-output deadline does not run
	paused     bool
	awaiting   bool // the run asked for its human (AwaitInput) and got no input since
	fired      Cause
	stopped    bool
}

// deadline is one timeout. While running, at is the true deadline and timer
// a wake-up at or before it; while frozen, left holds the remainder.
type deadline struct {
	cause Cause
	span  time.Duration // 0: off
	at    time.Time
	left  time.Duration
	timer Timer
	// gen identifies the current wake-up. A callback whose Stop lost the race
	// (it was already running) sees a newer gen and does nothing.
	gen uint64
}

// New returns a Watchdog that calls fire (at most once) when a deadline
// passes. Nothing is armed until Start.
func New(cfg Config, clk Clock, fire func(Cause)) *Watchdog {
	if fire == nil {
		fire = func(Cause) {}
	}
	return &Watchdog{
		cfg:      cfg,
		clk:      clk,
		fire:     fire,
		overall:  deadline{cause: Overall, span: max(cfg.Overall, 0)},
		noOutput: deadline{cause: NoOutput, span: max(cfg.NoOutput, 0)},
	}
}

// Start arms the deadlines from now. It is idempotent, and a no-op after Stop.
// If Pause came first, the no-output deadline starts frozen with its full span.
func (w *Watchdog) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started || w.stopped {
		return
	}
	now := w.clk.Now()
	w.started, w.startedAt = true, now
	if w.overall.on() {
		w.arm(&w.overall, now, w.overall.span)
	}
	if w.noOutput.on() {
		left := max(w.noOutput.span-max(w.cfg.Silent, 0), time.Millisecond)
		if w.frozen {
			w.noOutput.left = left
		} else {
			w.arm(&w.noOutput, now, left)
		}
	}
}

// Output records output seen now and pushes the no-output deadline out,
// except for echo of our own recent input and while frozen, when only the
// last-output time is recorded (the UI still shows it).
func (w *Watchdog) Output() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clk.Now()
	w.lastOutput = now
	if w.frozen || !w.running() || !w.noOutput.on() || w.isEcho(now) {
		return
	}
	// Lazy re-arm (see Watchdog): the pending wake-up notices the move.
	w.noOutput.at = now.Add(w.noOutput.span)
}

// Input records that we wrote to the run now, so that the terminal echoing
// it back is not mistaken for the run making progress. It ends AwaitInput: the
// no-output deadline runs again, with its whole span (the answer starts the wait
// for the run's next output).
func (w *Watchdog) Input() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastInput, w.inputSeen = w.clk.Now(), true
	w.endAwait()
}

// Working says the run announced that it works again (an agent's spinner title, or
// its OSC 7501 state=working) after it had said it waits: its silence is judged
// again, with the whole span. It is not input: no echo window starts.
func (w *Watchdog) Working() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.endAwait()
}

// endAwait ends AwaitInput: the no-output deadline runs again with its whole span
// (unless the run is paused).
func (w *Watchdog) endAwait() {
	if !w.awaiting {
		return
	}
	w.awaiting = false
	w.noOutput.left = w.noOutput.span
	if !w.paused {
		w.thaw()
	}
}

// AwaitInput says the run is waiting for its human: it rang the bell or sent a
// desktop notification (an agent at its prompt). Silence is then not a hang: the
// no-output deadline is frozen until the next Input (Claude Code idle
// at its prompt was killed by a 20 s no-output timeout). The overall deadline
// keeps running.
func (w *Watchdog) AwaitInput() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.awaiting = true
	w.freeze()
}

// Pause freezes the no-output deadline, keeping its remainder: a stopped
// (SIGSTOPped) run cannot produce output. The overall deadline keeps running
// so a forgotten paused run is still reaped.
func (w *Watchdog) Pause() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.paused = true
	w.freeze()
}

// Resume re-arms the no-output deadline for the remainder kept by Pause (unless the
// run is also awaiting input).
func (w *Watchdog) Resume() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.paused {
		return
	}
	w.paused = false
	if !w.awaiting {
		w.thaw()
	}
}

// freeze stops the no-output deadline, keeping its remainder.
func (w *Watchdog) freeze() {
	if w.frozen {
		return
	}
	w.frozen = true
	if !w.running() || !w.noOutput.on() {
		return
	}
	w.noOutput.left = max(w.noOutput.at.Sub(w.clk.Now()), 0)
	w.noOutput.cancel()
	w.noOutput.at = time.Time{}
}

// thaw re-arms the no-output deadline for its kept remainder.
func (w *Watchdog) thaw() {
	if !w.frozen {
		return
	}
	w.frozen = false
	if !w.running() || !w.noOutput.on() {
		return
	}
	w.arm(&w.noOutput, w.clk.Now(), w.noOutput.left)
}

// Stop disarms both deadlines for good: once Stop returns, no deadline can
// fire any more. A fire already under way (its deadline passed before Stop
// took the lock) is not waited for, so fire may itself call Stop, and a
// caller that waits on the run fire is killing cannot deadlock with it.
func (w *Watchdog) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.overall.cancel()
	w.noOutput.cancel()
}

// running reports whether deadlines may still fire.
func (w *Watchdog) running() bool {
	return w.started && !w.stopped && w.fired == None
}

func (w *Watchdog) isEcho(now time.Time) bool {
	return w.inputSeen && now.Sub(w.lastInput) < w.cfg.EchoWindow
}

// arm sets d to expire dur after now and schedules its wake-up.
func (w *Watchdog) arm(d *deadline, now time.Time, dur time.Duration) {
	d.at = now.Add(dur)
	w.schedule(d, dur)
}

// schedule replaces d's wake-up with one after dur.
func (w *Watchdog) schedule(d *deadline, dur time.Duration) {
	d.cancel()
	gen := d.gen
	d.timer = w.clk.AfterFunc(dur, func() { w.wake(d, gen) })
}

// wake runs on the timer goroutine. It fires d if its deadline has really
// passed, or re-schedules for the remainder if Output moved it meanwhile.
func (w *Watchdog) wake(d *deadline, gen uint64) {
	w.mu.Lock()
	if gen != d.gen || !w.running() {
		w.mu.Unlock()
		return
	}
	d.timer = nil
	if left := d.at.Sub(w.clk.Now()); left > 0 {
		w.schedule(d, left)
		w.mu.Unlock()
		return
	}
	w.fired = d.cause
	w.overall.cancel()
	w.noOutput.cancel()
	w.mu.Unlock()
	// Outside the lock: fire may call State or Stop.
	w.fire(d.cause)
}

func (d *deadline) on() bool { return d.span > 0 }

// cancel stops d's pending wake-up and invalidates any already running.
func (d *deadline) cancel() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.gen++
}

// Rearm makes a stopped watchdog startable again, its deadlines off until Start: a
// service's next attempt counts its deadlines afresh (its overall timeout is per
// attempt, as a restarted process's would be).
func (w *Watchdog) Rearm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.overall.cancel()
	w.noOutput.cancel()
	w.started, w.stopped, w.fired = false, false, None
	w.frozen, w.paused, w.awaiting, w.inputSeen = false, false, false, false
	w.startedAt, w.lastOutput, w.lastInput = time.Time{}, time.Time{}, time.Time{}
	w.overall = deadline{cause: Overall, span: w.overall.span, gen: w.overall.gen + 1}
	w.noOutput = deadline{cause: NoOutput, span: w.noOutput.span, gen: w.noOutput.gen + 1}
}
