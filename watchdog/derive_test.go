package watchdog

import (
	"testing"
	"time"
)

func TestDerive(t *testing.T) {
	// The default rule (0.8 × overall in [180 s, 600 s], at most overall − 1 s), passed
	// in as the config package would.
	rule := DeriveRule{Factor: 0.8, Min: 180 * time.Second, Max: 600 * time.Second, Margin: time.Second}
	s := time.Second
	tests := []struct {
		name              string
		overall, noOutput time.Duration
		want              time.Duration
	}{
		{"short overall capped below overall", 10 * s, 0, 9 * s},
		{"factor inside clamp", 300 * s, 0, 240 * s},
		{"clamped to max", 1000 * s, 0, 600 * s},
		{"min clamp capped to overall-margin", 100 * s, 0, 99 * s},
		{"explicit no-output wins", 300 * s, 42 * s, 42 * s},
		{"explicit no-output without overall", 0, 42 * s, 42 * s},
		{"negative is explicitly off", 300 * s, -1, 0},
		{"neither set", 0, 0, 0},
		{"overall not above margin", s, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(tt.overall, tt.noOutput, rule); got != tt.want {
				t.Errorf("Derive(%v, %v) = %v, want %v", tt.overall, tt.noOutput, got, tt.want)
			}
		})
	}
}

func TestCauseString(t *testing.T) {
	for c, want := range map[Cause]string{
		None: "none", Overall: "overall-timeout", NoOutput: "no-output-timeout", 7: "Cause(7)",
	} {
		if got := c.String(); got != want {
			t.Errorf("Cause(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}
