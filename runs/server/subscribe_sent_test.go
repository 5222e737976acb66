package server

import (
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/api"
)

// A UI's subscription is what it was sent: its first snapshot (as the viewer of its
// token) carries the runs that changed since, not every run again.
func TestFirstSnapshotAfterSubscribe(t *testing.T) {
	h := newHarness(t)
	c := h.client(t)
	for range 3 {
		if _, err := api.Spawn.Call(ctx, c, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}}}); err != nil {
			t.Fatal(err)
		}
	}
	stream := h.client(t)
	sub, err := api.Subscribe.Call(ctx, stream, api.SubscribeArgs{})
	if err != nil || len(sub.Runs) != 3 {
		t.Fatalf("subscribe: %v, %d runs", err, len(sub.Runs))
	}
	snap, err := api.Snapshot.Call(ctx, c, api.SnapshotArgs{Viewer: sub.Token})
	if err != nil || len(snap.Runs) != 0 {
		t.Fatalf("the first snapshot after subscribing: %v, %d runs (none changed)", err, len(snap.Runs))
	}
	if err := h.sup.Cancel(sub.Runs[1].ID); err != nil {
		t.Fatal(err)
	}
	var got []string
	eventually.True(t, 10*time.Second, "the cancelled run in a snapshot", func() bool {
		snap, err := api.Snapshot.Call(ctx, c, api.SnapshotArgs{Viewer: sub.Token})
		for _, i := range snap.Runs {
			got = append(got, i.ID)
		}
		return err == nil && len(got) > 0
	})
	if got[0] != sub.Runs[1].ID {
		t.Errorf("after one run was cancelled, snapshots said %q", got)
	}
}
