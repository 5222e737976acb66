package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/server/servertest"
)

// serve serves a real supervisor on a socket in a temp state dir until the test ends;
// stop stops the server and returns once every connection of it is closed.
func serve(t testing.TB) (dir string, sup *runs.Supervisor, stop func()) {
	t.Helper()
	dir = t.TempDir()
	sup = servertest.Supervisor(t, dir)
	return dir, sup, servertest.Serve(t, sup, dir)
}

func attach(t testing.TB, dir string) *Remote {
	t.Helper()
	r, err := Attach(dir, func() error { return errors.New("no server to start") }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// A call cut short by its context returns at once with the context's error, and the
// next call on that lane works: the lane dials a new connection, since the old one's
// reply may still come.
func TestCancelledCallRedials(t *testing.T) {
	dir, _, _ := serve(t)
	r := attach(t, dir)
	sp, err := api.Spawn.Call(context.Background(), r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = api.Wait.Call(ctx, r, api.WaitArgs{ID: sp.ID})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait cut short: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the cut-short call returned after %s", d)
	}
	in, err := api.Info.Call(context.Background(), r, api.RunRef{ID: sp.ID})
	if err != nil || in.Run.ID != sp.ID || in.Run.Ended() {
		t.Fatalf("the next call on the lane: %v %+v", err, in.Run)
	}
	if _, err := api.Kill.Call(context.Background(), r, api.RunRef{ID: sp.ID}); err != nil {
		t.Fatal(err)
	}
}

// Errors cross the socket with their kind: errors.Is works on a server's answer as on
// the supervisor's own, and a failed read is an error, never an empty answer.
func TestErrorsKeepTheirKind(t *testing.T) {
	dir, _, stop := serve(t)
	r := attach(t, dir)
	_, err := api.Pause.Call(context.Background(), r, api.RunRef{ID: "rnope"})
	if !errors.Is(err, runs.ErrUnknownRun) {
		t.Errorf("pause of no run: %v, want ErrUnknownRun", err)
	}
	if _, err := r.Screen("rnope"); !errors.Is(err, runs.ErrUnknownRun) {
		t.Errorf("screen of no run: %v, want ErrUnknownRun", err)
	}
	sp, err := api.Spawn.Call(context.Background(), r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"true"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Wait.Call(context.Background(), r, api.WaitArgs{ID: sp.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Resize.Call(context.Background(), r, api.ResizeArgs{ID: sp.ID, Cols: 80, Rows: 24}); !errors.Is(err, runs.ErrNotRunning) {
		t.Errorf("resize of an ended run: %v, want ErrNotRunning", err)
	}
	stop() // every connection of the server closed: the calls below meet a closed one
	if _, err := api.Metrics.Call(context.Background(), r, struct{}{}); err == nil {
		t.Error("metrics from a stopped server: no error")
	}
	if rep, err := api.Snapshot.Call(context.Background(), r, api.SnapshotArgs{}); err == nil {
		t.Errorf("snapshot from a stopped server: no error, %d runs", len(rep.Runs))
	}
}

// The operations answer the same through a server as in process: a snapshot carries
// the live watchdog state, and a run the client has not heard of yet has a screen.
func TestSnapshotKeepsWatchdog(t *testing.T) {
	dir, _, _ := serve(t)
	r := attach(t, dir)
	spec := runs.Spec{Argv: []string{"sleep", "30"}, PTY: true, Timeout: time.Hour}
	sp, err := api.Spawn.Call(context.Background(), r, api.SpawnArgs{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Kill.Call(context.Background(), r, api.RunRef{ID: sp.ID}) })
	rep, err := api.Snapshot.Call(context.Background(), r, api.SnapshotArgs{})
	if err != nil || len(rep.Runs) != 1 {
		t.Fatalf("snapshot: %v %d", err, len(rep.Runs))
	}
	if wd := rep.Runs[0].Watchdog; !wd.Overall.Armed || wd.Overall.Span != time.Hour {
		t.Errorf("watchdog over the socket: %+v", wd.Overall)
	}
	if s, err := r.Screen(sp.ID); err != nil || s == nil {
		t.Errorf("screen of a just-spawned PTY run: %v %v", s, err)
	}
}

// A server of another protocol version that predates the mismatch's fields (its
// error carries only a message, its version only in the envelope): the client words
// the mismatch itself, with the server's version from the envelope, and Dial's error
// is ErrVersion.
func TestVersionMismatchFromAnOlderServer(t *testing.T) {
	cli, srv := net.Pipe()
	defer cli.Close()
	go func() {
		defer srv.Close()
		r := bufio.NewReader(srv)
		if _, err := r.ReadBytes('\n'); err != nil {
			return
		}
		io.WriteString(srv, `{"v":7,"error":{"code":"version","message":"this server speaks protocol 7"}}`+"\n")
	}()
	_, err := NewClient(cli)
	want := fmt.Sprintf("the server runs corral protocol 7, this client (corral %s) speaks %d: ", api.Binary, api.Version)
	if !errors.Is(err, api.ErrVersion) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want ErrVersion with %q", err, want)
	}
}
