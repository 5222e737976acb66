package common

import (
	"testing"
	"time"

	"corral/runs"
)

func TestServiceText(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		i    runs.Info
		want string
	}{
		{"no service", runs.Info{State: runs.Running}, ""},
		{"restarting", runs.Info{State: runs.Restarting, Service: &runs.ServiceInfo{Restarts: 2, MaxRestarts: 5,
			NextAt: now.Add(3200 * time.Millisecond)}}, "restarting 2/5 in 4s"},
		{"restarting without a limit", runs.Info{State: runs.Restarting, Service: &runs.ServiceInfo{Restarts: 7,
			NextAt: now.Add(time.Second)}}, "restarting 7 in 1s"},
		{"starting", runs.Info{State: runs.Running, StartedAt: now.Add(-3 * time.Second),
			Service: &runs.ServiceInfo{Ready: runs.ReadyStarting}}, "starting 3s"},
		{"ready", runs.Info{State: runs.Running, Service: &runs.ServiceInfo{Ready: runs.ReadyOK}}, "ready"},
		{"unready", runs.Info{State: runs.Running, Service: &runs.ServiceInfo{Ready: runs.ReadyLost}}, "unready"},
		{"no probe", runs.Info{State: runs.Running, Service: &runs.ServiceInfo{}}, ""},
		{"ended", runs.Info{State: runs.Exited, Service: &runs.ServiceInfo{Ready: runs.ReadyOK}}, ""},
	}
	for _, c := range cases {
		got, ok := ServiceText(c.i, now, &Changes{})
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.name, got, ok, c.want)
		}
	}
}

// The figures of a service's row wake the clock when they turn: a backoff's seconds
// to go, and the seconds a starting service has been starting.
func TestServiceTextWakesTheClock(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	restarting := runs.Info{State: runs.Restarting, Service: &runs.ServiceInfo{Restarts: 2, MaxRestarts: 5,
		NextAt: now.Add(3200 * time.Millisecond)}}
	var ch Changes
	before, _ := ServiceText(restarting, now, &ch)
	at := ch.Next(now)
	if at.IsZero() || at.Sub(now) > time.Second {
		t.Fatalf("%q: the clock wakes %v from now, want within a second", before, at.Sub(now))
	}
	if after, _ := ServiceText(restarting, at, &Changes{}); after == before {
		t.Errorf("at the wake the figure is still %q", after)
	}
	starting := runs.Info{State: runs.Running, StartedAt: now.Add(-3 * time.Second),
		Service: &runs.ServiceInfo{Ready: runs.ReadyStarting}}
	ch = Changes{}
	before, _ = ServiceText(starting, now, &ch)
	if at := ch.Next(now); at.IsZero() || at.Sub(now) > time.Second {
		t.Errorf("%q: the clock wakes %v from now, want within a second", before, at.Sub(now))
	}
}
