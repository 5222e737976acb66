package ui

import (
	"strings"
	"testing"

	"corral/runs"
)

// R on a run still waiting for its dependencies does what corral restart does: it
// stays the same run, waiting (nothing of it runs yet), and the note says what it
// waits for. Neither a plain run nor a service is ended, spawned again or started.
func TestRestartWaitingRunKeepsItsWait(t *testing.T) {
	plain := liveRun("r1", "api", false)
	svc := liveRun("r2", "worker", false)
	for _, i := range []*runs.Info{&plain, &svc} {
		i.State, i.PID = runs.Starting, 0
		i.WaitingFor = []runs.Dependency{{Name: "db", Condition: runs.CondReady}, {Name: "migrate", Condition: runs.CondSucceeded}}
	}
	svc.Service = &runs.ServiceInfo{Policy: runs.RestartOnFailure, Attempt: 1}
	engine := newFake(plain, svc)
	h := newHarness(t, engine, 120, 30, plain, svc)
	for k := range 2 {
		if k == 1 {
			h.key("j")
		}
		h.key("R")
		for _, op := range []string{"Restart", "Cancel", "Stop", "Spawn"} {
			if c := h.engine.called(op); len(c) != 0 {
				t.Fatalf("R on a waiting run called %q", c)
			}
		}
		if !strings.Contains(h.m.flash, "waiting for db, migrate") {
			t.Fatalf("flash after R on a waiting run: %q", h.m.flash)
		}
	}
}
