package reaper

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// script is a pass of the escalation that returns prepared reports in turn and
// records the Target each pass was given.
type script struct {
	reports []Report
	got     []Target
}

func (s *script) pass(_ context.Context, t Target) Report {
	s.got = append(s.got, t)
	return s.reports[len(s.got)-1]
}

func fp(pid int) Fingerprint { return Fingerprint{PID: pid, StartTime: uint64(pid)} }

// A session not verified empty gets its retries, each with no grace and twice the
// sweep, and the passes merge into one report.
func TestRetriesUntilVerified(t *testing.T) {
	stuck := []Proc{{PID: 7, State: 'D'}}
	s := &script{reports: []Report{
		{Steps: []Step{StepTerm}, Killed: 2, Hard: 0, Remaining: stuck, Exited: []Fingerprint{fp(5), fp(6)}, Elapsed: time.Second},
		{Steps: []Step{StepTerm, StepKill}, Killed: 0, Hard: 0, Remaining: stuck, Elapsed: time.Second},
		{Steps: []Step{StepTerm, StepKill}, Killed: 1, Hard: 1, VerifiedEmpty: true, Exited: []Fingerprint{fp(7)}, Elapsed: time.Second},
	}}
	t0 := Target{SID: 5, Grace: 5 * time.Second, Sweep: 100 * time.Millisecond, Retries: 2}
	rep := withRetries(t.Context(), t0, s.pass)
	if len(s.got) != 3 {
		t.Fatalf("%d passes, want 3", len(s.got))
	}
	if s.got[0].Grace != t0.Grace || s.got[0].Sweep != t0.Sweep {
		t.Errorf("first pass got grace %v sweep %v; want the target's", s.got[0].Grace, s.got[0].Sweep)
	}
	for i, want := range []time.Duration{200 * time.Millisecond, 400 * time.Millisecond} {
		if g := s.got[i+1]; g.Grace != retryGrace || g.Sweep != want {
			t.Errorf("retry %d got grace %v sweep %v; want %v %v", i+1, g.Grace, g.Sweep, retryGrace, want)
		}
	}
	if !rep.VerifiedEmpty || len(rep.Remaining) != 0 {
		t.Errorf("merged report not verified empty: %+v", rep)
	}
	if !slices.Equal(rep.Steps, []Step{StepTerm, StepKill}) || rep.Killed != 3 || rep.Hard != 1 {
		t.Errorf("steps %v killed %d hard %d; want [term kill] 3 1", rep.Steps, rep.Killed, rep.Hard)
	}
	if !slices.Equal(rep.Exited, []Fingerprint{fp(5), fp(6), fp(7)}) || rep.Elapsed != 3*time.Second {
		t.Errorf("exited %v elapsed %v; want every pass's", rep.Exited, rep.Elapsed)
	}
}

// Retries are bounded, skipped when the first pass verified the session empty or was
// refused, and the last pass's remainder is what the report keeps.
func TestRetriesBounded(t *testing.T) {
	left := Report{Steps: []Step{StepTerm, StepKill}, Remaining: []Proc{{PID: 9}}}
	cases := []struct {
		name    string
		first   Report
		retries int
		passes  int
	}{
		{"verified at once", Report{VerifiedEmpty: true}, 2, 1},
		{"refused", Report{Err: errors.New("refused")}, 2, 1},
		{"no retries asked", left, 0, 1},
		{"never verified", left, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &script{reports: []Report{c.first, left, left}}
			rep := withRetries(t.Context(), Target{Sweep: time.Second, Retries: c.retries}, s.pass)
			if len(s.got) != c.passes {
				t.Fatalf("%d passes, want %d", len(s.got), c.passes)
			}
			if c.passes > 1 && (rep.VerifiedEmpty || len(rep.Remaining) != 1) {
				t.Errorf("report %+v; want not verified, one remaining", rep)
			}
		})
	}
}
