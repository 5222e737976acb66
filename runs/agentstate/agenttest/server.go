package agenttest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// EventKind names what the server did or saw.
type EventKind string

// The events a driver waits for. Each main-conversation event happens once per
// scripted turn; EventSide once per side request.
const (
	// EventSide: a request outside the main conversation (a title, a routing or
	// next-speaker check) was answered.
	EventSide EventKind = "side"
	// EventTurn: the main request of the turn arrived; slow text streaming starts.
	EventTurn EventKind = "turn"
	// EventToolCall: the scripted text is all written and the tool call is written
	// now; up to here the agent was surely working.
	EventToolCall EventKind = "tool-call"
	// EventToolCallServed: the response carrying the tool call has ended.
	EventToolCallServed EventKind = "tool-call-served"
	// EventToolResult: a request carrying the tool call's result arrived; the final
	// answer streams from now on.
	EventToolResult EventKind = "tool-result"
	// EventFinal: the final answer's response has ended.
	EventFinal EventKind = "final-done"
	// EventAborted: the client went away in the middle of a scripted response (the
	// user interrupted the agent).
	EventAborted EventKind = "aborted"
)

// Event is one thing the server did, in the order it happened.
type Event struct {
	Kind EventKind `json:"kind"`
	API  string    `json:"api"` // anthropic, openai, chat or gemini
	Path string    `json:"path"`
	At   time.Time `json:"at"`
}

// ErrNoEvent is returned by Await when the context ends first.
var ErrNoEvent = errors.New("agenttest: event not seen")

// Server is the scripted model server. Its methods are safe for concurrent use.
type Server struct {
	URL    string // http://127.0.0.1:PORT, no trailing slash
	script Script
	srv    *http.Server
	dump   string // CORRAL_AGENTTEST_DUMP: every request body is written here

	mu      sync.Mutex
	events  []Event
	changed chan struct{} // closed and replaced when an event is added
	nreq    int
	refused []string // hosts asked for through the proxy variables (ProxyEnv)
}

// Start serves script on 127.0.0.1 at a free port until Close. The zero Script, or
// none, is DefaultScript. When CORRAL_AGENTTEST_DUMP names a directory, every request
// body is saved there (to see what a new CLI version sends).
func Start(script ...Script) (*Server, error) {
	s := &Server{script: DefaultScript(), changed: make(chan struct{})}
	if len(script) > 0 {
		s.script = script[0].withDefaults()
	}
	s.dump = os.Getenv("CORRAL_AGENTTEST_DUMP")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("agenttest: listen: %w", err)
	}
	s.URL = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and drops its connections.
func (s *Server) Close() error { return s.srv.Close() }

// Script is the script the server plays.
func (s *Server) Script() Script { return s.script }

// ServeHTTP routes by path to the API the request belongs to. HEAD and GET of any
// path answer 200: Claude Code probes its base URL with HEAD / before it starts.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.save(r, body)
	p := r.URL.Path
	switch {
	case r.Method == http.MethodConnect || r.URL.IsAbs():
		s.refuse(w, r)
	case r.Method == http.MethodHead || r.Method == http.MethodGet:
		s.serveProbe(w, r)
	case strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 100})
	case strings.HasSuffix(p, "/messages"):
		s.serveAnthropic(w, r, body)
	case strings.HasSuffix(p, "/responses"):
		s.serveResponses(w, r, body)
	case strings.HasSuffix(p, "/chat/completions"):
		s.serveChat(w, r, body)
	case strings.Contains(p, ":streamGenerateContent"), strings.Contains(p, ":generateContent"):
		s.serveGemini(w, r, body)
	case strings.Contains(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
	default:
		http.Error(w, "agenttest: no such endpoint", http.StatusNotFound)
	}
}

// serveProbe answers HEAD and GET. A GET of .../models lists one model, which is what
// clients that check their model list want; anything else is an empty object.
func (s *Server) serveProbe(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		writeJSON(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		io.WriteString(w, "{}")
	}
}

// ProxyEnv is the environment that sends every request an agent makes to anything
// but 127.0.0.1 through this server as its proxy, which refuses it and remembers the
// host (Refused): the machine may be offline anyway, but this shows what each CLI
// tries to reach, and makes sure it reaches nothing.
// Agent.Prepare sets it for every agent.
func ProxyEnv(url string) map[string]string {
	m := map[string]string{}
	for _, k := range []string{"HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"} {
		m[k] = url
	}
	m["NO_PROXY"], m["no_proxy"] = "127.0.0.1,localhost", "127.0.0.1,localhost"
	return m
}

// refuse answers a proxy request (CONNECT host:port, or an absolute URL) with 403.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.refused = append(s.refused, r.Method+" "+r.Host)
	s.mu.Unlock()
	http.Error(w, "agenttest: offline", http.StatusForbidden)
}

// Refused lists the proxy requests refused so far, as "METHOD host".
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

// emit records an event and wakes everyone waiting in Await.
func (s *Server) emit(kind EventKind, api string, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, Event{Kind: kind, API: api, Path: r.URL.Path, At: time.Now()})
	close(s.changed)
	s.changed = make(chan struct{})
}

// Events returns every event so far, oldest first.
func (s *Server) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Event(nil), s.events...)
}

// Await returns the first event of kind, waiting for it until ctx ends.
func (s *Server) Await(ctx context.Context, kind EventKind) (Event, error) {
	for {
		s.mu.Lock()
		for _, e := range s.events {
			if e.Kind == kind {
				s.mu.Unlock()
				return e, nil
			}
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Event{}, fmt.Errorf("%w: %s (%w)", ErrNoEvent, kind, context.Cause(ctx))
		}
	}
}

// Changed returns a channel closed when the next event happens.
func (s *Server) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Seen reports whether an event of kind has happened.
func (s *Server) Seen(kind EventKind) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.events {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// save writes the request to the dump directory, numbered in arrival order.
func (s *Server) save(r *http.Request, body []byte) {
	if s.dump == "" {
		return
	}
	s.mu.Lock()
	s.nreq++
	n := s.nreq
	s.mu.Unlock()
	name := fmt.Sprintf("%03d-%s-%s.txt", n, r.Method, strings.NewReplacer("/", "_", ":", "_").Replace(r.URL.Path))
	head := fmt.Sprintf("%s %s\n%v\n\n", r.Method, r.URL.String(), r.Header)
	_ = os.MkdirAll(s.dump, 0o755)
	_ = os.WriteFile(filepath.Join(s.dump, name), append([]byte(head), body...), 0o644)
}
