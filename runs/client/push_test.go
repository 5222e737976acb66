package client

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/server/servertest"
)

// serveLeased is serve with a registry whose lease is short (a beat every ~200 ms).
func serveLeased(t *testing.T) (dir string, sup *runs.Supervisor) {
	t.Helper()
	dir = t.TempDir()
	d := config.Default()
	d.Grace = 200 * time.Millisecond
	d.LeaseHeartbeat, d.LeaseExpiry = 50*time.Millisecond, 400*time.Millisecond
	reg, err := runs.OpenRegistry(filepath.Join(dir, "registry"), d)
	if err != nil {
		t.Fatal(err)
	}
	sup, err = runs.New(runs.WithDefaults(d), runs.WithScreens(), runs.WithRegistry(reg), runs.WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Shutdown(context.Background()); reg.Close() })
	servertest.Serve(t, sup, dir)
	return dir, sup
}

// An attached UI is told at the server's heartbeat what moved with no event, without
// asking: first an empty push (the server pushes), then the run it looks at whenever
// the lease it was last given would lapse before the next renewal — every other
// renewal, never one it holds already lapsed — and nothing at the beats between.
func TestServerPushesTheLeaseWithoutARequest(t *testing.T) {
	dir, _ := serveLeased(t)
	r := attach(t, dir)
	ctx := context.Background()
	sp, err := api.Spawn.Call(ctx, r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}, PTY: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Kill.Call(ctx, r, api.RunRef{ID: sp.ID}) })
	if _, err := api.Focus.Call(ctx, r, api.FocusArgs{ID: sp.ID, Viewer: r.Viewer(), Focused: true}); err != nil {
		t.Fatal(err)
	}
	hello, pushes := false, 0
	var shown time.Time
	deadline := time.After(3 * time.Second) // ~15 renewals of a 400 ms lease
	for done := false; !done; {
		select {
		case ev := <-r.Events():
			if ev.Type != api.EventRefresh {
				continue
			}
			hello = true
			if ev.Detail == api.DetailCounters { // the spawn moved them
				continue
			}
			if ev.Run.ID == "" {
				continue
			}
			if ev.Run.ID != sp.ID {
				t.Fatalf("pushed a run nothing moved: %+v", ev)
			}
			if l := ev.Run.LeaseExpiresAt; l.IsZero() || l.Equal(shown) {
				continue // the run's start (new to this viewer, its record not yet written)
			}
			now := time.Now()
			if !shown.IsZero() && now.Sub(shown) > 100*time.Millisecond {
				t.Errorf("the lease shown lapsed %v before the push that moved it", now.Sub(shown))
			}
			shown = ev.Run.LeaseExpiresAt
			pushes++
		case <-deadline:
			done = true
		}
	}
	if !hello {
		t.Error("no first push: the UI cannot know its server pushes")
	}
	t.Logf("%d lease pushes in 3 s", pushes)
	// A renewal every ~200 ms over 3 s: ~15; pushed at every other one.
	if pushes < 4 || pushes > 10 {
		t.Errorf("%d lease pushes in 3 s of 200 ms renewals, want one per lease (every other renewal)", pushes)
	}
}
