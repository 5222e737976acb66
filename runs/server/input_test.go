package server

import (
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/api"
)

// TestKeysIntoAFullPTYHoldNothingUp: keys written one by one, through the server, to a
// run that never reads go out at once until its PTY is full and queue after that;
// none of those requests waits on the child, and meanwhile another connection's keys
// to another run are answered and echoed.
func TestKeysIntoAFullPTYHoldNothingUp(t *testing.T) {
	h := newHarness(t)
	c, other := h.client(t), h.client(t)
	stuck, err := api.Spawn.Call(ctx, c, api.SpawnArgs{Spec: runs.Spec{Name: "stuck", PTY: true, Shell: "sleep 1000"}})
	if err != nil {
		t.Fatal(err)
	}
	echoer, err := api.Spawn.Call(ctx, other, api.SpawnArgs{Spec: runs.Spec{Name: "echoer", PTY: true, Shell: `while read l; do echo "got $l"; done`}})
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("y", 31) + "\n")
	filled := make(chan error, 1)
	go func() {
		// 256 KiB of keys: well past what the PTY takes from a child that never reads,
		// well within the run's input queue.
		for i := range 256 << 10 / len(line) {
			start := time.Now()
			if _, err := api.Write.Call(ctx, c, api.WriteArgs{ID: stuck.ID, Data: line}); err != nil {
				filled <- err
				return
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("key %d into the full PTY took %v", i, d)
			}
		}
		filled <- nil
	}()
	for i := range 3 {
		word := []string{"first", "second", "third"}[i]
		if _, err := api.SendKeys.Call(ctx, other, api.KeysArgs{ID: echoer.ID, Keys: []string{word, "Enter"}}); err != nil {
			t.Fatal(err)
		}
		pollUntil(t, other, echoer.ID, "got "+word)
	}
	select {
	case err := <-filled:
		if err != nil {
			t.Fatalf("keys into the full PTY: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the keys into the full PTY were not all answered")
	}
	if _, err := api.Kill.Call(ctx, c, api.RunRef{ID: stuck.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Kill.Call(ctx, other, api.RunRef{ID: echoer.ID}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{stuck.ID, echoer.ID} {
		if _, err := api.Wait.Call(ctx, c, api.WaitArgs{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
}
