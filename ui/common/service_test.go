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
		got, ok := ServiceText(c.i, now)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.name, got, ok, c.want)
		}
	}
}
