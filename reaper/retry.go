package reaper

import (
	"context"
	"slices"
	"time"
)

// retryGrace is the grace of a retry pass: the stop signal was sent by the first
// pass, so what is left gets SIGKILL at once.
const retryGrace = time.Millisecond

// withRetries runs pass, then, while the session is not verified empty and nothing
// refused the escalation, up to t.Retries more passes with no grace and a sweep twice
// as long as the one before, and merges them into one Report. A member in
// uninterruptible sleep (D state) or a failed /proc read can outlast one sweep; a run
// is recorded not verified empty only once the retries have run out.
func withRetries(ctx context.Context, t Target, pass func(context.Context, Target) Report) Report {
	rep := pass(ctx, t)
	for try := 0; try < t.Retries && !rep.VerifiedEmpty && rep.Err == nil; try++ {
		t.Grace, t.Sweep = retryGrace, 2*t.Sweep
		rep.merge(pass(ctx, t))
	}
	return rep
}

// merge folds a retry pass into the report of the passes before it: processes ended
// add up, verification and what remains are the later pass's, and a SIGKILL step
// performed only by the retry is recorded once. Err stays the first pass's: a retry
// runs only after a pass that was not refused, and one failed /proc read in a retry
// must not stop the next retry from verifying.
func (r *Report) merge(again Report) {
	r.Killed += again.Killed
	r.Hard += again.Hard
	r.VerifiedEmpty, r.Remaining = again.VerifiedEmpty, again.Remaining
	r.Exited = append(r.Exited, again.Exited...)
	r.Ended = append(r.Ended, again.Ended...)
	if len(r.Ended) > MaxNamed {
		r.Ended = r.Ended[:MaxNamed]
	}
	r.Elapsed += again.Elapsed
	if !slices.Contains(r.Steps, StepKill) && slices.Contains(again.Steps, StepKill) {
		r.Steps = append(r.Steps, StepKill)
	}
}
