package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/ptyhost/screen"
	"corral/ptyhost/screen/grid"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
)

// fakeCore is a server that records every call and answers it with nothing; its
// screens are real emulators.
type fakeCore struct {
	mu       sync.Mutex
	calls    []string // "verb args-json"
	events   chan runs.Event
	initial  []runs.Info
	screens  map[string]*screen.Screen
	snapshot []runs.Info // what snapshot answers
	log      []string    // what log answers (of the pipe run r3)
}

func (f *fakeCore) Invoke(_ context.Context, op api.Operation, args any) (any, error) {
	b, _ := json.Marshal(args)
	f.mu.Lock()
	f.calls = append(f.calls, op.Name()+" "+string(b))
	f.mu.Unlock()
	if op.Name() == "snapshot" {
		f.mu.Lock()
		defer f.mu.Unlock()
		return api.SnapshotReply{Runs: f.snapshot}, nil
	}
	if op.Name() == "log" { // the last lines asked for
		f.mu.Lock()
		defer f.mu.Unlock()
		a := args.(api.LogArgs)
		return api.LogReply{Lines: slices.Clone(f.log[max(0, len(f.log)-a.Limit):]), TotalLines: len(f.log)}, nil
	}
	if op.Name() == "screen" { // a scrollback line in red, then the screen's
		return runs.Capture{ID: "r1", Cols: 10, Rows: 1, Lines: []string{"\x1b[31mred\x1b[0m old", "now"}, HistoryLines: 1}, nil
	}
	_, zero := op.Zero()
	return zero, nil
}
func (f *fakeCore) Events() <-chan runs.Event { return f.events }
func (f *fakeCore) Initial() []runs.Info      { return f.initial }
func (f *fakeCore) Viewer() string            { return "viewer-token" }
func (f *fakeCore) Screen(id string) (screen.View, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.screens[id]; s != nil {
		return s, nil
	}
	if id == "r3" {
		return nil, nil // a pipe run: no screen, as the server's client says
	}
	return nil, fmt.Errorf("no screen %s", id)
}

// sent is the calls of the input lane and the answers (what reaches a run).
func (f *fakeCore) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if !strings.HasPrefix(c, "watch ") && !strings.HasPrefix(c, "focus ") {
			out = append(out, c)
		}
	}
	return out
}

const testToken = "0123456789abcdef0123456789abcdef"

var toyAgent = func() *agentstate.Agent {
	a, err := agentstate.ParseRules("toy.toml", []byte(`agent = "toy"
[[rule]]
name = "question"
state = "waiting"
region = "screen"
all = ['Allow\?']
approve = ["y"]
deny = ["Escape"]
`))
	if err != nil {
		panic(err)
	}
	return a
}()

func newTest(t *testing.T, o Options) (*fakeCore, *Server, *httptest.Server) {
	t.Helper()
	f := &fakeCore{events: make(chan runs.Event, 16), screens: map[string]*screen.Screen{"r1": screen.NewScreen(20, 4)},
		initial: []runs.Info{{ID: "r1", Name: "one", Kind: "pty", State: runs.Running},
			{ID: "r2", Name: "two", Kind: "pty", State: runs.Running, AgentStatus: runs.AgentStatus{Agent: "toy", AgentState: agentstate.Waiting, AgentRule: "question"}},
			{ID: "r3", Name: "three", Kind: "pipe", State: runs.Running}}}
	o.Token, o.Agents = testToken, agentstate.NewSet(toyAgent)
	s := New(f, o)
	ts := httptest.NewServer(s.Handler())
	go s.Pump()
	t.Cleanup(func() { ts.Close(); close(f.events) })
	return f, s, ts
}

func cookieOf(s *Server) *http.Cookie { return &http.Cookie{Name: cookieName, Value: s.auth.cookie} }

func do(t *testing.T, ts *httptest.Server, method, path string, hdr map[string]string, c *http.Cookie, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json") // as the page's fetch does
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if c != nil {
		req.AddCookie(c)
	}
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var b strings.Builder
	bufio.NewReader(r.Body).WriteTo(&b)
	return r.StatusCode, b.String()
}

// The token is asked once and exchanged for an HttpOnly, SameSite=Strict cookie that
// is not the token; without the cookie nothing but the page's static files answers.
func TestTokenAndCookie(t *testing.T) {
	_, s, ts := newTest(t, Options{})
	for _, q := range []string{"", "?token=", "?token=wrong", "?token=" + testToken[:31]} {
		if code, _ := do(t, ts, "GET", "/login"+q, nil, nil, ""); code != http.StatusUnauthorized {
			t.Errorf("login%s: %d, want 401", q, code)
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/login?token="+testToken, nil)
	r, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	cs := r.Cookies()
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" || len(cs) != 1 {
		t.Fatalf("login: %d %v %v", r.StatusCode, r.Header, cs)
	}
	c := cs[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Value == testToken || c.Value != s.auth.cookie {
		t.Errorf("cookie %+v", c)
	}
	for _, p := range []string{"/", "/api/live", "/api/runs/r1/history"} {
		if code, _ := do(t, ts, "GET", p, nil, nil, ""); code != http.StatusUnauthorized {
			t.Errorf("GET %s without the cookie: %d", p, code)
		}
		if code, _ := do(t, ts, "GET", p, nil, &http.Cookie{Name: cookieName, Value: testToken}, ""); code != http.StatusUnauthorized {
			t.Errorf("GET %s with the token as cookie: %d", p, code)
		}
	}
	if code, body := do(t, ts, "GET", "/", nil, c, ""); code != 200 || !strings.Contains(body, "<title>Corral</title>") {
		t.Errorf("page with the cookie: %d", code)
	}
	if code, _ := do(t, ts, "GET", "/app.js", nil, nil, ""); code != 200 {
		t.Errorf("app.js: %d", code)
	}
}

// Every POST needs the cookie and the page's own Origin; the live channel refuses a
// foreign Origin or a cross-site fetch. Nothing reaches a run from a refused one.
func TestOrigin(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	c := cookieOf(s)
	own := "http://" + strings.TrimPrefix(ts.URL, "http://")
	for _, h := range []map[string]string{nil, {"Origin": "http://evil.example"}, {"Origin": "null"},
		{"Origin": own + ".evil.example"}, {"Origin": "ftp://" + strings.TrimPrefix(ts.URL, "http://")},
		{"Origin": "http://127.0.0.1:1"}, {"Origin": "http://localhost:" + ts.URL[strings.LastIndex(ts.URL, ":")+1:]}} {
		if code, _ := do(t, ts, "POST", "/api/runs/r1/keys", h, c, `{"keys":["x"]}`); code != http.StatusForbidden {
			t.Errorf("POST with %v: %d, want 403", h, code)
		}
	}
	if code, _ := do(t, ts, "POST", "/api/runs/r1/keys", map[string]string{"Origin": own}, nil, `{"keys":["x"]}`); code != http.StatusUnauthorized {
		t.Errorf("POST without the cookie: %d, want 401", code)
	}
	for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
		{"Origin": "null"}, {"Origin": "http://127.0.0.1:1"}} { // a page on another port of the same host is same-site, not same-origin
		if code := liveStatus(t, ts, h, c); code != http.StatusForbidden {
			t.Errorf("live with %v: %d, want 403", h, code)
		}
	}
	if got := f.sent(); len(got) != 0 {
		t.Fatalf("refused requests reached the server: %v", got)
	}
	if code, _ := do(t, ts, "POST", "/api/runs/r1/keys", map[string]string{"Origin": own}, c, `{"keys":["x","Enter"]}`); code != http.StatusNoContent {
		t.Fatalf("own POST: %d", code)
	}
	if got := f.sent(); len(got) != 1 || got[0] != `send-keys {"id":"r1","keys":["x","Enter"]}` {
		t.Errorf("sent %v", got)
	}
}

// --read-only sends nothing, whatever is asked; a run that does not exist, an action
// that does not, a paste over the limit are refused with one clear status.
func TestReadOnlyAndBadInput(t *testing.T) {
	f, s, ts := newTest(t, Options{ReadOnly: true})
	c := cookieOf(s)
	own := map[string]string{"Origin": ts.URL}
	for _, a := range []string{"keys", "paste", "submit", "interrupt", "cancel", "approve", "deny"} {
		if code, body := do(t, ts, "POST", "/api/runs/r2/"+a, own, c, `{"keys":["y"],"text":"x"}`); code != http.StatusForbidden || !strings.Contains(body, "read-only") {
			t.Errorf("read-only %s: %d %s", a, code, body)
		}
	}
	if got := f.sent(); len(got) != 0 {
		t.Fatalf("read-only sent %v", got)
	}

	f, s, ts = newTest(t, Options{})
	c = cookieOf(s)
	own = map[string]string{"Origin": ts.URL}
	for _, tc := range []struct {
		path, body string
		code       int
	}{
		{"/api/runs/nope/keys", `{"keys":["x"]}`, http.StatusNotFound},
		{"/api/runs/r1/explode", `{}`, http.StatusNotFound},
		{"/api/runs/r1/keys", `not json`, http.StatusBadRequest},
		{"/api/runs/r1/paste", `{"text":"` + strings.Repeat("a", MaxBody) + `"}`, http.StatusRequestEntityTooLarge},
		{"/api/runs/r1/approve", `{}`, http.StatusConflict}, // not waiting at a question
	} {
		if code, body := do(t, ts, "POST", tc.path, own, c, tc.body); code != tc.code {
			t.Errorf("%s: %d %s, want %d", tc.path, code, body, tc.code)
		}
	}
	if code, _ := do(t, ts, "GET", "/api/live?view=nope", nil, c, ""); code != http.StatusNotFound {
		t.Errorf("live on a run that does not exist: %d", code)
	}
	if got := f.sent(); len(got) != 0 {
		t.Fatalf("refused requests sent %v", got)
	}
	// The answers are the agent's own keys, from its rule for the question.
	for a, want := range map[string]string{"approve": `send-keys {"id":"r2","keys":["y"]}`, "deny": `send-keys {"id":"r2","keys":["Escape"]}`} {
		if code, _ := do(t, ts, "POST", "/api/runs/r2/"+a, own, c, `{}`); code != http.StatusNoContent {
			t.Fatalf("%s: %d", a, code)
		}
		if got := f.sent(); got[len(got)-1] != want {
			t.Errorf("%s sent %v, want %s", a, got, want)
		}
	}
}

// liveStatus is the status the live channel answers with; its stream is not read.
func liveStatus(t *testing.T, ts *httptest.Server, hdr map[string]string, c *http.Cookie) int {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/api/live", nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	req.AddCookie(c)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	return r.StatusCode
}

// liveReader reads a live channel's messages.
type liveReader struct {
	msgs chan map[string]any
	stop func()
}

func openLive(t *testing.T, s *Server, ts *httptest.Server, view string) *liveReader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/live?view="+url.QueryEscape(view), nil)
	req.AddCookie(cookieOf(s))
	r, err := http.DefaultClient.Do(req)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("live: %v %v", err, r)
	}
	lr := &liveReader{msgs: make(chan map[string]any, 100000), stop: cancel}
	go func() {
		defer r.Body.Close()
		sc := bufio.NewScanner(r.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]any
				json.Unmarshal([]byte(d), &m)
				lr.msgs <- m
			}
		}
		close(lr.msgs)
	}()
	t.Cleanup(cancel)
	return lr
}

// next is the next message of type typ, skipping others.
func (lr *liveReader) next(t *testing.T, typ string) map[string]any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-lr.msgs:
			if !ok {
				t.Fatalf("live channel closed waiting for %s", typ)
			}
			if m["type"] == typ {
				return m
			}
		case <-deadline:
			t.Fatalf("no %s message", typ)
		}
	}
}

// The run in view gets row diffs at most once a frame, however fast its output;
// a run not in view gets none; the list hears of state changes, never of output.
func TestLiveRate(t *testing.T) {
	f, s, ts := newTest(t, Options{Frame: 50 * time.Millisecond})
	lr := openLive(t, s, ts, "r1")
	lr.next(t, "hello")
	lr.next(t, "runs")
	scr := f.screens["r1"]
	// Output as fast as it comes for half a second: a frame per change would be
	// hundreds; one per 50 ms frame is ten or so.
	start := time.Now()
	writes := 0
	for ; time.Since(start) < 500*time.Millisecond; writes++ {
		scr.Write(fmt.Appendf(nil, "\r%d", writes))
		f.events <- runs.Event{Type: runs.EventOutput, Run: runs.Info{ID: "r1"}}
		f.events <- runs.Event{Type: runs.EventOutput, Run: runs.Info{ID: "r2"}}
	}
	want := fmt.Sprint(writes - 1)
	var frames int
	for {
		m := lr.next(t, "screen")
		frames++
		if m["id"] != "r1" {
			t.Fatalf("a screen of a run not in view: %v", m)
		}
		line, _ := json.Marshal(m["lines"])
		if strings.Contains(string(line), `"t":"`+want) {
			break
		}
	}
	elapsed := time.Since(start)
	if most := int(elapsed/(50*time.Millisecond)) + 2; frames > most {
		t.Errorf("%d screen updates in %v: more than one a frame (%d)", frames, elapsed, most)
	}
	f.events <- runs.Event{Type: runs.EventState, Run: runs.Info{ID: "r1", Name: "one", Kind: "pty", State: runs.Exited, Seq: 9}}
	if m := lr.next(t, "run"); m["run"].(map[string]any)["state"] != "exited" {
		t.Errorf("state change: %v", m)
	}
	for len(lr.msgs) > 0 {
		if m := <-lr.msgs; m["type"] != "screen" {
			t.Errorf("output told to the list: %v", m)
		}
	}
}

// A browser that does not read is never waited for: its queue overflows, what it
// missed is dropped, and it gets a full list when it reads again.
func TestSlowBrowser(t *testing.T) {
	_, s, ts := newTest(t, Options{Queue: 4})
	req, _ := http.NewRequest("GET", ts.URL+"/api/live", nil)
	req.AddCookie(cookieOf(s))
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	br := bufio.NewReader(r.Body)
	readType := func() string {
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				var m struct{ Type string }
				json.Unmarshal([]byte(d), &m)
				return m.Type
			}
		}
	}
	for readType() != "runs" {
	}
	// Far more than the connection's buffers hold, while the browser reads nothing.
	start := time.Now()
	for range 10000 {
		s.hub.changed(runs.Info{ID: "r1", Name: strings.Repeat("n", 200), Kind: "pty", State: runs.Running, Paused: true})
		s.hub.changed(runs.Info{ID: "r1", Name: strings.Repeat("n", 200), Kind: "pty", State: runs.Running})
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("20,000 changes took %v: the hub waited for a browser", d)
	}
	for readType() != "runs" { // the fresh full picture after the overflow
	}
}

// The token file is made 0600 and kept; a file others can read is refused; an
// address other machines reach needs a token of the user's or --exposed.
func TestTokenFileAndListen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state", TokenFile)
	tok, err := LoadToken(p, true)
	if err != nil || len(tok) != 64 {
		t.Fatalf("made: %q %v", tok, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if again, _ := LoadToken(p, true); again != tok {
		t.Error("not kept")
	}
	os.Chmod(p, 0o644)
	if _, err := LoadToken(p, true); err == nil {
		t.Error("a token file others can read was taken")
	}
	if _, err := LoadToken(filepath.Join(t.TempDir(), "none"), false); err == nil {
		t.Error("a missing --token-file was made")
	}
	for addr, ok := range map[string]bool{"127.0.0.1:7457": true, "[::1]:7457": true, "localhost:1": true,
		"0.0.0.0:7457": false, ":7457": false, "192.168.1.5:80": false, "100.64.0.1:7457": false} {
		if err := CheckListen(addr, false, false); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
		if err := CheckListen(addr, true, false); err != nil {
			t.Errorf("%s with a token file: %v", addr, err)
		}
		if err := CheckListen(addr, false, true); err != nil {
			t.Errorf("%s exposed: %v", addr, err)
		}
	}
}

// calls is the calls made of verb.
func (f *fakeCore) callsOf(verb string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if strings.HasPrefix(c, verb+" ") {
			out = append(out, strings.TrimPrefix(c, verb+" "))
		}
	}
	return out
}

// The server is asked for the frames of the runs browsers view and no others, and
// told a run is looked at while a page views it with focus, and no longer when the
// page goes: it says nothing of a run somebody looks at, and all of one nobody does.
func TestWatchAndFocus(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	list := openLive(t, s, ts, "")
	list.next(t, "hello")
	if w := f.callsOf("watch"); len(w) != 0 {
		t.Errorf("a page with no run in view asked for frames: %v", w)
	}
	lr := openLive(t, s, ts, "r1")
	hello := lr.next(t, "hello")
	if w := f.callsOf("watch"); len(w) != 1 || w[0] != `{"token":"viewer-token","ids":["r1"]}` {
		t.Fatalf("watch: %v", w)
	}
	body := fmt.Sprintf(`{"client":%q,"focused":true}`, hello["client"])
	if code, _ := do(t, ts, "POST", "/api/focus", map[string]string{"Origin": ts.URL}, cookieOf(s), body); code != http.StatusNoContent {
		t.Fatalf("focus: %d", code)
	}
	if code, _ := do(t, ts, "POST", "/api/focus", map[string]string{"Origin": "http://evil.example"}, cookieOf(s), body); code != http.StatusForbidden {
		t.Fatalf("focus from elsewhere: %d", code)
	}
	if fc := f.callsOf("focus"); len(fc) != 1 || fc[0] != `{"id":"r1","viewer":"viewer-token","focused":true}` {
		t.Fatalf("focus: %v", fc)
	}
	lr.stop()
	eventually.True(t, 10*time.Second, "the view and focus dropped when the page went", func() bool {
		w, fc := f.callsOf("watch"), f.callsOf("focus")
		return len(w) == 2 && w[1] == `{"token":"viewer-token","ids":null}` &&
			len(fc) == 2 && fc[1] == `{"id":"r1","viewer":"viewer-token","focused":false}`
	})
}

// History is the run's scrollback and screen as the page draws them: spans with
// their colours, read back from the server's capture with its escapes.
func TestHistory(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	code, body := do(t, ts, "GET", "/api/runs/r1/history", nil, cookieOf(s), "")
	if code != 200 || body != `{"cols":10,"lines":[[{"t":"red","f":"i1"},{"t":" old"}],[{"t":"now"}]]}`+"\n" {
		t.Errorf("history: %d %s", code, body)
	}
	if got := f.callsOf("screen"); len(got) != 1 || got[0] != `{"id":"r1","escapes":true,"history":true}` {
		t.Errorf("asked %v", got)
	}
	if code, _ := do(t, ts, "GET", "/api/runs/nope/history", nil, cookieOf(s), ""); code != http.StatusNotFound {
		t.Errorf("history of no run: %d", code)
	}
}

// The server lost and back: the list is the new server's (a run it lacks is gone),
// the frames in view asked again, every browser given the whole picture.
func TestServerBack(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	lr := openLive(t, s, ts, "r1")
	lr.next(t, "runs")
	f.events <- runs.Event{Type: "server-lost"}
	if m := lr.next(t, "server"); m["state"] != "lost" {
		t.Fatalf("lost: %v", m)
	}
	f.mu.Lock()
	f.snapshot = []runs.Info{{ID: "r1", Name: "one", Kind: "pty", State: runs.Running}}
	f.mu.Unlock()
	f.events <- runs.Event{Type: "server-back"}
	m := lr.next(t, "runs")
	if rs := m["runs"].([]any); len(rs) != 1 || rs[0].(map[string]any)["id"] != "r1" {
		t.Errorf("the list after the server came back: %v", m)
	}
	if w := f.callsOf("watch"); len(w) != 2 || w[1] != `{"token":"viewer-token","ids":["r1"]}` {
		t.Errorf("watch after the server came back: %v", w)
	}
}

// withHost is do with a Host header of the caller's (DNS rebinding: a foreign name
// that resolved to 127.0.0.1).
func withHost(t *testing.T, ts *httptest.Server, method, path, host string, hdr map[string]string, c *http.Cookie, body string) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	req.Host = host
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if c != nil {
		req.AddCookie(c)
	}
	r, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	return r.StatusCode, r.Header
}

// A page whose name was rebound to 127.0.0.1 is same-origin to itself: its Host
// names it, and is refused on every path, the login too. localhost and loopback
// addresses answer.
func TestHostRebinding(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	evil := "evil.example:" + port
	json := map[string]string{"Origin": "http://" + evil, "Content-Type": "application/json"}
	for _, p := range []string{"/", "/login?token=" + testToken, "/?token=" + testToken, "/api/live", "/api/runs/r1/history", "/app.js"} {
		code, h := withHost(t, ts, "GET", p, evil, json, cookieOf(s), "")
		if code != http.StatusMisdirectedRequest || h.Get("Set-Cookie") != "" {
			t.Errorf("GET %s as %s: %d %v", p, evil, code, h)
		}
	}
	if code, _ := withHost(t, ts, "POST", "/api/runs/r1/keys", evil, json, cookieOf(s), `{"keys":["x"]}`); code != http.StatusMisdirectedRequest {
		t.Errorf("POST as %s: %d", evil, code)
	}
	if got := f.sent(); len(got) != 0 {
		t.Errorf("sent from a rebound page: %v", got)
	}
	for _, host := range []string{"localhost:" + port, "LocalHost:" + port, "127.0.0.1:" + port, "app.localhost:" + port, "[::1]:" + port} {
		if code, _ := withHost(t, ts, "GET", "/", host, nil, cookieOf(s), ""); code != 200 {
			t.Errorf("GET / as %s: %d", host, code)
		}
		code, _ := withHost(t, ts, "POST", "/api/runs/r1/keys", host, map[string]string{"Origin": "http://" + host, "Content-Type": "application/json"}, cookieOf(s), `{"keys":["x"]}`)
		if code != http.StatusNoContent {
			t.Errorf("POST as %s: %d", host, code)
		}
	}
}

// A form any page may send without asking (text/plain, urlencoded, multipart) is
// refused even with the cookie and a right Origin; nothing is sent.
func TestFormPostRefused(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
		code, _ := do(t, ts, "POST", "/api/runs/r1/paste", map[string]string{"Origin": ts.URL, "Content-Type": ct}, cookieOf(s), `{"text":"rm -rf ~"}`)
		if code != http.StatusUnsupportedMediaType {
			t.Errorf("POST as %q: %d", ct, code)
		}
	}
	if code, _ := do(t, ts, "POST", "/api/runs/r1/paste", map[string]string{"Origin": ts.URL, "Content-Type": "application/json; charset=utf-8"}, cookieOf(s), `{"text":"ok"}`); code != http.StatusNoContent {
		t.Errorf("JSON with a charset: %d", code)
	}
	if got := f.sent(); len(got) != 1 || !strings.Contains(got[0], `"ok"`) {
		t.Errorf("sent: %v", got)
	}
}

// No token opens nothing: an empty ?token= does not match an empty token.
func TestEmptyToken(t *testing.T) {
	s := New(&fakeCore{events: make(chan runs.Event)}, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for _, p := range []string{"/login", "/login?token=", "/?token="} {
		if code, h := withHost(t, ts, "GET", p, strings.TrimPrefix(ts.URL, "http://"), nil, nil, ""); code != http.StatusUnauthorized || h.Get("Set-Cookie") != "" {
			t.Errorf("GET %s with no token set: %d %v", p, code, h)
		}
	}
}

// The page tells the browser to send no Referer anywhere.
func TestNoReferrer(t *testing.T) {
	_, s, ts := newTest(t, Options{})
	if _, h := withHost(t, ts, "GET", "/", strings.TrimPrefix(ts.URL, "http://"), nil, cookieOf(s), ""); h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("Referrer-Policy %q", h.Get("Referrer-Policy"))
	}
}

// A focus POST that found its browser just before the browser left leaves no focus
// behind: the run would stay "looked at" and nobody be told when it waits.
func TestFocusAfterLeave(t *testing.T) {
	_, s, _ := newTest(t, Options{})
	c := newClient("r1", 4)
	s.hub.join(c)
	s.hub.leave(c)
	s.hub.setFocus(c, true)
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if len(s.hub.focused) != 0 {
		t.Errorf("focus left by a browser gone: %v", s.hub.focused)
	}
}

// Browsers that come and go, read nothing, or vanish mid-stream leave no goroutine,
// no client and no watch behind.
func TestManyBrowsersComeAndGo(t *testing.T) {
	f, s, ts := newTest(t, Options{Queue: 4})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	open := func() *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+"/api/live?view=r1", nil)
		req.AddCookie(cookieOf(s))
		r, err := cl.Do(req)
		if err != nil || r.StatusCode != 200 {
			t.Fatalf("live: %v %v", err, r)
		}
		return r
	}
	base := runtime.NumGoroutine()
	for round := range 3 {
		var rs []*http.Response
		for range 60 {
			rs = append(rs, open())
		}
		eventually.True(t, 10*time.Second, "60 browsers joined", func() bool {
			s.hub.mu.Lock()
			defer s.hub.mu.Unlock()
			return len(s.hub.clients) == 60
		})
		for range 200 { // output and list changes nobody reads
			f.screens["r1"].Write([]byte("flood "))
			s.hub.changed(runs.Info{ID: "r1", Name: strings.Repeat("n", 100), Kind: "pty", State: runs.Running, Paused: round%2 == 0})
		}
		for _, r := range rs {
			r.Body.Close()
		}
		tr.CloseIdleConnections()
		eventually.True(t, 15*time.Second, "every browser gone", func() bool {
			s.hub.mu.Lock()
			defer s.hub.mu.Unlock()
			return len(s.hub.clients) == 0 && len(s.hub.watched) == 0
		})
	}
	eventually.True(t, 15*time.Second, "goroutines back to what they were", func() bool {
		return runtime.NumGoroutine() <= base+2
	})
}

// A read-only view reports no focus: the server would write focus reports (DEC
// 1004) to the terminal of an app that asked for them, and read-only writes nothing.
func TestReadOnlyNoFocus(t *testing.T) {
	f, s, ts := newTest(t, Options{ReadOnly: true})
	lr := openLive(t, s, ts, "r1")
	hello := lr.next(t, "hello")
	body := fmt.Sprintf(`{"client":%q,"focused":true}`, hello["client"])
	if code, _ := do(t, ts, "POST", "/api/focus", map[string]string{"Origin": ts.URL}, cookieOf(s), body); code != http.StatusForbidden {
		t.Errorf("focus on a read-only view: %d", code)
	}
	lr.stop()
	eventually.True(t, 10*time.Second, "the page gone", func() bool { return len(f.callsOf("watch")) == 2 })
	if fc := f.callsOf("focus"); len(fc) != 0 {
		t.Errorf("a read-only view told the server of focus: %v", fc)
	}
}

// A proxy in front (tailscale serve) forwards its own name as Host: the names given
// answer, others still do not.
func TestHostOfAProxy(t *testing.T) {
	f, s, ts := newTest(t, Options{Hosts: []string{"box.tail1234.ts.net"}})
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	for host, want := range map[string]int{"box.tail1234.ts.net": 200, "BOX.tail1234.ts.net:443": 200, "other.ts.net": http.StatusMisdirectedRequest, "evil.example:" + port: http.StatusMisdirectedRequest} {
		if code, _ := withHost(t, ts, "GET", "/", host, nil, cookieOf(s), ""); code != want {
			t.Errorf("GET / as %s: %d, want %d", host, code, want)
		}
	}
	code, _ := withHost(t, ts, "POST", "/api/runs/r1/keys", "box.tail1234.ts.net", map[string]string{"Origin": "https://box.tail1234.ts.net", "Content-Type": "application/json"}, cookieOf(s), `{"keys":["x"]}`)
	if code != http.StatusNoContent || len(f.sent()) != 1 {
		t.Errorf("POST through the proxy: %d, sent %v", code, f.sent())
	}
}

// A signed-in browser that opens the printed URL again is sent on without the
// token in its address: no page is ever shown under it.
func TestTokenDroppedWhenSignedIn(t *testing.T) {
	_, s, ts := newTest(t, Options{})
	self := strings.TrimPrefix(ts.URL, "http://")
	for _, q := range []string{"/?token=" + testToken, "/?token=wrong", "/login?token=" + testToken} {
		code, h := withHost(t, ts, "GET", q, self, nil, cookieOf(s), "")
		if code != http.StatusSeeOther || h.Get("Location") != "/" {
			t.Errorf("GET %s signed in: %d %q", q, code, h.Get("Location"))
		}
	}
}

// An approve or deny names the question the page showed; when the run has moved on
// to another question (another rule, or the same rule asked again later) nothing is
// sent.
func TestStaleAnswer(t *testing.T) {
	f, s, ts := newTest(t, Options{})
	since := time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC)
	s.hub.changed(runs.Info{ID: "r2", Name: "two", Kind: "pty", State: runs.Running,
		AgentStatus: runs.AgentStatus{Agent: "toy", AgentState: agentstate.Waiting, AgentRule: "question", AgentStateSince: since}})
	lr := openLive(t, s, ts, "")
	list := lr.next(t, "runs")
	var shown map[string]any
	for _, r := range list["runs"].([]any) {
		if r.(map[string]any)["id"] == "r2" {
			shown = r.(map[string]any)
		}
	}
	if shown == nil || int64(shown["since"].(float64)) != since.UnixMilli() {
		t.Fatalf("the row does not say when its question began: %v", shown)
	}
	own := map[string]string{"Origin": ts.URL}
	for _, body := range []string{
		fmt.Sprintf(`{"rule":"other","since":%d}`, since.UnixMilli()),
		fmt.Sprintf(`{"rule":"question","since":%d}`, since.UnixMilli()-1000),
	} {
		if code, _ := do(t, ts, "POST", "/api/runs/r2/approve", own, cookieOf(s), body); code != http.StatusConflict {
			t.Errorf("approve %s: %d, want 409", body, code)
		}
	}
	if got := f.sent(); len(got) != 0 {
		t.Fatalf("a stale answer was sent: %v", got)
	}
	body := fmt.Sprintf(`{"rule":"question","since":%d}`, since.UnixMilli())
	if code, _ := do(t, ts, "POST", "/api/runs/r2/approve", own, cookieOf(s), body); code != http.StatusNoContent {
		t.Errorf("approve of the question shown: %d", code)
	}
	if got := f.sent(); len(got) != 1 || got[0] != `send-keys {"id":"r2","keys":["y"]}` {
		t.Errorf("sent %v", got)
	}
}

// A pipe run has no screen: its view is the tail of its output, each line in its
// colours, wrapped at 80 columns (a wide character never split), updated on its
// output; its history is its output the same way.
func TestPipeRunView(t *testing.T) {
	f, s, ts := newTest(t, Options{Frame: time.Millisecond})
	f.mu.Lock()
	f.log = []string{"\x1b[31mred\x1b[0m line", strings.Repeat("x", 100), strings.Repeat("a", 79) + "漢z", "last"}
	f.mu.Unlock()
	lr := openLive(t, s, ts, "r3")
	m := lr.next(t, "screen")
	if m["cols"] != float64(logCols) || m["rows"] != float64(logRows) || m["full"] != true {
		t.Fatalf("screen %v", m)
	}
	lines := m["lines"].(map[string]any)
	row := func(y string) string { b, _ := json.Marshal(lines[y]); return string(b) }
	for y, want := range map[string]string{
		"0": `[{"f":"i1","t":"red"},{"t":" line"}]`, // keys sorted: the row read back into a map
		"1": `[{"t":"` + strings.Repeat("x", 80) + `"}]`,
		"2": `[{"t":"` + strings.Repeat("x", 20) + `"}]`,
		"3": `[{"t":"` + strings.Repeat("a", 79) + `"}]`,
		"4": `[{"t":"漢","w":2},{"t":"z"}]`,
		"5": `[{"t":"last"}]`,
		"6": `[]`,
	} {
		if got := row(y); got != want {
			t.Errorf("row %s: %s, want %s", y, got, want)
		}
	}
	f.mu.Lock()
	f.log = append(f.log, "more")
	f.mu.Unlock()
	f.events <- runs.Event{Type: runs.EventOutput, Run: runs.Info{ID: "r3"}}
	m = lr.next(t, "screen")
	if got, _ := json.Marshal(m["lines"]); m["full"] != false || string(got) != `{"6":[{"t":"more"}]}` {
		t.Errorf("after more output: %v", m)
	}
	code, body := do(t, ts, "GET", "/api/runs/r3/history", nil, cookieOf(s), "")
	if code != 200 || !strings.Contains(body, `{"t":"漢","w":2}`) || !strings.HasPrefix(body, `{"cols":80,"lines":[[{"t":"red","f":"i1"}`) ||
		!strings.HasSuffix(body, `[{"t":"more"}]]}`+"\n") {
		t.Errorf("history of a pipe run: %d %s", code, body)
	}
}

// The live channels open at once are bounded; one that ends makes room. Whether the
// page is signed in is asked without opening one.
func TestLiveCapAndSession(t *testing.T) {
	_, s, ts := newTest(t, Options{MaxLive: 1})
	lr := openLive(t, s, ts, "")
	lr.next(t, "hello")
	if code := liveStatus(t, ts, nil, cookieOf(s)); code != http.StatusServiceUnavailable {
		t.Errorf("a second live channel: %d, want 503", code)
	}
	lr.stop()
	eventually.True(t, 10*time.Second, "room for a live channel again", func() bool {
		return liveStatus(t, ts, nil, cookieOf(s)) == http.StatusOK
	})
	if code, _ := do(t, ts, "GET", "/api/session", nil, nil, ""); code != http.StatusUnauthorized {
		t.Errorf("session without the cookie: %d", code)
	}
	if code, _ := do(t, ts, "GET", "/api/session", nil, cookieOf(s), ""); code != http.StatusNoContent {
		t.Errorf("session with the cookie: %d", code)
	}
}

// A pipe run's output of short lines is wrapped in memory of its size: each line was
// parsed into a row of logLineCells cells, and the rows cut from it held them all.
func TestWrapLinesSmall(t *testing.T) {
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = fmt.Sprintf("\x1b[32mok\x1b[0m %d", i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g := wrapLines(lines, logCols, -1)
	runtime.ReadMemStats(&after)
	text := func(y int) string {
		var b strings.Builder
		for _, c := range g.Row(y)[:6] {
			b.WriteString(c.Text)
		}
		return b.String()
	}
	if g.Rows != len(lines) || text(0) != "ok 0  " || text(len(lines)-1) != "ok 499" || g.Row(0)[0].Style == (grid.Style{}) {
		t.Fatalf("%d rows, the first %q, the last %q", g.Rows, text(0), text(len(lines)-1))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("%d lines of 8 characters took %d MB to wrap", len(lines), n>>20)
	}
}
