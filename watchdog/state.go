package watchdog

import "time"

// State is a snapshot for the UI.
type State struct {
	Overall, NoOutput Deadline
	LastOutput        time.Time // zero if none yet (then age counts from Start)
	LastOutputAge     time.Duration
	Frozen            bool  // paused, or awaiting input
	Awaiting          bool  // the run asked for its human and has had no input since
	Fired             Cause // None until a deadline fired
	Stopped           bool
}

// Deadline describes one timeout at the time of the snapshot.
type Deadline struct {
	Armed   bool          // configured and not yet fired/stopped
	At      time.Time     // zero when frozen or off
	Span    time.Duration // configured length
	Left    time.Duration // time left (while frozen: the frozen remainder)
	Warning bool          // armed and Left <= Warn × Span
}

// State returns a consistent snapshot of both deadlines as of now.
func (w *Watchdog) State() State {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clk.Now()
	return State{
		Overall:       w.view(&w.overall, now, false),
		NoOutput:      w.view(&w.noOutput, now, w.frozen),
		LastOutput:    w.lastOutput,
		LastOutputAge: w.outputAge(now),
		Frozen:        w.frozen,
		Awaiting:      w.awaiting,
		Fired:         w.fired,
		Stopped:       w.stopped,
	}
}

func (w *Watchdog) view(d *deadline, now time.Time, frozen bool) Deadline {
	v := Deadline{Span: d.span, Armed: d.on() && w.running()}
	if !v.Armed {
		return v
	}
	if frozen {
		v.Left = d.left
	} else {
		v.At, v.Left = d.at, max(d.at.Sub(now), 0)
	}
	// Warn <= 0 disables the warning rather than flagging Left == 0.
	v.Warning = w.cfg.Warn > 0 && v.Left <= time.Duration(w.cfg.Warn*float64(d.span))
	return v
}

func (w *Watchdog) outputAge(now time.Time) time.Duration {
	switch {
	case !w.lastOutput.IsZero():
		return now.Sub(w.lastOutput)
	case w.started:
		return now.Sub(w.startedAt)
	}
	return 0
}
