package hostterm

import "os"

// WatchSignals turns the first signal into first(sig) and every later one into
// later(), until done closes, and returns the first signal (nil if none came):
// Corral's own signals while it ends what it started, none of which may kill it
// mid-cleanup (a later one cuts the grace short).
func WatchSignals(done <-chan struct{}, sigs <-chan os.Signal, first func(os.Signal), later func()) os.Signal {
	var got os.Signal
	for {
		select {
		case s := <-sigs:
			if got != nil {
				later()
				continue
			}
			got = s
			first(s)
		case <-done:
			return got
		}
	}
}
