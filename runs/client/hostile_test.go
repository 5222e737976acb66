package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/api"
)

// hostileServer answers a UI's hello and subscription as a server would, then sends
// frame on the stream: a server that may send anything.
func hostileServer(t *testing.T, frame api.Frame) func() (*Client, error) {
	return hostileStream(t, func(enc *json.Encoder, w net.Conn) { enc.Encode(api.StreamMsg{Frame: &frame}) })
}

// hostileStream is hostileServer, sending what stream writes after the subscription.
func hostileStream(t *testing.T, stream func(enc *json.Encoder, w net.Conn)) func() (*Client, error) {
	return func() (*Client, error) {
		mine, theirs := net.Pipe()
		go func() {
			defer theirs.Close()
			r := bufio.NewReader(theirs)
			enc := json.NewEncoder(theirs)
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					return
				}
				var req api.Request
				json.Unmarshal(line, &req)
				var result any
				switch req.Verb {
				case "hello":
					result = api.HelloReply{Version: api.Version, PID: 1, Instance: "hostile"}
				case "subscribe":
					result = api.SubscribeReply{Token: "t", Runs: api.RunList{{ID: "r1", Kind: runs.KindPTY}}}
				}
				raw, _ := json.Marshal(result)
				if enc.Encode(api.Response{V: api.Version, Result: raw}) != nil {
					return
				}
				if req.Verb == "subscribe" {
					stream(enc, theirs)
				}
			}
		}()
		return NewClient(mine)
	}
}

// A frame from a hostile server (any server: the UI's own over its socket, or one
// over ssh) reaches the UI's screen with its text and SGR only: the DCS, APC, PM,
// SOS and OSC strings in it, queries and other sequences are gone before anything
// could draw them on the outer terminal; the state's title is made printable.
func TestHostileFrameSanitised(t *testing.T) {
	evil := "ok\x1b[1mbold\x1b[0m\x1bP+q544e\x1b\\\x1b_Gf=100;AAAA\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\" +
		"\x1b]52;c;ZWNobw==\x07\x1b[6n\x1b[c\x05\xc2\x9b6n!\nline2"
	rem, err := AttachWith(hostileServer(t, api.Frame{ID: "r1", Version: 1, Cols: 20, Rows: 2, Render: evil,
		State: &screen.ScreenState{Title: "t\x1b]0;x\x07"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer rem.Close()
	go func() {
		for range rem.Events() {
		}
	}()
	v, err := rem.Screen("r1")
	if err != nil || v == nil {
		t.Fatalf("screen: %v, %v", v, err)
	}
	got, ok := eventually.Within(5*time.Second, func() (string, bool) { return v.Render(), v.Render() != "" })
	if !ok {
		t.Fatal("no frame came")
	}
	if want := "ok\x1b[1mbold\x1b[0m6n!\nline2"; got != want {
		t.Errorf("the hostile frame rendered %q, want %q", got, want)
	}
	for _, s := range []string{"\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1b]", "\x05", "\xc2\x9b", "\x1b[6n", "\x1b[c"} {
		if strings.Contains(got, s) {
			t.Errorf("%q reached the UI's screen", s)
		}
	}
	if title := v.State().Title; strings.ContainsRune(title, 0x1b) || strings.ContainsRune(title, 0x07) {
		t.Errorf("the title keeps control characters: %q", title)
	}
}

// A stream that stops speaking the protocol ends there, with why: the UI says the
// link ended, and reads nothing more of it.
func TestStreamEndsOnGarbage(t *testing.T) {
	rem, err := AttachWith(hostileStream(t, func(_ *json.Encoder, w net.Conn) {
		w.Write([]byte("garbage garbage garbage\n"))
		w.Write([]byte(strings.Repeat("more garbage\n", 1000)))
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer rem.Close()
	ended := make(chan struct{})
	go func() {
		for range rem.Events() {
		}
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end on a line that is not the protocol")
	}
	if err := rem.endedWith(); !errors.Is(err, ErrNotProtocol) || !strings.Contains(err.Error(), `"garbage garbage`) {
		t.Errorf("the stream ended with %v, want ErrNotProtocol quoting the line", err)
	}
}

// A command that never ends, used as a connection: Close ends it within closeGrace
// (and a bit), Abort at once; neither leaves it running.
func TestCommandConnEndsAHungCommand(t *testing.T) {
	for _, abort := range []bool{false, true} {
		conn, err := CommandConn(exec.Command("sleep", "3600"))
		if err != nil {
			t.Fatal(err)
		}
		cc := conn.(*cmdConn)
		start := time.Now()
		if abort {
			cc.Abort()
		} else {
			conn.Close()
		}
		took := time.Since(start)
		if took > closeGrace+3*time.Second || abort && took > 3*time.Second {
			t.Errorf("abort %v: took %s", abort, took)
		}
		if err := cc.cmd.Process.Signal(syscall.Signal(0)); err == nil {
			t.Errorf("abort %v: the command still runs", abort)
		}
	}
}
