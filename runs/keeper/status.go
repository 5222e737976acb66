package keeper

import (
	"fmt"
	"time"
)

// Down is what is true of a state dir whose keeper lives while no server answers: the
// keeper runs, its server does not, and why as far as the keeper said.
func (s Status) Down() string {
	return fmt.Sprintf("the keeper (pid %d) is running but its server is not%s", s.PID, s.why(": ", " (yet: it is starting one)"))
}

// KeptRun is why a reconcile that is not the keeper's own server leaves a run the
// keeper keeps alone, though no server renews its lease: the keeper's next server
// takes it back, so ending it would end what is about to be supervised again.
func (s Status) KeptRun() string {
	return fmt.Sprintf("kept by the keeper (pid %d), whose server is down%s; its next server takes the run back "+
		"(ending the keeper, kill %d, leaves it to reconcile)", s.PID, s.why(": ", " (it is starting one)"), s.PID)
}

// why is the keeper's word on its servers: sep and its last error, with the count of
// failed tries once they reach FailLimit; starting when it has not failed yet.
func (s Status) why(sep, starting string) string {
	switch {
	case s.LastError == "":
		return starting
	case s.Failures >= FailLimit:
		return fmt.Sprintf("%s%s (no server came up in %d tries since %s; it goes on trying: see keeper.log)",
			sep, s.LastError, s.Failures, s.Since.Local().Format(time.TimeOnly))
	}
	return sep + s.LastError
}
