package main

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"time"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/api"
)

// hostileEnv makes the test binary a hostile corral server on its stdin and stdout,
// as a fake ssh runs it for `corral proxy`: it speaks the protocol, lists one PTY run
// and sends frames of it whose rendering carries every string a terminal acts on.
const hostileEnv = "CORRAL_TEST_HOSTILE_SERVER"

// hostileRender is that frame's rendering: text the UI should show, and each string
// kind with a payload named after it.
const hostileRender = "HOSTILE-OK \x1bPhostile-dcs\x1b\\\x1b_hostile-apc\x1b\\\x1b^hostile-pm\x1b\\" +
	"\x1bXhostile-sos\x1b\\\x1b]0;hostile-osc\x07\x1b]52;c;aG9zdGlsZQ==\x07\x1b[6n\x05 END"

// hostileServerRole is the role, when the environment asks for it: it never returns.
func hostileServerRole() {
	if os.Getenv(hostileEnv) == "" {
		return
	}
	r := bufio.NewReader(os.Stdin)
	var mu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	send := func(v any) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(v)
	}
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		var req api.Request
		json.Unmarshal(line, &req)
		var result any = struct{}{}
		switch req.Verb {
		case "hello":
			result = api.HelloReply{Version: api.Version, Binary: api.Binary, PID: os.Getpid(), Instance: "hostile", StateDir: "/hostile"}
		case "subscribe":
			result = api.SubscribeReply{Token: "t", Runs: api.RunList{{ID: "rhostile0001", Name: "evil",
				Kind: runs.KindPTY, State: runs.Running, PID: os.Getpid(), StartedAt: time.Now()}}}
		}
		raw, _ := json.Marshal(result)
		send(api.Response{V: api.Version, Result: raw})
		if req.Verb == "subscribe" { // frames, over and over: whenever the UI shows the run
			go func() {
				for v := uint64(1); ; v++ {
					send(api.StreamMsg{Frame: &api.Frame{ID: "rhostile0001", Version: v, Cols: 60, Rows: 2,
						Render: hostileRender + "\n", State: &screen.ScreenState{Title: "hostile-title\x1b]0;x\x07"}}})
					time.Sleep(100 * time.Millisecond)
				}
			}()
		}
	}
}
