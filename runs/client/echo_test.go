package client

import (
	"context"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/api"
)

// The frame of a typed key's echo says it is one (api.Frame.Echo), and the client
// hands it on as an output event that says so (runs.DetailEcho): the UI draws it at
// once, whatever its frame budget.
func TestEchoFrameSaysSo(t *testing.T) {
	dir, _, _ := serve(t)
	r := attach(t, dir)
	ctx := context.Background()
	sp, err := api.Spawn.Call(ctx, r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"cat"}, PTY: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Kill.Call(ctx, r, api.RunRef{ID: sp.ID})
	if err := r.Watch(sp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Input.Call(ctx, r, api.InputArgs{ID: sp.ID, Items: []keys.Item{{Text: "k1q", IsText: true}}, Viewer: r.Viewer()}); err != nil {
		t.Fatal(err)
	}
	if _, ok := eventually.Event(10*time.Second, r.Events(), func(e runs.Event) bool {
		return e.Type == runs.EventOutput && e.Run.ID == sp.ID && e.Detail == runs.DetailEcho
	}); !ok {
		t.Fatal("no output event of the echo that says so")
	}
}
