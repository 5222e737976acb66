package common

import (
	"fmt"
	"time"

	"corral/runs"
)

// ServiceText is a live service's status as the list shows it at now: "ready",
// "unready", "starting 3s" (since its attempt began, until its readiness probe
// passes) or "restarting 2/5 in 4s" (its next attempt's number in its budget, and
// when); false for a run that is no service, or ended. The moment its figure turns
// is noted in ch, so the clock wakes to draw it.
func ServiceText(i runs.Info, now time.Time, ch *Changes) (string, bool) {
	svc := i.Service
	if svc == nil || i.Ended() {
		return "", false
	}
	switch {
	case i.State == runs.Restarting:
		of := ""
		if svc.MaxRestarts > 0 {
			of = fmt.Sprintf("/%d", svc.MaxRestarts)
		}
		left := svc.NextAt.Sub(now)
		switch {
		case left >= time.Minute:
			ch.Age(now, left)
		case left > 0: // "4s" until 3 s are left
			ch.At(svc.NextAt.Add(-(left - time.Nanosecond).Truncate(time.Second)))
		}
		return fmt.Sprintf("restarting %d%s in %s", svc.Restarts, of, inSecs(left)), true
	case i.State != runs.Running || svc.Ready == "":
		return "", false
	case svc.Ready == runs.ReadyStarting:
		ch.Age(now, now.Sub(i.StartedAt))
		return "starting " + FmtAge(now.Sub(i.StartedAt)), true
	}
	return string(svc.Ready), true
}

// ServiceStyle is the style of ServiceText: OK when ready, Warn when restarting or
// unready, plain while starting.
func ServiceStyle(st Styles, i runs.Info) Style {
	switch {
	case i.State == runs.Restarting || i.Service != nil && i.Service.Ready == runs.ReadyLost:
		return st.Warn
	case i.Service != nil && i.Service.Ready == runs.ReadyOK:
		return st.OK
	}
	return Style{}
}

// inSecs is a wait still to come, in whole seconds rounded up ("4s"; "0s" when due).
func inSecs(d time.Duration) string {
	if d = max(d, 0); d >= time.Minute {
		return FmtAge(d)
	}
	return fmt.Sprintf("%ds", int((d+time.Second-1)/time.Second))
}
