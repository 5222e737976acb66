package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
)

// peerTestEnv makes the test binary a client that connects to the socket it names,
// prints the server's first response line and exits (the foreign-uid test runs it
// under another uid).
const peerTestEnv = "CORRAL_SERVER_TEST_DIAL"

func TestMain(m *testing.M) {
	if sock := os.Getenv(peerTestEnv); sock != "" {
		os.Exit(dialAndPrint(sock))
	}
	testkit.Main(m)
}

func dialAndPrint(sock string) int {
	c, err := net.Dial("unix", sock)
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	defer c.Close()
	fmt.Fprintln(c, `{"v":1,"verb":"list"}`)
	line, _ := bufio.NewReader(c).ReadString('\n')
	fmt.Print(line)
	return 0
}

// harness is a real supervisor served on a real socket in a temp state dir.
type harness struct {
	dir string
	sup *runs.Supervisor
	srv *Server
	ln  *Listener
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	return serveIn(t, t.TempDir())
}

// serveIn serves a supervisor on state dir dir until the test ends.
func serveIn(t testing.TB, dir string) *harness {
	t.Helper()
	return serveWith(t, dir, Options{})
}

// serveWith is serveIn with opt's limits and log.
func serveWith(t testing.TB, dir string, opt Options) *harness {
	t.Helper()
	d := config.Default()
	d.Grace = 300 * time.Millisecond
	sup, err := runs.New(runs.WithDefaults(d), runs.WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	opt.Instance, opt.StateDir = "test", dir
	h := &harness{dir: dir, sup: sup, ln: ln, srv: New(sup, opt)}
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(ln) }()
	t.Cleanup(func() {
		h.srv.Stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		ln.Close()
		sup.Shutdown(context.Background())
	})
	return h
}

func (h *harness) client(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.Dial(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// raw sends one line on a fresh connection and returns the response line.
func (h *harness) raw(t *testing.T, line string) api.Response {
	t.Helper()
	c, err := net.Dial("unix", h.ln.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, line)
	var resp api.Response
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		t.Fatalf("no response to %.40q: %v", line, err)
	}
	return resp
}

// ctx is the tests' calls' context: they wait as long as the test does.
var ctx = context.Background()

func codeIs(err error, code string) bool {
	var e *api.Error
	return errors.As(err, &e) && e.Code == code
}

func TestHelloAndVersion(t *testing.T) {
	h := newHarness(t)
	c := h.client(t)
	if c.Hello.Version != api.Version || c.Hello.PID != os.Getpid() || c.Hello.StateDir != h.dir {
		t.Errorf("hello: %+v", c.Hello)
	}
	resp := h.raw(t, `{"v":99,"verb":"hello","args":{"version":99,"binary":"9.9"}}`+"\n")
	want := fmt.Sprintf("the server (pid %d, corral %s) runs corral protocol %d, this client (corral 9.9) speaks 99: ", os.Getpid(), api.Binary, api.Version)
	if e := resp.Error; e == nil || e.Code != api.CodeVersion || !strings.HasPrefix(e.Message, want) ||
		e.Protocol != api.Version || e.PID != os.Getpid() || e.Binary != api.Binary || resp.V != api.Version {
		t.Errorf("version mismatch: %+v, want a message starting %q", resp.Error, want)
	}
	// Same version, a field this server does not know (a newer client's optional
	// one): ignored, the call answered.
	resp = h.raw(t, fmt.Sprintf(`{"v":%d,"verb":"hello","args":{"version":%d,"binary":"x","later":{"a":1}},"also":true}`+"\n", api.Version, api.Version))
	var rep api.HelloReply
	if resp.Error != nil || json.Unmarshal(resp.Result, &rep) != nil || rep.Version != api.Version || rep.Binary != api.Binary {
		t.Errorf("unknown fields at the same version: %+v", resp)
	}
}

// Bad requests get an error and leave the connection (and the server) serving.
func TestBadRequests(t *testing.T) {
	h := newHarness(t)
	cases := map[string]string{
		"not json\n":                    api.CodeBadRequest,
		`{"v":1,"verb":"dance"}` + "\n": api.CodeUnknown,
		`{"v":1,"verb":"kill","args":{"id":"nope"}}` + "\n": api.CodeNoRun,
		`{"v":1,"verb":"kill","args":{"id":7}}` + "\n":      api.CodeBadRequest,
		`{"v":1,"verb":"kill"}` + "\n":                      api.CodeBadRequest,
	}
	for line, code := range cases {
		if resp := h.raw(t, line); resp.Error == nil || resp.Error.Code != code {
			t.Errorf("%q: got %+v, want %s", line, resp.Error, code)
		}
	}
	c := h.client(t)
	if err := c.Call(ctx, "dance", nil, nil); !codeIs(err, api.CodeUnknown) {
		t.Errorf("unknown verb: %v", err)
	}
	if _, err := api.List.Call(ctx, c, struct{}{}); err != nil {
		t.Errorf("the connection should still serve: %v", err)
	}
}

func TestOversizedRequest(t *testing.T) {
	h := newHarness(t)
	big := `{"v":1,"verb":"write","args":{"id":"x","data":"` + strings.Repeat("A", api.MaxMessage) + `"}}` + "\n"
	if resp := h.raw(t, big); resp.Error == nil || resp.Error.Code != api.CodeTooLarge {
		t.Fatalf("oversized: %+v", resp.Error)
	}
	c := h.client(t) // the server still serves
	if _, err := api.List.Call(ctx, c, struct{}{}); err != nil {
		t.Fatal(err)
	}
}

// The control verbs drive a real PTY run: send-keys reaches it, poll sees the reply,
// kill ends it with manual-cancel and a verified-empty cleanup, wait returns the
// report corral run --json prints.
func TestDriveARun(t *testing.T) {
	h := newHarness(t)
	c := h.client(t)
	spec := runs.Spec{Name: "echoer", PTY: true, Shell: `while read l; do echo "got $l"; done`}
	sp, err := api.Spawn.Call(ctx, c, api.SpawnArgs{Spec: spec})
	if err != nil || sp.ID == "" {
		t.Fatalf("spawn: %v %+v", err, sp)
	}
	if _, err := api.SendKeys.Call(ctx, c, api.KeysArgs{ID: "echoer", Keys: []string{"hello", "Enter"}}); err != nil {
		t.Fatal(err)
	}
	got := pollUntil(t, c, sp.ID, "got hello")
	if got.Ended {
		t.Fatal("ended early")
	}
	if _, err := api.Submit.Call(ctx, c, api.TextArgs{ID: sp.ID, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	pollUntil(t, c, sp.ID, "got second")
	lg, err := api.Log.Call(ctx, c, api.LogArgs{ID: sp.ID, Tail: true, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Lines) != 2 || lg.Lines[1] != "got second" {
		t.Errorf("log tail: %+v", lg)
	}
	if _, err := api.Kill.Call(ctx, c, api.RunRef{ID: sp.ID[:6]}); err != nil {
		t.Fatalf("kill by id prefix: %v", err)
	}
	w, err := api.Wait.Call(ctx, c, api.WaitArgs{ID: sp.ID})
	if err != nil {
		t.Fatal(err)
	}
	if w.Report.Reason != runs.ManualCancel || !w.Report.Cleanup.VerifiedEmpty || w.Report.ID != sp.ID {
		t.Errorf("report: %+v", w.Report)
	}
	if _, err := api.Write.Call(ctx, c, api.WriteArgs{ID: sp.ID, Data: []byte("x")}); !codeIs(err, api.CodeNotRunning) || !errors.Is(err, runs.ErrNotRunning) {
		t.Errorf("write to an ended run: %v", err)
	}
	if _, err := api.Remove.Call(ctx, c, api.RunRef{ID: sp.ID}); err != nil {
		t.Errorf("remove: %v", err)
	}
}

// pollUntil polls (blocking up to a second each time) until the output so far holds want.
func pollUntil(t *testing.T, c *client.Client, id, want string) api.PollReply {
	t.Helper()
	var seen strings.Builder
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p, err := api.Poll.Call(ctx, c, api.PollArgs{ID: id, WaitMS: 1000})
		if err != nil {
			t.Fatal(err)
		}
		seen.Write(p.Output)
		if strings.Contains(seen.String(), want) || p.Ended {
			return p
		}
	}
	t.Fatalf("no %q in %q", want, seen.String())
	return api.PollReply{}
}

func TestWaitTimeoutAndEnd(t *testing.T) {
	h := newHarness(t)
	c := h.client(t)
	sp, err := api.Spawn.Call(ctx, c, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.Wait.Call(ctx, c, api.WaitArgs{ID: sp.ID, TimeoutMS: 50}); !codeIs(err, api.CodeTimeout) {
		t.Fatalf("wait with a timeout: %v", err)
	}
	sd, err := api.Shutdown.Call(ctx, c, struct{}{})
	if err != nil || sd.Ended != 1 {
		t.Fatalf("shutdown: %v %+v", err, sd)
	}
	info, _ := h.sup.Info(sp.ID)
	if info.Reason != runs.SupervisorShutdown || !info.Cleanup.VerifiedEmpty {
		t.Errorf("after shutdown: %s %+v", info.Reason, info.Cleanup)
	}
	select {
	case <-h.srv.Stopped():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop after shutdown")
	}
}

func TestOneServerPerStateDir(t *testing.T) {
	h := newHarness(t)
	if _, err := Listen(h.dir); !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Fatalf("second listener: %v", err)
	}
}

// A socket whose server died is stale: a client says so, and a new server replaces it.
func TestStaleSocket(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, api.SocketName), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := client.Dial(dir); !errors.Is(err, client.ErrNoServer) {
		t.Fatalf("dial a stale socket: %v", err)
	}
	l2, err := Listen(dir)
	if err != nil {
		t.Fatalf("listen over a stale socket: %v", err)
	}
	l2.Close()
	if _, err := os.Lstat(filepath.Join(dir, api.SocketName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left after Close: %v", err)
	}
}

// A server that ends as a client greets it is no server to that client: a server
// killed with SIGKILL keeps its listener until its last thread has exited, so a
// client could connect and be hung up on ("the server hung up: connection reset by
// peer", seen in CI). Dial says ErrNoServer, and Connect starts a server and gets it.
func TestServerEndingAtHello(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, api.SocketName), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	var hangups sync.WaitGroup
	hangups.Go(func() {
		for i := 0; ; i++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if i%2 == 1 { // read the hello, unanswered; the first is hung up on unread
				bufio.NewReader(c).ReadString('\n')
			}
			c.Close()
		}
	})
	for range 2 {
		if _, err := client.Dial(dir); !errors.Is(err, client.ErrNoServer) {
			t.Fatalf("dial a server that hangs up: %v, want ErrNoServer", err)
		}
	}
	started := 0
	c, err := client.Connect(dir, func() error {
		started++
		ln.Close()
		hangups.Wait()
		serveIn(t, dir)
		return nil
	}, 10*time.Second)
	if err != nil || started != 1 {
		t.Fatalf("connect: %v after %d start(s)", err, started)
	}
	defer c.Close()
	if _, err := api.List.Call(ctx, c, struct{}{}); err != nil {
		t.Fatalf("the started server does not answer: %v", err)
	}
}

// Two clients at once: one blocked in wait does not hold up the other, whose kill
// ends the run the first is waiting for.
func TestTwoClients(t *testing.T) {
	h := newHarness(t)
	a, b := h.client(t), h.client(t)
	sp, err := api.Spawn.Call(ctx, a, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "30"}}})
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan api.WaitReply, 1)
	go func() {
		w, _ := api.Wait.Call(ctx, a, api.WaitArgs{ID: sp.ID})
		waited <- w
	}()
	if _, err := api.Kill.Call(ctx, b, api.RunRef{ID: sp.ID}); err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-waited:
		if w.Report.Reason != runs.ManualCancel {
			t.Errorf("waiter saw %s", w.Report.Reason)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the waiting client never got its answer")
	}
}

// A verb that panics fails its request; the server and the connection go on.
func TestPanicInAVerbIsContained(t *testing.T) {
	sessions["test-panic"] = func(*Server, context.Context, json.RawMessage) (any, error) { panic("boom") }
	t.Cleanup(func() { delete(sessions, "test-panic") }) // after the server has stopped (cleanups run last first)
	h := newHarness(t)
	c := h.client(t)
	if err := c.Call(ctx, "test-panic", nil, nil); !codeIs(err, api.CodeFailed) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicking verb: %v", err)
	}
	if _, err := api.List.Call(ctx, c, struct{}{}); err != nil {
		t.Fatalf("after the panic: %v", err)
	}
}
