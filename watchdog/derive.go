package watchdog

import (
	"math"
	"time"
)

// DeriveRule: if only the overall timeout is set, the no-output timeout
// defaults to Factor × overall clamped to [Min, Max] and at most
// overall − Margin. Max <= 0 means no upper clamp.
type DeriveRule struct {
	Factor   float64
	Min, Max time.Duration
	Margin   time.Duration
}

// Derive resolves the effective no-output timeout: noOutput > 0 → noOutput;
// noOutput < 0 → 0 (explicitly off); noOutput == 0 and overall > 0 → derived
// by rule (0 if result <= 0); else 0.
//
// The cap at overall − Margin is applied last, after the clamp, so a short
// overall timeout still gets a no-output timeout that can fire before it
// (otherwise the Min clamp would make it unreachable).
func Derive(overall, noOutput time.Duration, r DeriveRule) time.Duration {
	switch {
	case noOutput > 0:
		return noOutput
	case noOutput < 0 || overall <= 0:
		return 0
	}
	// Round, not truncate: 0.8 × 300 s is not exact in floating point.
	d := time.Duration(math.Round(r.Factor * float64(overall)))
	d = max(d, r.Min)
	if r.Max > 0 {
		d = min(d, r.Max)
	}
	d = min(d, overall-r.Margin)
	return max(d, 0)
}
