package agenttest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func fastServer(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Script{Intro: "Let me run it.", Command: "echo ok", Final: "Done. " + DoneToken,
		Pace: time.Millisecond, Chunk: 100, Title: "T"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func post(t *testing.T, s *Server, path, body string) string {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %v: %s", path, resp.StatusCode, err, b)
	}
	return string(b)
}

func wantEvents(t *testing.T, s *Server, kinds ...EventKind) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, k := range kinds {
		if _, err := s.Await(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
}

// Each API: a side request is answered at once, the main request streams the text
// and the tool call, and the request that carries its result gets the final answer.
func TestServerScript(t *testing.T) {
	cases := []struct {
		name, path, side, turn, final, wantCall string
	}{
		{"anthropic", "/v1/messages?beta=true",
			`{"stream":true,"messages":[{"role":"user","content":"title?"}]}`,
			`{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hi"}]}`,
			`{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_corral_1"}]}]}`,
			`"name":"Bash"`},
		{"openai", "/v1/responses",
			`{"stream":true,"tools":[],"input":"title?"}`,
			`{"stream":true,"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"message"}]}`,
			`{"stream":true,"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"function_call_output","call_id":"call_corral_1"}]}`,
			`\"sandbox_permissions\":\"require_escalated\"`},
		{"chat", "/v1/chat/completions",
			`{"stream":false,"messages":[{"role":"user","content":"title?"}]}`,
			`{"stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"hi"}]}`,
			`{"stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_corral_1","content":"ok"}]}`,
			`"name":"bash"`},
		{"gemini", "/v1beta/models/m:streamGenerateContent?alt=sse",
			`{"contents":[{"parts":[{"text":"route?"}]}]}`,
			`{"contents":[{"parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`,
			`{"contents":[{"parts":[{"functionResponse":{"name":"run_shell_command"}}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`,
			`"functionCall"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fastServer(t)
			post(t, s, c.path, c.side)
			wantEvents(t, s, EventSide)
			if s.Seen(EventTurn) {
				t.Fatal("a side request was taken for the turn")
			}
			out := post(t, s, c.path, c.turn)
			if !strings.Contains(out, "run it") || !strings.Contains(out, c.wantCall) {
				t.Errorf("turn: no text or no call in\n%s", out)
			}
			wantEvents(t, s, EventTurn, EventToolCall, EventToolCallServed)
			out = post(t, s, c.path, c.final)
			if !strings.Contains(out, DoneToken) {
				t.Errorf("final: no %s in\n%s", DoneToken, out)
			}
			wantEvents(t, s, EventToolResult, EventFinal)
		})
	}
}

// A client that leaves in the middle of the text (the user interrupted) is an
// EventAborted, and no tool call is served.
func TestServerAbort(t *testing.T) {
	s, err := Start(Script{Intro: strings.Repeat("slow ", 100), Command: "x", Final: "y",
		Pace: 20 * time.Millisecond, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hi"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/messages", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	wantEvents(t, s, EventTurn)
	cancel()
	resp.Body.Close()
	wantEvents(t, s, EventAborted)
	if s.Seen(EventToolCall) {
		t.Error("the tool call was served after the client left")
	}
}

// Requests for any other host, through the proxy variables, are refused and noted.
func TestServerRefusesProxying(t *testing.T) {
	s := fastServer(t)
	proxy, _ := url.Parse(s.URL)
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	resp, err := c.Get("http://example.invalid/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want 403", resp.StatusCode)
	}
	if got := s.Refused(); len(got) != 1 || got[0] != "GET example.invalid" {
		t.Errorf("refused %q", got)
	}
}
