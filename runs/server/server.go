package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"corral/ptyhost/screen"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/listing"
)

// Core is the supervisor the server serves: the operations' core, and the screens its
// stream renders frames of. *runs.Supervisor is one.
type Core interface {
	api.Core
	Screen(id string) (*screen.Screen, error)
	// Unfocus forgets what a viewer (an attached UI, by its token) looked at.
	Unfocus(viewer string)
	// SentTo notes what a viewer's subscription sent it (runs.Supervisor.SentTo).
	SentTo(viewer string, rs []runs.Info)
}

// Options describe the server to its clients.
type Options struct {
	Instance string // the registry instance id
	StateDir string // the state dir it serves
	// Ownership says how the supervisor owns its runs, and why (corral doctor asks).
	Ownership string
	Log       *slog.Logger // nil: discard
	Limits    Limits       // zero: DefaultLimits
	// Keeper is the keeper that started the server, told whom to start next on an
	// upgrade; nil when none did.
	Keeper Handover
	// List is corral ls of the state dir from what the server holds (--all: every
	// record, else without those ended longer ago than the config keeps them); nil:
	// the server does not answer ls, and clients read the registry's files.
	List func(all bool) (listing.Doc, error)
}

// Handover is what an upgrade asks of the keeper: to start exe once this server ends.
type Handover interface{ Handover(exe string) error }

// Server answers clients on a Listener until Stop or a shutdown request.
type Server struct {
	core Core
	opt  Options
	uid  int
	log  *slog.Logger
	buf  budget   // bytes of unfinished requests, over every connection
	full refusals // connections refused over Limits.Conns, logged in batches
	idle refusals // idle connections closed for newcomers, logged in batches

	stopOnce       sync.Once
	stopped        chan struct{}
	closeLn        func()            // closes Serve's listener, once (nil before Serve)
	stopAfterReply atomic.Bool       // a shutdown was answered: stop once the reply is out
	handedOver     atomic.Bool       // an upgrade was answered: the runs go on with the next server
	lsJSON         listing.JSONCache // corral ls --json's runs as last encoded (ls.go)

	mu       sync.Mutex
	conns    map[net.Conn]*connInfo
	reserved int                    // how many of conns are served from Limits.Reserve
	subs     map[string]*subscriber // attached UIs' streams, by token
	wg       sync.WaitGroup
}

// New returns a server of core for clients of this process's uid.
func New(core Core, opt Options) *Server {
	log := opt.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opt.Limits == (Limits{}) {
		opt.Limits = DefaultLimits()
	}
	s := &Server{core: core, opt: opt, uid: os.Getuid(), log: log,
		stopped: make(chan struct{}), conns: map[net.Conn]*connInfo{}}
	s.buf.max = opt.Limits.Buffered
	return s
}

// Stopped is closed once Stop was called or a client asked for shutdown.
func (s *Server) Stopped() <-chan struct{} { return s.stopped }

// stopping reports whether Stop was called.
func (s *Server) stopping() bool {
	select {
	case <-s.stopped:
		return true
	default:
		return false
	}
}

// HandedOver reports whether the server stopped for an upgrade: its runs are the
// next server's, and must not be ended.
func (s *Server) HandedOver() bool { return s.handedOver.Load() }

// Stop ends Serve: the listener is closed and every connection with it. The listener
// closes first (its socket removed), so a client whose connection ends can tell a
// server that stopped from one that was killed, which leaves its socket behind (an
// attached UI reconnects only to the latter: client/link.go).
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		s.mu.Lock()
		closeLn := s.closeLn
		s.mu.Unlock()
		if closeLn != nil {
			closeLn()
		}
		close(s.stopped)
	})
}

// Serve accepts connections until Stop; it closes ln and every connection before it
// returns. Each connection is served on its own goroutine.
func (s *Server) Serve(ln net.Listener) error {
	closeLn := sync.OnceFunc(func() {
		if u, ok := ln.(interface{ SetUnlinkOnClose(bool) }); ok && s.handedOver.Load() {
			// Handed over: the socket stays for the next server to replace, so attached
			// UIs take the end of their stream for a lost server and reconnect.
			u.SetUnlinkOnClose(false)
		}
		ln.Close()
	})
	s.mu.Lock()
	s.closeLn = closeLn
	s.mu.Unlock()
	go func() {
		<-s.stopped
		closeLn()
		s.closeConns()
	}()
	backoff := time.Duration(0)
	for {
		c, err := ln.Accept()
		if err != nil {
			select {
			case <-s.stopped:
				s.wg.Wait()
				return nil
			default:
			}
			// Out of file descriptors, or any other failure to accept: the runs must
			// not go down with the listener, so keep trying, more slowly each time.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept", "err", err, "retry_in", backoff)
			select {
			case <-time.After(backoff):
			case <-s.stopped:
			}
			continue
		}
		backoff = 0
		if tracked, err := s.track(c); !tracked {
			s.refuse(c, err)
			continue
		}
		s.wg.Go(func() {
			defer s.untrack(c)
			s.serveConn(c)
		})
	}
}

// track counts c among the connections served, unless the server is stopping or
// has no room for it (then the error says so). At Limits.Conns it takes the slot of
// an idle connection, or one of Limits.Reserve (fair.go).
func (s *Server) track(c net.Conn) (bool, error) {
	_, pid, _ := peerCred(c) // a failure is serveConn's to report
	s.mu.Lock()
	if s.stopping() {
		s.mu.Unlock()
		return false, nil
	}
	reserve, evicted, err := s.admit(pid)
	if err != nil {
		s.mu.Unlock()
		return false, err
	}
	var from int
	var silent bool
	if evicted != nil {
		from, silent = s.conns[evicted].pid, s.conns[evicted].state == connNew || s.conns[evicted].state == connReading
		s.forget(evicted)
	}
	if reserve {
		s.reserved++
	}
	s.conns[c] = &connInfo{pid: pid, state: connNew, since: time.Now(), reserve: reserve}
	n := len(s.conns)
	s.mu.Unlock()
	if evicted != nil {
		if silent {
			// Nothing was asked on it yet (or not whole): a reply says why to a client
			// that greets late, which would otherwise take the server for gone. (On a connection
			// idle between requests it would be taken for its next request's.)
			go func() {
				evicted.SetWriteDeadline(time.Now().Add(time.Second))
				json.NewEncoder(evicted).Encode(api.Response{V: api.Version, Error: api.Errorf(api.CodeBusy,
					"%v: busy, it serves %d connections and this one had not greeted or finished its request: closed for another", errFull, n)})
				evicted.Close()
			}()
		} else {
			evicted.Close()
		}
		if k := s.idle.add(); k > 0 {
			s.log.Warn("closed idle connections", "reason", fmt.Sprintf("the server was full (%d connections): the oldest idle of the peer holding the most made room", n),
				"peer_pid", from, "closed", k)
		}
	}
	return true, nil
}

// forget stops counting c, s.mu held.
func (s *Server) forget(c net.Conn) {
	if ci := s.conns[c]; ci != nil {
		if ci.reserve {
			s.reserved--
		}
		delete(s.conns, c)
	}
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	s.forget(c)
	s.mu.Unlock()
	c.Close()
}

func (s *Server) closeConns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Close()
	}
}

// serveConn checks the peer, then answers its requests in order until it hangs up or
// breaks a limit (cut with the reason in the log).
func (s *Server) serveConn(c net.Conn) {
	enc := json.NewEncoder(c)
	if err := checkPeer(c, s.uid); err != nil {
		s.log.Warn("refused a connection", "err", err)
		enc.Encode(api.Response{V: api.Version, Error: api.Errorf(api.CodeForbidden, "%v", err)})
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	q := newRequests(c, &s.buf, s.opt.Limits)
	q.mark = func(st connState) { s.mark(c, st) }
	defer q.release()
	reserve := s.fromReserve(c)
	for {
		line, err := q.next()
		if err != nil {
			s.cut(c, enc, err)
			return
		}
		if s.stopping() {
			return // nothing more is answered once Stop returned
		}
		if reserve {
			if e := reserveRefuses(line, s.opt.Limits.Conns); e != nil {
				c.SetWriteDeadline(time.Now().Add(time.Second))
				enc.Encode(api.Response{V: api.Version, Error: e})
				return
			}
		}
		if isSubscribe(line) {
			s.mark(c, connStream)
			s.stream(ctx, c, enc, subscribeArgs(line))
			return
		}
		resp, body := s.answer(ctx, line)
		q.release() // the request is decoded: its memory goes back before the reply
		c.SetWriteDeadline(time.Now().Add(s.opt.Limits.Slow))
		err = enc.Encode(resp)
		if err == nil && len(body) > 0 {
			_, err = c.Write(body)
		}
		if err != nil {
			s.log.Warn("cut a connection", "reason", fmt.Sprintf("%v: its reply not taken within %v", errSlow, s.opt.Limits.Slow), "err", err)
			return
		}
		if s.stopAfterReply.Load() {
			s.Stop()
		}
	}
}

// cut ends a connection whose request could not be read: a client that hung up ends
// quietly; one that broke a limit is told why, if it still reads, and logged.
func (s *Server) cut(c net.Conn, enc *json.Encoder, err error) {
	code := api.CodeBusy
	switch {
	case errors.Is(err, api.ErrTooLarge):
		code, err = api.CodeTooLarge, fmt.Errorf("request over %d bytes: closing the connection", api.MaxMessage)
	case errors.Is(err, errBusy):
		err = fmt.Errorf("%w (%d bytes, the limit %d): try again", err, s.buf.used.Load(), s.buf.max)
	case errors.Is(err, errSilent), errors.Is(err, errSlow):
	default:
		return // hung up, or the server is stopping
	}
	s.log.Warn("cut a connection", "reason", err.Error())
	c.SetWriteDeadline(time.Now().Add(time.Second))
	enc.Encode(api.Response{V: api.Version, Error: api.Errorf(code, "%v", err)})
}

// refuse turns away a connection the server does not serve: over Limits.Conns (told
// so, and logged at most once a second with a count), or while stopping.
func (s *Server) refuse(c net.Conn, err error) {
	if err == nil {
		c.Close()
		return
	}
	if n := s.full.add(); n > 0 {
		s.log.Warn("refused connections", "reason", err.Error(), "refused", n)
	}
	go func() { // a client that does not read must not hold up the accept loop
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Second))
		if json.NewEncoder(c).Encode(api.Response{V: api.Version, Error: api.Errorf(api.CodeBusy, "%v", err)}) != nil {
			return
		}
		// Take what the client sends (its hello) until it hangs up: closed with its
		// request unread, its write or read could fail before it reads why, and a
		// client that cannot read the reply takes the server for gone.
		if uc, ok := c.(*net.UnixConn); ok {
			uc.CloseWrite()
		}
		io.Copy(io.Discard, io.LimitReader(c, 1<<20))
	}()
}

// subscribeArgs is what a subscribe request asks (none, from an older client).
func subscribeArgs(line []byte) api.SubscribeArgs {
	var req api.Request
	var a api.SubscribeArgs
	if json.Unmarshal(line, &req) == nil && len(req.Args) > 0 {
		json.Unmarshal(req.Args, &a)
	}
	return a
}

// isSubscribe reports whether line asks, in this protocol version, to turn its
// connection into a stream.
func isSubscribe(line []byte) bool {
	var req api.Request
	return json.Unmarshal(line, &req) == nil && req.V == api.Version && req.Verb == api.Subscribe.Name()
}

// answer decodes one request and calls its operation. A panic in one is a bug in
// Corral; it fails that request and is logged with its stack, and the server, which
// holds every run, stays up. body is what follows the reply's line (api.Bodied).
func (s *Server) answer(ctx context.Context, line []byte) (resp api.Response, body []byte) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in a request", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, body = api.Response{V: api.Version, Error: api.Errorf(api.CodeFailed, "internal error: %v", p)}, nil
		}
	}()
	var req api.Request
	if err := json.Unmarshal(line, &req); err != nil {
		return api.Response{V: api.Version, Error: api.Errorf(api.CodeBadRequest, "malformed request: %v", err)}, nil
	}
	// upgrade is answered whatever the protocol: it is how a server moves to a binary
	// that speaks another (its arguments and reply never change).
	if req.V != api.Version && req.Verb != api.Upgrade.Name() {
		return api.Response{V: api.Version, Error: api.VersionError(api.Side{Protocol: api.Version, Binary: api.Binary, PID: os.Getpid()}, req)}, nil
	}
	res, err := s.dispatch(ctx, req)
	if err != nil {
		return api.Response{V: api.Version, Error: api.AsError(err)}, nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return api.Response{V: api.Version, Error: api.Errorf(api.CodeFailed, "encode result: %v", err)}, nil
	}
	if bd, ok := res.(api.Bodied); ok {
		body = bd.ReplyBody()
	}
	return api.Response{V: api.Version, Result: b, Body: len(body)}, body
}
