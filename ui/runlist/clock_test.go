package runlist

import (
	"testing"
	"time"

	"corral/runs"
	"corral/watchdog"
)

// The clock wakes when a deadline's countdown turns its colour, though its figure in
// hours and minutes does not turn then, and when the countdown shown changes from a
// frozen deadline to a running one that has run down to it.
func TestCountdownWakesTheClockForWhatTurnsBesidesItsFigure(t *testing.T) {
	for _, c := range []struct {
		name string
		wd   watchdog.State
		want time.Duration
	}{
		// Span 10h7m warns from 2h1m24s left: 26 s from now, its "2h01m" turns in 50 s.
		{"warning begins", watchdog.State{Overall: watchdog.Deadline{Armed: true, At: t0.Add(2*time.Hour + time.Minute + 50*time.Second), Span: 10*time.Hour + 7*time.Minute}}, 26 * time.Second},
		// The frozen no-output deadline (10:00) is shown until the overall one, running,
		// is down to 10:00: in 2m30s.
		{"the tighter changes", watchdog.State{Frozen: true,
			Overall:  watchdog.Deadline{Armed: true, At: t0.Add(12*time.Minute + 30*time.Second), Span: time.Hour},
			NoOutput: watchdog.Deadline{Armed: true, Span: 20 * time.Minute, Left: 10 * time.Minute}}, 2*time.Minute + 30*time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := liveRun("r1", "long", false)
			r.CreatedAt, r.StartedAt = t0.Add(-3*time.Hour), t0.Add(-3*time.Hour) // its age turns in an hour
			r.Watchdog = c.wd
			other := liveRun("r0", "other", false) // selected: r1's row shows its colours
			other.CreatedAt, other.StartedAt, other.Watchdog = r.StartedAt, r.StartedAt, watchdog.State{}
			l := newList([]runs.Info{other, r})
			l.Select("r0")
			l.SetNow(t0)
			l.SetSize(72, 5)
			before := l.View()
			at := l.NextChange()
			if at.IsZero() || at.Sub(t0) > c.want {
				t.Fatalf("the clock wakes in %v, want within %v", at.Sub(t0), c.want)
			}
			l.SetNow(t0.Add(c.want + time.Second))
			if l.View() == before {
				t.Fatalf("nothing changed on screen a second after %v:\n%s", c.want, before)
			}
		})
	}
}
