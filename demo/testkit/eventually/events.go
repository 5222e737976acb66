package eventually

import (
	"cmp"
	"time"
)

// Woken reads get at once and again whenever wake delivers (a supervisor's or a
// client's event: the moment what get reads may have changed) and, with every > 0, at
// least that often too (for a change no event announces), until its second result is
// true or limit has passed; a last read is made at the deadline. It returns the last
// value and whether it came true: the caller's failure names what it read last. A
// closed wake is read no more: get is then polled.
func Woken[E, T any](limit, every time.Duration, wake <-chan E, get func() (T, bool)) (T, bool) {
	deadline := time.After(limit)
	for {
		if v, ok := get(); ok {
			return v, true
		}
		var tick <-chan time.Time
		if every > 0 {
			tick = time.After(every)
		}
		select {
		case _, open := <-wake:
			if !open {
				wake = nil
				every = cmp.Or(every, maxPoll)
			}
		case <-tick:
		case <-deadline:
			return get()
		}
	}
}

// Event receives from events until one satisfies match and returns it; false when
// limit has passed first or events was closed.
func Event[E any](limit time.Duration, events <-chan E, match func(E) bool) (E, bool) {
	deadline := time.After(limit)
	for {
		select {
		case e, open := <-events:
			if !open {
				return e, false
			}
			if match(e) {
				return e, true
			}
		case <-deadline:
			var none E
			return none, false
		}
	}
}
