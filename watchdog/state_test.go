package watchdog

import (
	"testing"
	"time"
)

func TestWarning(t *testing.T) {
	cfg := Config{Overall: 10 * s, NoOutput: 100 * s, Warn: 0.2}
	tests := []struct {
		elapsed                   time.Duration
		overallLeft               time.Duration
		overallWarn, noOutputWarn bool
	}{
		{0, 10 * s, false, false},
		{7900 * time.Millisecond, 2100 * time.Millisecond, false, false},
		{8 * s, 2 * s, true, false},
		{9500 * time.Millisecond, 500 * time.Millisecond, true, false},
	}
	for _, tt := range tests {
		w, clk, _ := newTest(cfg)
		w.Start()
		clk.Advance(tt.elapsed)
		st := w.State()
		if st.Overall.Left != tt.overallLeft || st.Overall.Warning != tt.overallWarn {
			t.Errorf("at %v: overall left %v warning %v, want %v %v",
				tt.elapsed, st.Overall.Left, st.Overall.Warning, tt.overallLeft, tt.overallWarn)
		}
		if st.NoOutput.Warning != tt.noOutputWarn {
			t.Errorf("at %v: no-output warning %v, want %v", tt.elapsed, st.NoOutput.Warning, tt.noOutputWarn)
		}
	}
}

func TestState(t *testing.T) {
	cfg := Config{Overall: 60 * s, NoOutput: 10 * s, Warn: 0.2}
	tests := []struct {
		name  string
		cfg   Config
		steps []step
		want  State
	}{
		{"before start", cfg, nil, State{
			Overall:  Deadline{Span: 60 * s},
			NoOutput: Deadline{Span: 10 * s},
		}},
		{"running, no output yet", cfg, []step{start, adv(3 * s)}, State{
			Overall:       Deadline{Armed: true, At: t0.Add(60 * s), Span: 60 * s, Left: 57 * s},
			NoOutput:      Deadline{Armed: true, At: t0.Add(10 * s), Span: 10 * s, Left: 7 * s},
			LastOutputAge: 3 * s,
		}},
		{"frozen", cfg, []step{start, adv(3 * s), out, adv(4 * s), pause, adv(5 * s)}, State{
			Overall:       Deadline{Armed: true, At: t0.Add(60 * s), Span: 60 * s, Left: 48 * s},
			NoOutput:      Deadline{Armed: true, Span: 10 * s, Left: 6 * s},
			LastOutput:    t0.Add(3 * s),
			LastOutputAge: 9 * s,
			Frozen:        true,
		}},
		{"frozen near the end warns", cfg, []step{start, adv(9 * s), pause, adv(30 * s)}, State{
			Overall:       Deadline{Armed: true, At: t0.Add(60 * s), Span: 60 * s, Left: 21 * s},
			NoOutput:      Deadline{Armed: true, Span: 10 * s, Left: s, Warning: true},
			LastOutputAge: 39 * s,
			Frozen:        true,
		}},
		{"fired", cfg, []step{start, adv(time.Hour)}, State{
			Overall:       Deadline{Span: 60 * s},
			NoOutput:      Deadline{Span: 10 * s},
			LastOutputAge: time.Hour,
			Fired:         NoOutput,
		}},
		{"stopped", cfg, []step{start, adv(s), stop}, State{
			Overall:       Deadline{Span: 60 * s},
			NoOutput:      Deadline{Span: 10 * s},
			LastOutputAge: s,
			Stopped:       true,
		}},
		{"off", Config{}, []step{start, adv(s)}, State{LastOutputAge: s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, clk, _ := newTest(tt.cfg)
			for _, st := range tt.steps {
				st(w, clk)
			}
			if got := w.State(); got != tt.want {
				t.Errorf("State() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
