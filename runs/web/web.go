package web

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"corral/runs/agentstate"
)

//go:embed page
var pageFS embed.FS

// Options configure a Server.
type Options struct {
	Token    string          // the access token (LoadToken)
	ReadOnly bool            // nothing is sent to any run
	TLS      bool            // served over TLS: the cookie is Secure
	Agents   *agentstate.Set // whose rules' approve and deny keys answer questions
	// Hosts are names besides loopback ones that a request reaching a loopback
	// address may carry in its Host header: a proxy's in front (tailscale serve).
	Hosts []string
	// Frame is the least time between two screen updates to one browser (default
	// 16 ms, the UI's frame); Queue is how many list messages wait for one browser
	// before it is given a full picture instead (default 256).
	Frame time.Duration
	Queue int
	// MaxLive bounds the live channels open at once (default 64): each holds a
	// connection, a goroutine and a queue, so a page opened again and again in a
	// loop, or a script, cannot take the process's memory.
	MaxLive int
}

// Server is corral web's HTTP side over one Engine.
type Server struct {
	hub      *hub
	auth     auth
	readOnly bool
	frame    time.Duration
	queue    int
	mux      *http.ServeMux
	hosts    []string
	maxLive  int
	open     atomic.Int32 // live channels open now
}

// New returns the web view over core; Run (or Handler with Pump) serves it.
func New(core Engine, o Options) *Server {
	s := &Server{hub: newHub(core, o.Agents), auth: newAuth(o.Token, o.TLS), readOnly: o.ReadOnly,
		frame: o.Frame, queue: o.Queue, hosts: o.Hosts, maxLive: o.MaxLive}
	if s.frame <= 0 {
		s.frame = 16 * time.Millisecond
	}
	if s.queue <= 0 {
		s.queue = 256
	}
	if s.maxLive <= 0 {
		s.maxLive = 64
	}
	s.routes()
	return s
}

// Handler serves the page, the live channel and the actions.
func (s *Server) Handler() http.Handler { return hostGuard(s.mux, s.hosts) }

// Pump follows the server's events until its stream ends (it stopped).
func (s *Server) Pump() { s.hub.pump() }

// Serve serves on ln until ctx ends or the server's stream does; with cert and key,
// over TLS.
func (s *Server) Serve(ctx context.Context, ln net.Listener, cert, key string) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	gone := make(chan struct{})
	go func() { s.Pump(); close(gone) }()
	served := make(chan error, 1)
	go func() {
		if cert != "" {
			served <- hs.ServeTLS(ln, cert, key)
		} else {
			served <- hs.Serve(ln)
		}
	}()
	var err error
	select {
	case <-ctx.Done():
	case <-gone:
		err = ErrServerGone
	case err = <-served:
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	hs.Close() // live channels do not end by themselves
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	static, _ := fs.Sub(pageFS, "page")
	files := http.FileServerFS(static)
	public := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		files.ServeHTTP(w, r)
	}
	for _, f := range []string{"/app.js", "/style.css", "/sw.js", "/manifest.webmanifest", "/icon.svg"} {
		s.mux.HandleFunc("GET "+f, public)
	}
	s.mux.HandleFunc("GET /login", s.auth.login)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("token") { // never a page whose address (and history) holds it
			if s.auth.signedIn(r) {
				http.Redirect(w, r, "/", http.StatusSeeOther)
			} else {
				s.auth.login(w, r)
			}
			return
		}
		if !s.auth.signedIn(r) {
			http.Error(w, "not signed in: open the URL corral web printed", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
		w.Header().Set("X-Frame-Options", "DENY")
		public(w, r)
	})
	s.mux.HandleFunc("GET /api/live", s.auth.guard(false, s.live))
	// The page asks, when its live channel was refused, whether it is signed out
	// (then it says so and stops) or the channel was refused for another reason.
	s.mux.HandleFunc("GET /api/session", s.auth.guard(false, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	}))
	s.mux.HandleFunc("GET /api/runs/{id}/history", s.auth.guard(false, s.history))
	s.mux.HandleFunc("POST /api/focus", s.auth.guard(true, s.focus))
	s.mux.HandleFunc("POST /api/runs/{id}/{action}", s.auth.guard(true, s.act))
}
