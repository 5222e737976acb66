//go:build linux

package ui

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/client"
	"corral/runs/server/servertest"
)

// A UI attached to a server of a thousand runs opens on its first rows (the
// subscription's reply carries those), and ends with every run listed, in the
// server's order, with the rest of them brought by the stream.
func TestAttachedUIListsEveryRunAfterItsFirstRows(t *testing.T) {
	dir := t.TempDir()
	sup := servertest.Supervisor(t, dir)
	for range 1000 {
		if _, err := sup.Spawn(runs.Spec{Argv: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, i := range sup.Snapshot() {
		want = append(want, i.ID)
	}
	servertest.Serve(t, sup, dir)
	rem, err := client.AttachFirst(dir, benchWinH, func() error { return errors.New("no server") }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer rem.Close()
	if n := len(rem.Initial()); n != benchWinH || rem.Rest().Runs != 1000-n {
		t.Fatalf("the first reply: %d runs, the rest %+v", n, rem.Rest())
	}
	loop := startLoopWith(t, Options{Engine: rem, Initial: rem.Initial(), Unlisted: rem.Rest()}, nil)
	defer loop.stop()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { Bridge(ctx, rem.Events(), loop.send, 0) })
	defer func() { cancel(); wg.Wait() }()
	var got []string
	listed := func() bool {
		loop.do(func(m Model) {
			got = got[:0]
			for _, i := range m.list.Runs() {
				got = append(got, i.ID)
			}
		})
		return len(got) == len(want)
	}
	eventually.True(t, 30*time.Second, "every run listed", listed)
	if !slices.Equal(got, want) {
		t.Errorf("the UI lists %d runs, not in the server's order", len(got))
	}
}
