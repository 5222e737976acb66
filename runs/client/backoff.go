package client

import "time"

// backoff is how a link that could not be made is tried again: the waits before its
// attempts start at first and double up to max. With prompt the first attempt goes
// at once and the waits come between attempts; without, the first attempt waits
// first too.
type backoff struct {
	first, max time.Duration
	prompt     bool
	// after is the clock the waits run on (nil: time.After; a test gives its own).
	after func(time.Duration) <-chan time.Time
}

// The two links that are made again. A Remote that lost this machine's server: a new
// server starts in milliseconds, so the attempts begin soon after the loss and stay
// close together. A Fleet's host: an attempt may be an ssh connection to a machine
// that is gone, so after the first, at once, they back off to a pace that does not
// keep dialling it.
var (
	relinkBackoff = backoff{first: 50 * time.Millisecond, max: 2 * time.Second}
	fleetBackoff  = backoff{first: 500 * time.Millisecond, max: 15 * time.Second, prompt: true}
)

// wait is how long attempt try (1, 2, …) waits first.
func (b backoff) wait(try int) time.Duration {
	if b.prompt {
		if try == 1 {
			return 0
		}
		try--
	}
	d := b.first
	for range try - 1 {
		if d >= b.max {
			break
		}
		d *= 2
	}
	return min(d, b.max)
}

// retry calls attempt until it succeeds (true), or until done is closed or failed
// says to stop (false). After attempt try fails with err, failed is told and of the
// wait before the next one.
func (b backoff) retry(done <-chan struct{}, attempt func(try int) error, failed func(try int, err error, next time.Duration) bool) bool {
	after := b.after
	if after == nil {
		after = time.After
	}
	for try := 1; ; try++ {
		if d := b.wait(try); d > 0 {
			select {
			case <-done:
				return false
			case <-after(d):
			}
		}
		err := attempt(try)
		if err == nil {
			return true
		}
		if !failed(try, err, b.wait(try+1)) {
			return false
		}
	}
}
