// Package servertest serves a supervisor on a state dir's socket for a test, as
// corral server does: the supervisor, the listen, the serve and the stop at the
// test's end that the tests of the server's clients (runs/client, runs/web, the UI)
// share.
package servertest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/server"
)

// Supervisor is a supervisor for a server of state dir dir, as corral server makes
// one (screens kept, logs in dir), with a short grace (a test's runs end quickly) and
// opts; it is shut down at the test's end, after a server Serve started later.
func Supervisor(tb testing.TB, dir string, opts ...runs.Option) *runs.Supervisor {
	tb.Helper()
	d := config.Default()
	d.Grace = 200 * time.Millisecond
	sup, err := runs.New(append([]runs.Option{runs.WithDefaults(d), runs.WithScreens(), runs.WithLogDir(filepath.Join(dir, "logs"))}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { sup.Shutdown(context.Background()) })
	return sup
}

// Serve serves sup on dir's socket until the returned stop or the test's end, when
// the socket is closed and removed as well. stop ends the server (every connection
// closed), once however often it is called. sup is the caller's: a test shuts it down
// after the server by a cleanup registered before Serve (cleanups run last first).
//
// It may be called from any goroutine (a client's start of its lost server, say): a
// socket that cannot be listened on is reported with tb.Errorf, and stop then does
// nothing.
func Serve(tb testing.TB, sup *runs.Supervisor, dir string) (stop func()) {
	tb.Helper()
	return serve(tb, sup, dir, true)
}

// Crashable is Serve for a server that ends the way a killed one does: crash closes
// every connection and leaves the socket file behind.
func Crashable(tb testing.TB, sup *runs.Supervisor, dir string) (crash func()) {
	tb.Helper()
	return serve(tb, sup, dir, false)
}

func serve(tb testing.TB, sup *runs.Supervisor, dir string, unlink bool) func() {
	tb.Helper()
	ln, err := server.Listen(dir)
	if err != nil {
		tb.Errorf("serve %s: %v", dir, err)
		return func() {}
	}
	ln.SetUnlinkOnClose(unlink)
	srv := server.New(sup, server.Options{StateDir: dir})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	stop := sync.OnceFunc(func() { srv.Stop(); <-served })
	tb.Cleanup(func() { stop(); ln.Close() })
	return stop
}
