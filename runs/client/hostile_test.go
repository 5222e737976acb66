package client

import (
	"bufio"
	"encoding/json"
	"net"
	"strings"
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
					enc.Encode(api.StreamMsg{Frame: &frame})
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
